// What the contract fixes in numbers, written once. The sandbox keeps to them, and the tools that
// check an implementation (payin-conformance, payin-trigger) hold it to them: a checking tool
// imports them from here, never from the sandbox it may be checking.

/** A payment session, and its payment_link, lasts one hour from its creation (the seed; D3's expires_at). */
export const SESSION_LIFETIME_MS = 60 * 60 * 1000;

/** A delivery not answered with a 2xx within 15 s has failed, and is retried (D14). */
export const DELIVERY_TIMEOUT_MS = 15_000;

/** The retries' exponential backoff, Svix's: seconds before the 2nd to 8th attempts (D14)... */
export const RETRY_SCHEDULE_SECONDS: readonly number[] = [5, 300, 1800, 7200, 18000, 36000, 36000];
/** ...each drawn up to this share above or below. */
export const RETRY_JITTER = 0.2;

/** A receiver refuses a webhook-timestamp further than this from its clock, either way (D14). */
export const TIMESTAMP_TOLERANCE_SECONDS = 5 * 60;

/** An Idempotency-Key's first answer is replayed for at least 24 hours (D16). */
export const IDEMPOTENCY_KEY_LIFETIME_MS = 24 * 60 * 60 * 1000;
