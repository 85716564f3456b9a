// POST /_sandbox/v1/clock/advance: moves the account's clock forward, does what came due
// (expiries, settlements), and makes the webhook attempts due by then before it answers, with
// how many it made and how many its order rule left due.
import { accountNow, realTime } from "../../flow/clock.ts";
import { isoTime } from "../../../lib/time.ts";
import { runDueWork } from "../../flow/due-work.ts";
import type { WaitingOperation } from "../operation.ts";

export const advanceClock: WaitingOperation = {
  waits: true,
  async handle({ account, body }, sandbox) {
    const { store, dispatcher } = sandbox;
    await store.transaction(async () => {
      await store.advanceClock(account, body.seconds * 1000);
      await runDueWork(sandbox, account.id);
    });
    const now = accountNow(sandbox.clock, account);
    const { made, stillDue } = await dispatcher.deliverDue(account, realTime(account, now));
    return {
      status: 200,
      body: { now: isoTime(now), offset_seconds: account.clockOffsetMs / 1000, attempts_made: made, attempts_still_due: stillDue },
    };
  },
};
