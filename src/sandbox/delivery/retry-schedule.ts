// When an attempt that failed is made again: after its number's delay in the schedule (seconds of
// the account's clock, jittered), counted from the attempt's end on the clock it was made by, so
// that a clock advanced while it was under way brings the retry due as it would have had the
// attempt been recorded before the advance. None after an acknowledgement, or once the schedule is spent.
import { RETRY_JITTER } from "../../lib/contract-facts.ts";
import { realTime } from "../flow/clock.ts";
import type { Account } from "../store/accounts.ts";
import type { MadeAttempt } from "./attempt.ts";

/** When the next attempt is due, on the account's clock and in real time; nulls when none will be made. */
export function nextAttempt(schedule: readonly number[], made: MadeAttempt, account: Account) {
  const delay = schedule[made.attempt - 1];
  if (made.succeeded || delay === undefined) return { nextAttemptAtMs: null, nextDueMs: null };
  const nextAttemptAtMs = made.attemptedAtMs + made.durationMs + jittered(delay * 1000);
  return { nextAttemptAtMs, nextDueMs: realTime(account, nextAttemptAtMs) };
}

/** A delay drawn uniformly within RETRY_JITTER of `ms`. */
export const jittered = (ms: number) => Math.round(ms * (1 + (Math.random() * 2 - 1) * RETRY_JITTER));
