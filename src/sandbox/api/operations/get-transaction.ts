// GET /api/v1/earn/transactions/{transaction_id}/: the account's stored transaction as it is
// now on the account's clock (a settlement that came due is done first), or 404.
import { couldBeId } from "../../../lib/ids.ts";
import { runDueWork } from "../../flow/due-work.ts";
import type { Operation } from "../operation.ts";
import { problem } from "../../../lib/problem.ts";
import { refusal } from "../answer.ts";

export const getTransaction: Operation = {
  async handle({ account, parameters }, sandbox) {
    const id = parameters.transaction_id!;
    const notFound = () => refusal(problem(404, "not_found", `No transaction with id ${id} exists for this account.`));
    if (!couldBeId("txn", id)) return notFound();
    await runDueWork(sandbox, account.id);
    const transaction = await sandbox.store.transactions.get(account.id, id);
    return transaction ? { status: 200, body: transaction } : notFound();
  },
};
