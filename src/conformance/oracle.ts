// The contract as the judge of an answer: is its status documented for the operation, its
// content type the documented one, are the documented headers there and valid, does its body
// match the schema. Everything comes from the generated table of the two bundled documents.
import { responses, type DocumentedResponse } from "../../generated/response-validators.js";
import { ajvErrorField } from "../lib/field.ts";

export interface Operation {
  document: "contract" | "sandbox";
  operationId: string;
  method: string;
  path: string;
}

const operations: Operation[] = [...new Map(responses.map((r) => [`${r.method} ${r.path}`, r])).values()].map(
  ({ document, operationId, method, path }) => ({
    document,
    operationId,
    method,
    path,
  }),
);

const patterns = new Map(
  operations.map((op) => [op, new RegExp(`^${op.path.replace(/[.*+?^$()|[\]\\]/g, "\\$&").replace(/\{[^}]+\}/g, "[^/]+")}$`)]),
);

/** Every operation of both documents. */
export const allOperations: readonly Operation[] = operations;

/** The operation a method and a concrete path are, if any. */
export const operationOf = (method: string, pathname: string) =>
  operations.find((op) => op.method === method.toUpperCase() && patterns.get(op)!.test(pathname));

/** The documented responses of an operation, by status key (`201`, `4XX`, `default`). */
export const responsesOf = (operationId: string) => responses.filter((r) => r.operationId === operationId);

/** The documented response an answer's status falls under: its own, its range's, or the default. */
export function documentedResponse(operationId: string, status: number): DocumentedResponse | undefined {
  const documented = responsesOf(operationId);
  const find = (key: string) => documented.find((r) => r.status === key);
  return find(String(status)) ?? find(`${String(status)[0]}XX`) ?? find("default");
}

export interface Answer {
  status: number;
  headers: Headers;
  /** The body as text, "" when there is none. */
  text: string;
}

/** What in an answer breaks the contract, one line each: empty when it keeps it. */
export function breachesOf(operation: Operation, answer: Answer): string[] {
  const documented = documentedResponse(operation.operationId, answer.status);
  if (!documented) {
    const statuses = responsesOf(operation.operationId).map((r) => r.status);
    return [`status ${answer.status} is not documented for ${operation.operationId} (documented: ${statuses.join(", ")})`];
  }
  const breaches: string[] = [];
  for (const header of documented.headers) {
    const value = answer.headers.get(header.name);
    if (value === null) {
      if (header.required) breaches.push(`header ${header.name} is missing`);
    } else if (!header.validate(header.numeric ? Number(value) : value)) {
      breaches.push(`header ${header.name} ${(header.validate.errors ?? []).map((e) => e.message).join(", ")}: ${JSON.stringify(value)}`);
    }
  }
  if (documented.mediaType === null) {
    if (answer.text !== "") breaches.push("a body is sent where the contract documents none");
    return breaches;
  }
  const contentType = answer.headers.get("content-type");
  if (contentType?.split(";")[0]!.trim().toLowerCase() !== documented.mediaType) {
    breaches.push(`content type ${contentType ?? "(none)"} is not the documented ${documented.mediaType}`);
    return breaches;
  }
  let body: unknown;
  try {
    body = JSON.parse(answer.text);
  } catch {
    return [...breaches, `the body is not JSON: ${JSON.stringify(answer.text.slice(0, 80))}`];
  }
  const validate = documented.validateBody!;
  if (!validate(body))
    for (const error of validate.errors ?? [])
      breaches.push(`body.${ajvErrorField(error) || "(whole)"} ${error.message}`.replace("body.(whole)", "body"));
  return breaches;
}
