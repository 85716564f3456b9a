// Calls to a running sandbox as one account, for the sandbox's own tests. Every answer is
// judged against the two documents (the contract, the control API) as it comes.
import { isLoopbackHttpUrl } from "../../src/sandbox/flow/urls.ts";
import { checkResponse } from "../contract/support/response-check.ts";
import { newCounterparty } from "../../src/conformance/fixtures.ts";

export function accountOn(baseUrl: string, token = `test-${crypto.randomUUID()}`) {
  const call = async (method: string, route: string, body?: unknown) => {
    const res = await fetch(baseUrl + route, {
      method,
      headers: { Authorization: `Bearer ${token}`, ...(body !== undefined ? { "Content-Type": "application/json" } : {}) },
      ...(body !== undefined ? { body: JSON.stringify(body) } : {}),
    });
    // The sandbox's one documented difference (D18): loopback http:// URLs where the contract wants https://, echoed back.
    const checked = await checkResponse(method, baseUrl + route, res);
    const breaches = checked.breaches.filter((b) => {
      const field = /body\.(\w+) must match pattern "\^https:\/\/"$/.exec(b)?.[1];
      return !(field && isLoopbackHttpUrl((checked.body as Record<string, unknown>)[field]));
    });
    if (breaches.length > 0) throw new Error(`${method} ${route} broke its document:\n${breaches.join("\n")}`);
    const text = await res.text();
    return { status: res.status, body: text ? JSON.parse(text) : undefined };
  };
  let people = 0;
  return {
    token,
    call,
    /** A counterparty and a session of 10 EUR for it. */
    async session(extra: Record<string, unknown> = {}) {
      const counterparty = await call("POST", "/api/v1/send/counterparties/", newCounterparty());
      const session = await call("POST", "/api/v1/earn/payment-sessions/", {
        amount: 10,
        currency: "EUR",
        counterparty_id: counterparty.body.id,
        order_id: `ORD-${++people}`,
        redirect_url: "https://shop.example.com/thanks",
        source_url: "https://shop.example.com/",
        ...extra,
      });
      if (session.status !== 201) throw new Error(`create payment session answered ${session.status}: ${JSON.stringify(session.body)}`);
      return session.body;
    },
    /** Registers `url` and returns the signing secret. */
    async register(url: string): Promise<string> {
      return (await call("POST", "/webhooks", { url })).body.signing_secret;
    },
    simulate: (sessionId: string, body: unknown) => call("POST", `/_sandbox/v1/payment-sessions/${sessionId}/simulate`, body),
    advance: (seconds: number) => call("POST", "/_sandbox/v1/clock/advance", { seconds }),
    /** The account's whole delivery log, oldest first: every page, following `next_cursor` to the last. */
    async deliveries() {
      const attempts: any[] = [];
      let cursor: string | null = null;
      do {
        const page = await call("GET", `/_sandbox/v1/deliveries${cursor === null ? "" : `?cursor=${cursor}`}`);
        attempts.push(...page.body.data);
        cursor = page.body.next_cursor;
      } while (cursor !== null);
      return attempts;
    },
    transaction: (id: string) => call("GET", `/api/v1/earn/transactions/${id}/`),
  };
}
