// Each account has its own clock: real time plus an offset that only moves forward. Every
// record is stamped with it, and whatever comes due on it (expiries, settlements, webhook
// attempts, idempotency keys) is done by the jobs registered here, for one account when its
// clock is advanced or read, and for every account on a periodic tick as real time passes.
import type { Account } from "./store/accounts.ts";

export const accountNow = (account: Account): number => Date.now() + account.clockOffsetMs;

/** The real time at which `ms` on the account's clock comes, as its clock stands now. */
export const realTime = (account: Account, ms: number): number => ms - account.clockOffsetMs;

export const isoTime = (ms: number) => new Date(ms).toISOString();

/**
 * Work that comes due on accounts' clocks, kept as real times (see store/migrations.ts):
 * do what is due by real time `nowMs`, for the account with id `accountId`, or for every
 * account when it is null.
 */
export type DueJob = (accountId: number | null, nowMs: number) => void;

export class DueJobs {
  readonly #jobs: DueJob[] = [];

  add(job: DueJob) {
    this.#jobs.push(job);
  }

  /** Does everything due for one account by its clock's time now. */
  runFor(account: Account) {
    const now = Date.now();
    for (const job of this.#jobs) job(account.id, now);
  }

  /** Does everything due for every account as real time passes. */
  runForAll() {
    const now = Date.now();
    for (const job of this.#jobs) job(null, now);
  }
}
