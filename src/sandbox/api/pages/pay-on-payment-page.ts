// POST /pay/{session_id}: the customer's Pay or Fail on the payment page: what the control API's
// simulate does, with its body and schema, in the session's own account.
import { simulatePayment } from "../control/simulate-payment.ts";
import type { Answer } from "../answer.ts";
import type { Sandbox } from "../operation.ts";
import type { PageCall } from "./page.ts";
import { sessionAccount } from "./session-account.ts";

export async function payOnPaymentPage({ parameters, body }: PageCall, sandbox: Sandbox): Promise<Answer> {
  const account = await sessionAccount(sandbox, parameters.session_id!);
  if ("status" in account) return account;
  return simulatePayment.handle({ account, parameters, body }, sandbox);
}
