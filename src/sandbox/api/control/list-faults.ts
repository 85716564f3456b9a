// GET /_sandbox/v1/faults: the faults still armed on the caller's account, oldest first.
import type { Operation } from "../operation.ts";
import { fault } from "./arm-fault.ts";

export const listFaults: Operation = {
  async handle({ account }, { store }) {
    return { status: 200, body: { data: (await store.faults.list(account.id)).map(fault) } };
  },
};
