// Turns the generated validators' errors into the contract's field errors: one entry per
// offending field, named as a dot path into the body, or by the parameter's name.
import type { ValidationError } from "../../generated/event-validators.js";
import type { RequestValidator } from "../../generated/sandbox-requests.js";
import type { FieldError } from "./problems.ts";

const unescape = (segment: string) => segment.replaceAll("~1", "/").replaceAll("~0", "~");

export function fieldOf(error: ValidationError): string {
  const path = error.instancePath.split("/").slice(1).map(unescape);
  if (error.keyword === "required") path.push(String(error.params.missingProperty));
  if (error.keyword === "additionalProperties") path.push(String(error.params.additionalProperty));
  return path.join(".");
}

function messageOf(error: ValidationError): string {
  if (error.keyword === "required") return "is required";
  if (error.keyword === "additionalProperties") return "is not a field of this request";
  // Stryker disable next-line StringLiteral: the generated validators give every error a message
  return error.message ?? `breaks ${error.keyword}`;
}

/** The field errors of `data`, none when it is valid; `waive` drops errors the sandbox accepts on purpose. */
export function fieldErrors(validate: RequestValidator, data: unknown, root: string, waive?: (error: ValidationError) => boolean): FieldError[] {
  if (validate(data)) return [];
  return (validate.errors ?? []).filter((e) => !waive?.(e)).map((e) => ({ field: fieldOf(e) || root, message: messageOf(e) }));
}
