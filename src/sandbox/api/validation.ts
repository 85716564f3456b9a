// Turns the generated validators' errors into the contract's field errors: one entry per
// offending field, named as a dot path into the body, or by the parameter's name.
import type { ValidationError } from "../../../generated/event-validators.js";
import type { RequestValidator } from "../../../generated/sandbox-requests.js";
import { ajvErrorField } from "../../lib/field.ts";
import type { ProblemFieldError as FieldError } from "../../lib/problem.ts";

function messageOf(error: ValidationError): string {
  if (error.keyword === "required") return "is required";
  if (error.keyword === "additionalProperties") return "is not a field of this request";
  // The generated validators give every error a message.
  return error.message!;
}

/**
 * The field errors of `data`, none when it is valid; `waive` drops errors the sandbox accepts on
 * purpose, `explain` words an error the sandbox's way.
 */
export function fieldErrors(
  validate: RequestValidator,
  data: unknown,
  root: string,
  waive?: (error: ValidationError) => boolean,
  explain?: (error: ValidationError) => string | undefined,
): FieldError[] {
  if (validate(data)) return [];
  return (validate.errors ?? [])
    .filter((e) => !waive?.(e))
    .map((e) => ({ field: ajvErrorField(e) || root, message: explain?.(e) ?? messageOf(e) }));
}
