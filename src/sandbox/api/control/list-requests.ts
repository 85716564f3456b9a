// GET /_sandbox/v1/requests: the caller's account's last requests to the contract's operations, newest first.
import type { Operation } from "../operation.ts";

export const listRequests: Operation = {
  async handle({ account }, { store }) {
    return { status: 200, body: { data: await store.journal.list(account.id) } };
  },
};
