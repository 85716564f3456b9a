// POST /_sandbox/v1/payment-sessions/{session_id}/simulate: what the customer's Pay or Fail on
// the payment page does, for a test without a browser.
import { couldBeId } from "../../../lib/ids.ts";
import type { Operation } from "../operation.ts";
import { DEFAULT_FAILURE_REASON } from "../../flow/failure-reasons.ts";
import { paymentLink } from "../../flow/urls.ts";
import { refusal } from "../answer.ts";
import { notPayable, sessionNotFound } from "../problems.ts";

export const simulatePayment: Operation = {
  async handle({ account, body, parameters }, { payments, origin }) {
    const id = parameters.session_id!;
    if (!couldBeId("ps", id)) return refusal(sessionNotFound(id));
    const outcome =
      body.outcome === "pay"
        ? { outcome: "pay" as const }
        : { outcome: "fail" as const, failure_reason: body.failure_reason ?? DEFAULT_FAILURE_REASON };
    const result = await payments.attempt(account, id, outcome);
    if ("done" in result)
      return {
        status: 200,
        body: { session: { ...result.done.session, payment_link: paymentLink(origin, id) }, transaction: result.done.transaction },
      };
    return refusal(result.refused === "not_found" ? sessionNotFound(id) : notPayable(result.session));
  },
};
