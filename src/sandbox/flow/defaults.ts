// The sandbox's own defaults, in a module with no side effects: the bin shows them in its --help
// before it has checked that this Node can run the sandbox at all. What the contract fixes
// (the delivery timeout, the retry schedule) is in ../lib/contract-facts.ts.

/** Seconds of sandbox time from a completed transaction to its settlement. */
export const DEFAULT_SETTLEMENT_DELAY_SECONDS = 60;
