// POST /_sandbox/v1/clock/advance: moves the account's clock forward, then does what came due.
import { accountNow, isoTime } from "../clock.ts";
import type { Operation } from "../operation.ts";

export const advanceClock: Operation = {
  handle({ account, body }, store) {
    store.transaction(() => {
      store.accounts.setClockOffset(account, account.clockOffsetMs + body.seconds * 1000);
      store.dueJobs.runFor(account);
    });
    return { status: 200, body: { now: isoTime(accountNow(account)), offset_seconds: account.clockOffsetMs / 1000 } };
  },
};
