// GET /webhooks: the account's registered URL without its secret, or 404.
import type { Operation } from "../operation.ts";
import { refusal, webhookNotRegistered } from "../problems.ts";
import { webhookTimes } from "../../store/webhooks.ts";

export const getWebhook: Operation = {
  async handle({ account }, { store }) {
    const row = await store.webhooks.get(account.id);
    if (row) return { status: 200, body: { url: row.url, ...webhookTimes(row) } };
    return refusal(webhookNotRegistered());
  },
};
