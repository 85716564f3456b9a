// Every problem document this package builds (RFC 9457, decision D15), from the mock, the
// webhook toolkit or the sandbox, comes from here: one shape, one base for the type URL.
import type { components } from "../../generated/openapi.ts";
import { resolveRef, type Json } from "./json.ts";
import { operationsOf } from "./openapi.ts";

/** An RFC 9457 problem, the body of every error response. */
export type Problem = components["schemas"]["Problem"];
export type ProblemFieldError = components["schemas"]["ProblemFieldError"];

/** The media type of every error response. */
export const PROBLEM_CONTENT_TYPE = "application/problem+json";

/** Where the contract's problem types are documented; a problem's `type` is this plus its `code`. */
export const PROBLEM_TYPE_BASE = "https://docs.payin.example.com/problems/";

export interface ProblemInit {
  status: number;
  /** Stable snake_case code; also names the type (`PROBLEM_TYPE_BASE` + code). */
  code: string;
  title: string;
  detail?: string;
  /** One entry per offending field; left out of the document when empty. */
  errors?: ProblemFieldError[];
  existing_id?: string;
  instance?: string;
  request_id?: string;
}

export function problem({ status, code, title, detail, errors, ...rest }: ProblemInit): Problem {
  return {
    type: PROBLEM_TYPE_BASE + code,
    title,
    status,
    ...(detail !== undefined ? { detail } : {}),
    code,
    ...(errors?.length ? { errors } : {}),
    ...rest,
  };
}

/** The response components of the contract whose one example gives a problem's code, title and status. */
export type ProblemResponse = "BadRequest" | "Unauthorized" | "PayloadTooLarge" | "UnsupportedMediaType" | "TooManyRequests" | "InternalError" | "ServiceUnavailable";

/**
 * A builder of the problems the contract documents as shared response components: the code,
 * title and status come from the component's example in `openapi` (the bundled document), the
 * detail from the caller. Throws at once if a component has no example, not at the first error.
 */
export function responseProblems(openapi: Json, components: readonly ProblemResponse[]): (component: ProblemResponse, detail: string) => Problem {
  const known = new Map<ProblemResponse, Problem>();
  for (const component of components) {
    const examples = openapi.components?.responses?.[component]?.content?.[PROBLEM_CONTENT_TYPE]?.examples;
    const first = Object.values<Json>(examples ?? {})[0];
    const example = first && resolveRef<Json>(openapi, first).value as Problem | undefined;
    if (!example) throw new Error(`The OpenAPI document has no example for the ${component} response.`);
    known.set(component, example);
  }
  return (component, detail) => {
    const example = known.get(component);
    if (!example) throw new Error(`${component} was not among the responses this builder was made for.`);
    return problem({ status: example.status, code: example.code, title: example.title, detail });
  };
}

/** Each problem code of the documents' examples, with its title: `{ not_found: "Not found" }`. */
export function problemTitles(...bundles: Json[]): Record<string, string> {
  const titles: Record<string, string> = {};
  for (const bundle of bundles) {
    const examples = [
      ...Object.values<Json>(bundle.components?.examples ?? {}),
      ...Object.values<Json>(bundle.components?.responses ?? {}).flatMap((r) => Object.values<Json>(r.content?.[PROBLEM_CONTENT_TYPE]?.examples ?? {})),
      ...operationsOf(bundle).flatMap(({ operation }) =>
        Object.values<Json>(operation.responses ?? {}).flatMap((r) => Object.values<Json>(r.content?.[PROBLEM_CONTENT_TYPE]?.examples ?? {})),
      ),
    ];
    for (const example of examples) {
      const value = resolveRef<Json>(bundle, example).value;
      if (typeof value?.code === "string" && typeof value.title === "string") titles[value.code] = value.title;
    }
  }
  return Object.fromEntries(Object.entries(titles).sort(([a], [b]) => a.localeCompare(b)));
}
