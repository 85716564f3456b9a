// POST /_sandbox/v1/clock/advance: moves the account's clock forward, does what came due
// (expiries, settlements), and delivers the webhook attempts that came due before it answers.
import { accountNow, isoTime } from "../clock.ts";
import type { Operation } from "../operation.ts";

export const advanceClock: Operation = {
  async handle({ account, body }, { store, deliveries }) {
    store.transaction(() => {
      store.accounts.setClockOffset(account, account.clockOffsetMs + body.seconds * 1000);
      store.dueJobs.runFor(account);
    });
    await deliveries.deliverDue(account);
    return { status: 200, body: { now: isoTime(accountNow(account)), offset_seconds: account.clockOffsetMs / 1000 } };
  },
};
