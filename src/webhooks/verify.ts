import type { PayinEvent } from "../../generated/event-types.ts";
import { constantTimeEqual } from "./constant-time.ts";
import { WebhookVerificationError } from "./errors.ts";
import { headerValue, type WebhookHeaders } from "./headers.ts";
import { parseEvent } from "./parse.ts";
import { secretKeys } from "./secret.ts";
import { signature, unixSeconds } from "./sign.ts";
import { TIMESTAMP_TOLERANCE_SECONDS } from "../lib/contract-facts.ts";

export interface VerifyWebhookOptions {
  /** How far `webhook-timestamp` may be from now, either way. Default 300 (5 minutes). */
  toleranceSeconds?: number;
  /** The current time, for tests: a Date, or seconds since the Unix epoch. */
  now?: Date | number;
}

const TIMESTAMP = /^[0-9]{1,12}$/;

/**
 * Verifies a webhook delivery and returns its event, typed as `PayinEvent`.
 *
 * Checks, in order: the three Standard Webhooks headers are present; the timestamp is within
 * the tolerance; one of the `v1` signatures is the HMAC of `id.timestamp.body` under the
 * secret (compared in constant time); the body is JSON and valid against its event's schema;
 * its `id` is the `webhook-id`. Throws `WebhookVerificationError` with a `code` otherwise; an
 * authentic event of a type this version does not know is `unknown_event_type`, which the
 * contract says to acknowledge with 2xx and ignore (decision D22).
 *
 * `secret` is the endpoint's `whsec_` signing secret, or several while one is rotated
 * (`[newSecret, oldSecret]`): a delivery signed under any of them is accepted. Every signature
 * of the header is compared with the one of every secret, so the time taken does not tell
 * which secret, or which signature, matched.
 *
 * Pass the raw body exactly as received (string or bytes), not a re-serialized object.
 */
export async function verifyWebhook(
  payload: string | Uint8Array | ArrayBuffer,
  headers: WebhookHeaders,
  secret: string | readonly string[],
  options: VerifyWebhookOptions = {},
): Promise<PayinEvent> {
  const body = payload instanceof ArrayBuffer ? new Uint8Array(payload) : payload;
  if (typeof body !== "string" && !(body instanceof Uint8Array))
    throw new WebhookVerificationError("invalid_payload", "The body must be the raw request body, as a string or bytes.");
  const keys = secretKeys(secret);

  const id = required(headers, "webhook-id");
  const timestamp = required(headers, "webhook-timestamp");
  const signatures = required(headers, "webhook-signature");

  if (!TIMESTAMP.test(timestamp))
    throw new WebhookVerificationError(
      "invalid_timestamp",
      `The webhook-timestamp header is not a Unix time in seconds: ${JSON.stringify(timestamp)}.`,
    );
  const tolerance = options.toleranceSeconds ?? TIMESTAMP_TOLERANCE_SECONDS;
  const now = unixSeconds(options.now ?? new Date());
  // A NaN here (an unset environment variable, an invalid Date) would switch the check off.
  if (!Number.isFinite(tolerance) || tolerance < 0)
    throw new TypeError(`toleranceSeconds must be a number of seconds ≥ 0, not ${tolerance}`);
  if (!Number.isFinite(now)) throw new TypeError("now must be a valid Date or a number of seconds");
  const skew = now - Number(timestamp);
  if (skew > tolerance)
    throw new WebhookVerificationError(
      "timestamp_too_old",
      `The delivery was signed ${skew} s ago, more than the ${tolerance} s tolerance.`,
    );
  if (skew < -tolerance)
    throw new WebhookVerificationError(
      "timestamp_too_new",
      `The delivery is signed ${-skew} s in the future, more than the ${tolerance} s tolerance.`,
    );

  const expected = await Promise.all(keys.map((key) => signature(id, timestamp, body, key)));
  // Space-separated; a header repeated by a proxy arrives joined with ", ". Every candidate is
  // compared under every secret, so the time does not tell which one matched.
  const candidates = signatures.split(" ").map((candidate) => candidate.replace(/,$/, ""));
  const matched = expected.flatMap((mine) => candidates.map((candidate) => constantTimeEqual(candidate, mine))).includes(true);
  if (!matched) {
    const under = keys.length === 1 ? "this secret" : `any of these ${keys.length} secrets`;
    throw new WebhookVerificationError("invalid_signature", `No v1 signature in webhook-signature matches the body under ${under}.`);
  }

  return parseEvent(body, id);
}

function required(headers: WebhookHeaders, name: string): string {
  const value = headerValue(headers, name);
  if (!value) throw new WebhookVerificationError("missing_header", `The ${name} header is missing.`);
  return value;
}
