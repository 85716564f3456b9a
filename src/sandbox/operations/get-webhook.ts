// GET /webhooks: the account's registered URL without its secret, or 404.
import type { Operation } from "../operation.ts";
import { problem } from "../problems.ts";
import { webhookTimes } from "../store/webhooks.ts";

export const getWebhook: Operation = {
  handle({ account }, { store }) {
    const row = store.webhooks.get(account.id);
    if (row) return { status: 200, body: { url: row.url, ...webhookTimes(row) } };
    return { status: 404, body: problem(404, "webhook_not_registered", "This account has no webhook URL; register one with POST /webhooks.") };
  },
};
