// GET /_sandbox/v1/listen: connects a listener (payin-listen) to the caller's account, which then
// takes its deliveries (decision D23); answered with the stream of them.
import { accountNow } from "../../flow/clock.ts";
import type { WaitingOperation } from "../operation.ts";

export const connectListener: WaitingOperation = {
  waits: true,
  async handle({ account, parameters }, { listeners, clock }) {
    const stream = await listeners.connect(account.id, parameters.forward_to ?? null, accountNow(clock, account));
    return { status: 200, stream };
  },
};
