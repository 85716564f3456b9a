// POST /webhooks: 201 with a new signing secret the first time, 200 and the same secret after.
// The sandbox also accepts http:// URLs on a loopback host, where a test's receiver listens
// (decision D18: the sandbox's one documented difference from the contract, which wants
// https://). Events that waited for a URL are delivered to it.
import { accountNow } from "../../flow/clock.ts";
import type { Operation } from "../operation.ts";
import { webhookTimes } from "../../store/webhooks.ts";
import { loopbackHttpRule, unreachableUrls } from "../../flow/urls.ts";

export const registerWebhook: Operation = {
  async handle({ account, body }, { store, clock }) {
    const row = await store.transaction(async () => {
      await store.outbox.release(account.id);
      return store.webhooks.register(account.id, body.url, accountNow(clock, account));
    });
    return {
      status: row.registrations === 1 ? 201 : 200,
      body: { url: row.url, signing_secret: row.signing_secret, ...webhookTimes(row) },
    };
  },
  ...loopbackHttpRule("url"),
  check: (body, { destinations }) => {
    const refusal = typeof body?.url === "string" ? destinations.registrationRefusal(body.url) : null;
    return [...unreachableUrls(body, "url"), ...(refusal === null ? [] : [{ field: "url", message: refusal }])];
  },
};
