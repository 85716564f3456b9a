// GET /webhooks: the account's registered URL without its secret, or 404.
import type { Operation } from "../operation.ts";
import { refusal } from "../answer.ts";
import { webhookNotRegistered } from "../problems.ts";
import { webhookTimes } from "../../store/webhooks.ts";

export const getWebhook: Operation = {
  async handle({ account }, { store }) {
    const row = await store.webhooks.get(account.id);
    // A row without a URL holds only the secret a listener made.
    if (row?.url) return { status: 200, body: { url: row.url, ...webhookTimes(row) } };
    return refusal(webhookNotRegistered());
  },
};
