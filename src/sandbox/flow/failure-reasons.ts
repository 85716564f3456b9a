// The failure reasons the sandbox offers whoever chooses Fail, on the payment page and the
// dashboard, and the one `simulate` gives a failure that names none. A failure_reason may be
// any code of the contract's form (FailureReason, an open set); these are the common ones, which
// the control API's SimulatePayment names in words.

/** The codes offered with Fail; the one chosen becomes the transaction's failure_reason. */
export const FAILURE_REASONS = ["card_declined", "insufficient_funds", "authentication_failed", "processing_error"] as const;

export type OfferedFailureReason = (typeof FAILURE_REASONS)[number];

/** Whether a value, such as a form's field, is one of the codes offered. */
export const isOfferedFailureReason = (value: string | null): value is OfferedFailureReason =>
  (FAILURE_REASONS as ReadonlyArray<string | null>).includes(value);

/** The reason a failure gets when the test names none. */
export const DEFAULT_FAILURE_REASON: OfferedFailureReason = "card_declined";
