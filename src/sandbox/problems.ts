// The contract's problem documents (RFC 9457, decision D15) for every rejection the sandbox
// makes. Kept in this one module so that it can move to the package's shared problem builder.
export interface FieldError {
  field: string;
  message: string;
}

export interface Problem {
  type: string;
  title: string;
  status: number;
  code: string;
  detail?: string;
  errors?: FieldError[];
  existing_id?: string;
}

const TITLES = {
  malformed_request: "Malformed request",
  unauthorized: "Unauthorized",
  not_found: "Not found",
  method_not_allowed: "Method not allowed",
  counterparty_exists: "Counterparty already exists",
  idempotency_key_reused: "Idempotency key reused",
  webhook_not_registered: "No webhook registered",
  payload_too_large: "Payload too large",
  unsupported_media_type: "Unsupported media type",
  validation_failed: "Validation failed",
  internal_error: "Internal error",
} as const;

export type ProblemCode = keyof typeof TITLES;

export function problem(status: number, code: ProblemCode, detail: string, extra: Partial<Problem> = {}): Problem {
  return { type: `https://docs.payin.example.com/problems/${code}`, title: TITLES[code], status, detail, code, ...extra };
}

export function validationProblem(errors: FieldError[]): Problem {
  return problem(422, "validation_failed", `The request has ${errors.length} invalid field${errors.length === 1 ? "" : "s"}.`, { errors });
}
