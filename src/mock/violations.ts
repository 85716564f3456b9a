// Prism answers an invalid request with the 422 example, which names example fields, and lists
// the real violations beside it. The mock puts those into the problem's `errors[]`, so a client
// sees which of its own fields is wrong.
import type { PrismViolation } from "./prism.ts";

export interface FieldError {
  field: string;
  message: string;
}

/** The offending field of a violation, as a dot path (`address.country_code`), or the part of the request. */
export function violationField({ location, message }: PrismViolation): string {
  const path = location.slice(2);
  // A missing or unexpected property is reported on its parent; its name is in the message.
  const named = message.match(/(?:required property|found) '([^']+)'/)?.[1];
  if (named) path.push(named);
  return path.join(".") || location.slice(1).join(".") || "request";
}

export const fieldErrors = (violations: PrismViolation[]): FieldError[] =>
  violations.map((v) => ({ field: violationField(v), message: v.message }));
