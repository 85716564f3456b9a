// GET /_sandbox/v1/payment-sessions/{session_id}: the session as it is now on the account's clock.
import { couldBeId } from "../../../lib/ids.ts";
import { runDueWork } from "../../flow/due-work.ts";
import type { Operation } from "../operation.ts";
import { paymentLink } from "../../flow/urls.ts";
import { refusal } from "../answer.ts";
import { sessionNotFound } from "../problems.ts";

export const getSandboxPaymentSession: Operation = {
  async handle({ account, parameters }, sandbox) {
    const id = parameters.session_id!;
    if (!couldBeId("ps", id)) return refusal(sessionNotFound(id));
    await runDueWork(sandbox, account.id);
    const { store, origin } = sandbox;
    const session = await store.sessions.get(account.id, id);
    if (session) return { status: 200, body: { ...session, payment_link: paymentLink(origin, id) } };
    return refusal(sessionNotFound(id));
  },
};
