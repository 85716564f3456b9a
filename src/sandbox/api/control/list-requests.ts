// GET /_sandbox/v1/requests: the caller's account's last requests to the contract's operations, newest first.
import type { Operation } from "../operation.ts";

export const listRequests: Operation = {
  handle({ account }, { journal }) {
    return { status: 200, body: { data: journal.list(account.id) } };
  },
};
