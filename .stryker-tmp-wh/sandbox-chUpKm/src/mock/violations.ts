// @ts-nocheck
// Prism answers an invalid request with the 422 example, which names example fields, and lists
// the real violations in its `sl-violations` header. The mock puts those into the problem's
// `errors[]`, so a client sees which of its own fields is wrong.

export interface PrismViolation {
  location: string[];
  code: string | number;
  message: string;
}

export interface FieldError {
  field: string;
  message: string;
}

export function parseViolations(header: string | null): PrismViolation[] {
  if (!header) return [];
  try {
    const parsed: unknown = JSON.parse(header);
    return Array.isArray(parsed) ? (parsed as PrismViolation[]) : [];
  } catch {
    return [];
  }
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
