// POST /_sandbox/v1/reset: empties the caller's account.
import type { Operation } from "../operation.ts";

export const resetAccount: Operation = {
  handle({ account }, { store }) {
    store.reset(account);
    return { status: 204 };
  },
};
