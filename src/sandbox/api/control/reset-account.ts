// POST /_sandbox/v1/reset: empties the caller's account, its request journal too.
import type { Operation } from "../operation.ts";

export const resetAccount: Operation = {
  async handle({ account }, { store }) {
    await store.reset(account);
    return { status: 204 };
  },
};
