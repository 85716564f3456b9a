// POST /_sandbox/v1/reset: empties the caller's account, its request journal too.
import type { Operation } from "../operation.ts";

export const resetAccount: Operation = {
  handle({ account }, { store, journal }) {
    store.reset(account);
    journal.clear(account.id);
    return { status: 204 };
  },
};
