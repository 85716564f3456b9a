// The sandbox's defaults, in a module with no side effects: the bin shows them in its --help
// before it has checked that this Node can run the sandbox at all.

/** Svix's schedule: the delays in seconds of sandbox time before the 2nd to 8th attempts. */
export const DEFAULT_RETRY_SCHEDULE_SECONDS: readonly number[] = [5, 300, 1800, 7200, 18000, 36000, 36000];

/** A receiver that has not answered by then has failed the attempt (D14). */
export const DEFAULT_DELIVERY_TIMEOUT_MS = 15_000;

/** Seconds of sandbox time from a completed transaction to its settlement. */
export const DEFAULT_SETTLEMENT_DELAY_SECONDS = 60;
