// Each account has its own clock: real time plus an offset that only moves forward. Every
// record is stamped with it, and whatever comes due on it (a session's expiry today; the
// next issue's settlements and webhook attempts) is done by the jobs registered here, for one
// account when its clock is advanced, and for every account on a periodic tick as real time passes.
import type { Account } from "./store/accounts.ts";

export const accountNow = (account: Account): number => Date.now() + account.clockOffsetMs;

export const isoTime = (ms: number) => new Date(ms).toISOString();

/**
 * Work that comes due on accounts' clocks. `account` given: do what is due for that account at
 * `nowMs` on its clock. `account` null: do what is due for every account at real time `nowMs`.
 */
export type DueJob = (account: Account | null, nowMs: number) => void;

export class DueJobs {
  readonly #jobs: DueJob[] = [];

  add(job: DueJob) {
    this.#jobs.push(job);
  }

  /** Does everything due for one account by its clock's time now. */
  runFor(account: Account) {
    const now = accountNow(account);
    for (const job of this.#jobs) job(account, now);
  }

  /** Does everything due for every account as real time passes. */
  runForAll() {
    const now = Date.now();
    for (const job of this.#jobs) job(null, now);
  }
}
