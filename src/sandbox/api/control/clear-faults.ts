// DELETE /_sandbox/v1/faults: disarms every fault of the caller's account.
import type { Operation } from "../operation.ts";

export const clearFaults: Operation = {
  async handle({ account }, { store }) {
    await store.faults.clear(account.id);
    return { status: 204 };
  },
};
