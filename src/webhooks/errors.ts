import { problem, type Problem } from "../lib/problem.ts";

/** Which check of a webhook delivery failed. */
export type WebhookVerificationErrorCode =
  | "invalid_secret"
  | "missing_header"
  | "invalid_timestamp"
  | "timestamp_too_old"
  | "timestamp_too_new"
  | "invalid_signature"
  | "invalid_payload"
  | "invalid_event"
  | "unknown_event_type";

/** Thrown by `verifyWebhook` for every delivery it does not accept; `code` says why. */
export class WebhookVerificationError extends Error {
  override readonly name = "WebhookVerificationError";
  readonly code: WebhookVerificationErrorCode;
  /** For `invalid_event`: each field that breaks the event's schema. */
  readonly errors: Array<{ field: string; message: string }>;

  constructor(code: WebhookVerificationErrorCode, message: string, errors: Array<{ field: string; message: string }> = []) {
    super(message);
    this.code = code;
    this.errors = errors;
  }

  /**
   * The rejection as the contract's problem details, for a receiver to answer with. A
   * signature or timestamp failure is a 401; a signed body that is not a valid event, a 400;
   * a bad secret is the receiver's own fault, a 500. The service retries any non-2xx answer,
   * which is why an `unknown_event_type` (authentic, of a type added later) is better
   * acknowledged with 2xx than answered with its problem, a 400 (decision D22).
   */
  toProblem(): Problem {
    const body = this.code === "invalid_payload" || this.code === "invalid_event" || this.code === "unknown_event_type";
    const status = this.code === "invalid_secret" ? 500 : body ? 400 : 401;
    return problem(status, `webhook_${this.code}`, this.message, {
      title: status === 401 ? "Webhook verification failed" : status === 400 ? "Invalid webhook event" : "Webhook receiver misconfigured",
      errors: this.errors,
    });
  }
}
