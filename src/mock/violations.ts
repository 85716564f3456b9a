// Prism answers an invalid request with the 422 example, which names example fields, and lists
// the real violations beside it. The mock puts those into the problem's `errors[]`, so a client
// sees which of its own fields is wrong.
import { fieldPath } from "../lib/field.ts";
import type { ProblemFieldError } from "../lib/problem.ts";
import type { PrismDiagnostic } from "./prism.ts";

// Prism reports a missing or an unexpected property on the object that lacks or has it, and
// names the property only in its message: `must have required property 'x'`, `…; found 'x'`.
const NAMED_PROPERTY = /(?:required property|found) '([^']+)'/;

/**
 * The field a violation of the request is about, as a dot path (`address.country_code`, the
 * property itself when it is missing or unexpected); the part of the request (`body`, `query`)
 * when it is about all of it, or `request`.
 */
export function violationField({ path = [], message }: PrismDiagnostic): string {
  const [, ...within] = path;
  return fieldPath(within, message.match(NAMED_PROPERTY)?.[1]) || fieldPath(path) || "request";
}

export const fieldErrors = (violations: PrismDiagnostic[]): ProblemFieldError[] =>
  violations.map((v) => ({ field: violationField(v), message: v.message }));
