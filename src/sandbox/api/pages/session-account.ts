// A payment page is reached by its session's id alone: the customer's browser has no token.
import { couldBeId } from "../../../lib/ids.ts";
import { problem } from "../../../lib/problem.ts";
import type { Account } from "../../store/accounts.ts";
import { refusal, type Answer } from "../answer.ts";
import type { Sandbox } from "../operation.ts";

/** The account that has the session, or the page's 404 when none has. */
export async function sessionAccount({ store }: Sandbox, sessionId: string): Promise<Account | Answer> {
  const found = couldBeId("ps", sessionId) ? await store.sessions.find(sessionId) : undefined;
  if (!found) return refusal(problem(404, "not_found", `No payment session ${sessionId} exists in this sandbox.`));
  return store.accounts.byId(found.accountId);
}
