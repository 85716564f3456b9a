// DELETE /_sandbox/v1/counterparties/{counterparty_id}: the counterparty with all it has, its sessions, their
// transactions, events and delivery attempts; the rest of the account untouched.
import { couldBeId } from "../../../lib/ids.ts";
import { problem } from "../../../lib/problem.ts";
import type { Operation } from "../operation.ts";
import { refusal } from "../answer.ts";

export const deleteCounterparty: Operation = {
  async handle({ account, parameters }, { store }) {
    const id = parameters.counterparty_id!;
    if (couldBeId("cp", id) && (await store.deleteCounterparty(account, id))) return { status: 204 };
    return refusal(problem(404, "not_found", `No counterparty with id ${id} exists for this account.`));
  },
};
