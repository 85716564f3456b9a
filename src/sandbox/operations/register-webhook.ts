// POST /webhooks: 201 with a new signing secret the first time, 200 and the same secret after.
// The sandbox also accepts http:// URLs on a loopback host, where a test's receiver listens
// (the sandbox's one documented difference from the contract, which wants https://). Events
// that waited for a URL are delivered to it.
import { accountNow } from "../clock.ts";
import type { Operation } from "../operation.ts";
import { webhookTimes } from "../store/webhooks.ts";

const LOOPBACK_HOSTS = /^(localhost|127(\.\d{1,3}){3}|\[::1\])$/i;

export function isLoopbackHttpUrl(value: unknown): boolean {
  // Stryker disable next-line BooleanLiteral: a URL that is not a string breaks `type`, which is never waived; only a `pattern` error asks this
  if (typeof value !== "string") return false;
  try {
    const url = new URL(value);
    return url.protocol === "http:" && LOOPBACK_HOSTS.test(url.hostname);
  } catch {
    return false;
  }
}

export const registerWebhook: Operation = {
  handle({ account, body }, { store, deliveries }) {
    const row = store.transaction(() => {
      store.events.release(account.id);
      return store.webhooks.register(account.id, body.url, accountNow(account));
    });
    deliveries.kick();
    return { status: row.registrations === 1 ? 201 : 200, body: { url: row.url, signing_secret: row.signing_secret, ...webhookTimes(row) } };
  },
  // Stryker disable next-line OptionalChaining: the body is an object whenever url has a pattern error
  waive: (error, body) => error.instancePath === "/url" && error.keyword === "pattern" && isLoopbackHttpUrl(body?.url),
};
