// The mock's own answers are the contract's: each problem starts from the example of the
// response component the contract documents for that case.
import type { Problem } from "../index.ts";

type Json = Record<string, any>;

export interface ProblemFactory {
  (component: "BadRequest" | "PayloadTooLarge" | "ServiceUnavailable", detail: string): Problem;
}

export function problemFactory(openapi: Json): ProblemFactory {
  return (component, detail) => {
    const content = openapi.components?.responses?.[component]?.content?.["application/problem+json"];
    const example = Object.values<Json>(content?.examples ?? {})[0]?.value as Problem | undefined;
    if (!example) throw new Error(`The OpenAPI document has no example for the ${component} response.`);
    return { ...example, detail };
  };
}
