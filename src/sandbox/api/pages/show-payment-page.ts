// GET /pay/{session_id}: the payment page's session as it is now (expired once its hour is over),
// as the control API shows it, found by its id alone (a customer's browser has no token), with the
// failure reasons its Fail offers.
import { FAILURE_REASONS } from "../../flow/failure-reasons.ts";
import { getSandboxPaymentSession } from "../control/get-payment-session.ts";
import type { Answer } from "../answer.ts";
import type { Sandbox } from "../operation.ts";
import type { PageCall } from "./page.ts";
import { sessionAccount } from "./session-account.ts";

export async function showPaymentPage({ parameters }: PageCall, sandbox: Sandbox): Promise<Answer> {
  const account = await sessionAccount(sandbox, parameters.session_id!);
  if ("status" in account) return account;
  const answer = await getSandboxPaymentSession.handle({ account, parameters, body: undefined }, sandbox);
  return answer.status === 200 ? { status: 200, body: { session: answer.body, failure_reasons: FAILURE_REASONS } } : answer;
}
