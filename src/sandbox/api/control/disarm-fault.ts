// DELETE /_sandbox/v1/faults/{fault_id}: disarms one fault of the caller's account, the others stay armed.
import { problem } from "../../../lib/problem.ts";
import type { Operation } from "../operation.ts";
import { refusal } from "../answer.ts";

export const disarmFault: Operation = {
  async handle({ account, parameters }, { store }) {
    const id = parameters.fault_id!;
    if (await store.faults.disarm(account.id, id)) return { status: 204 };
    return refusal(problem(404, "not_found", `No fault with id ${id} is armed on this account.`));
  },
};
