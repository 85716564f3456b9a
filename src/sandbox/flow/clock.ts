// Each account has its own clock: the sandbox's real time (the clock it is given) plus an offset
// that only moves forward. Every record is stamped with it; what comes due on it is kept as the
// real time it falls due (../store/migrations.ts) and done by due-work.ts.
import type { Clock } from "../../lib/clock.ts";
import type { Account } from "../store/accounts.ts";

export const accountNow = (clock: Clock, account: Account): number => clock.now() + account.clockOffsetMs;

/** The real time at which `ms` on the account's clock comes, as its clock stands now. */
export const realTime = (account: Account, ms: number): number => ms - account.clockOffsetMs;
