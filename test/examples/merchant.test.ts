// The example merchant (examples/merchant/, its README's "integrate in 10 minutes" guide) run
// end to end against the sandbox in process: checkout, the customer pays, fails or walks away,
// the sandbox delivers the events for real, and each order ends as its events say. Its import of
// `payin-acceptance-contract` is this source tree (the aliases in vitest.config.ts).
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createPayinClient, createSandboxClient, type PayinClient } from "../../src/index.ts";
import { startSandbox, type RunningSandbox } from "../../src/sandbox/index.ts";
import { buildEvent, signedDelivery } from "../../src/testing/index.ts";
import { checkout } from "../../examples/merchant/src/checkout.ts";
import type { Order } from "../../examples/merchant/src/orders.ts";
import { startMerchant, type RunningMerchant } from "../../examples/merchant/src/server.ts";

let sandbox: RunningSandbox;
const merchants: RunningMerchant[] = [];

beforeAll(async () => {
  sandbox = await startSandbox({ port: 0 });
});
afterAll(async () => {
  await Promise.all(merchants.map((m) => m.close()));
  await sandbox.close();
});

async function until<T>(what: string, value: () => T | undefined | false | Promise<T | undefined | false>, timeoutMs = 10_000): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const found = await value();
    if (found) return found;
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
}

let orders = 0;

/** A merchant on an account of its own, with every transaction it fetched and the control API of its account. */
async function shop({ unreachableFetches = 0, faults = [] as object[] } = {}) {
  const token = `merchant-${crypto.randomUUID()}`;
  const fetched: string[] = [];
  const merchant = await startMerchant({
    baseUrl: sandbox.url,
    token,
    log: () => {},
    fetch: async (request) => {
      const id =
        request.method === "GET" ? new URL(request.url).pathname.match(/^\/api\/v1\/earn\/transactions\/([^/]+)\/$/)?.[1] : undefined;
      if (id && unreachableFetches-- > 0) throw new TypeError("fetch failed");
      if (id) fetched.push(id);
      return fetch(request);
    },
  });
  merchants.push(merchant);
  const payin: PayinClient = createPayinClient({ baseUrl: sandbox.url, token });
  // The control API as a shop's own tests drive it: typed, with the shop's token.
  const control = createSandboxClient({ baseUrl: sandbox.url, token, retry: false });
  const answered = async (call: Promise<{ data?: unknown; error?: unknown; response: Response }>) => {
    const { data, error, response } = await call;
    return { status: response.status, body: (data ?? error) as any };
  };
  // Armed before checkout, on the merchant's account only.
  for (const fault of faults) expect((await answered(control.POST("/_sandbox/v1/faults", { body: fault as never }))).status).toBe(201);
  const orderId = `ORD-${++orders}`;
  const session = await checkout(
    payin,
    {
      orderId,
      amount: 49.99,
      currency: "EUR",
      customer: { first_name: "Lucía", last_name: "García", email: `lucia.${orders}@example.com`, phone_number: `+3461234567${orders}` },
      merchantUrl: "https://shop.example.com",
    },
    merchant.orders,
  );
  const order = merchant.orders.get(orderId)!;
  return {
    merchant,
    session,
    order,
    fetched,
    types: () => merchant.received.filter((e) => !e.duplicate).map((e) => e.type),
    /** Waits until the merchant has handled `count` events (deliveries come after simulate answers). */
    handled: (count: number) => until(`${count} events`, () => merchant.received.filter((e) => !e.duplicate).length >= count),
    simulate: (body: unknown) =>
      answered(
        control.POST("/_sandbox/v1/payment-sessions/{session_id}/simulate", {
          params: { path: { session_id: session.id } },
          body: body as never,
        }),
      ),
    advance: (seconds: number) => answered(control.POST("/_sandbox/v1/clock/advance", { body: { seconds } })),
    deliveries: async () => (await control.GET("/_sandbox/v1/deliveries")).data!.data,
    redeliver: (eventId: string) =>
      answered(control.POST("/_sandbox/v1/deliveries/{event_id}/redeliver", { params: { path: { event_id: eventId } } })),
    requests: async () => (await control.GET("/_sandbox/v1/requests")).data!.data,
  };
}

/** The transactions the events name, one per transaction event the merchant handled. */
const transactionEvents = (types: string[]) => types.filter((t) => t.startsWith("transaction-"));

describe("the example merchant", () => {
  it("registers its webhook URL and records the order as pending at checkout", async () => {
    const { merchant, session, order } = await shop();
    expect(merchant.url).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
    expect(session.payment_link).toBe(`${sandbox.url}/pay/${session.id}`);
    expect(order).toMatchObject<Partial<Order>>({
      order_id: session.order_id!,
      session_id: session.id,
      amount: 49.99,
      currency: "EUR",
      status: "pending",
    });
    const listed = await (await fetch(`${merchant.url}/orders/${order.order_id}`)).json();
    expect(listed).toMatchObject({ order_id: order.order_id, status: "pending" });
  });

  it("success: paid once the customer pays, settled 60 s later; a redelivered event is a duplicate and changes nothing", async () => {
    const s = await shop();
    const paid = await s.simulate({ outcome: "pay" });
    expect(paid.status).toBe(200);
    const txn: string = paid.body.transaction.id;
    await s.handled(4);
    expect(s.types()).toEqual(["session-created", "transaction-created", "transaction-completed", "session-completed"]);
    expect(s.order.status).toBe("paid");
    // One GET of the transaction per transaction event: the order follows the fetched transaction.
    expect(s.fetched).toEqual([txn, txn]);
    expect(s.order.transactions).toEqual({ [txn]: "completed" });

    // clock/advance answers once what came due is delivered.
    await s.advance(60);
    expect(s.types()).toEqual([
      "session-created",
      "transaction-created",
      "transaction-completed",
      "session-completed",
      "transaction-settled",
    ]);
    expect(s.order.status).toBe("settled");
    expect(s.order.transactions).toEqual({ [txn]: "settled" });
    expect(s.fetched).toEqual([txn, txn, txn]);
    expect(s.order.history).toEqual(["pending", "paid", "settled"]);

    // The sandbox delivers transaction-completed again, with the same webhook-id.
    const deliveries = await until("5 attempts", async () => {
      const all = await s.deliveries();
      return all.length === 5 && all;
    });
    expect(deliveries.map((d) => [d.event_type, d.attempt, d.status])).toEqual(s.types().map((t) => [t, 1, "succeeded"]));
    const completed = deliveries.find((d) => d.event_type === "transaction-completed")!;
    const again = await s.redeliver(completed.event_id);
    expect(again.body).toMatchObject({ event_id: completed.event_id, attempt: 2, status: "succeeded", response_status: 204 });
    expect(s.merchant.received.filter((e) => e.id === completed.event_id).map((e) => e.duplicate)).toEqual([false, true]);
    expect(s.fetched).toHaveLength(3); // not fetched again
    expect(s.order.status).toBe("settled"); // not taken back to paid
    expect(s.order.history).toEqual(["pending", "paid", "settled"]);
  });

  it("failure: failed with the transaction's reason, then expired an hour after checkout", async () => {
    const s = await shop();
    const failed = await s.simulate({ outcome: "fail", failure_reason: "insufficient_funds" });
    expect(failed.status).toBe(200);
    const txn: string = failed.body.transaction.id;
    await s.handled(3);
    expect(s.types()).toEqual(["session-created", "transaction-created", "transaction-failed"]);
    expect(s.order).toMatchObject({ status: "failed", failure_reason: "insufficient_funds", transactions: { [txn]: "failed" } });
    expect(s.fetched).toEqual([txn, txn]);

    await s.advance(3600);
    expect(s.types()).toEqual(["session-created", "transaction-created", "transaction-failed", "session-expired"]);
    expect(s.order).toMatchObject({ status: "expired", session_status: "expired", failure_reason: "insufficient_funds" });
    expect(s.order.history).toEqual(["pending", "failed", "expired"]);
    expect(s.fetched).toHaveLength(transactionEvents(s.types()).length);

    // A redelivered session-expired is a duplicate too.
    const expired = await until("session-expired's attempt", async () =>
      (await s.deliveries()).find((d) => d.event_type === "session-expired"),
    );
    await s.redeliver(expired.event_id);
    expect(s.merchant.received.at(-1)).toEqual({ id: expired.event_id, type: "session-expired", duplicate: true });
    expect(s.order.history).toEqual(["pending", "failed", "expired"]);
  });

  it("expiry: pending for the hour, expired after it, with no transaction to fetch", async () => {
    const s = await shop();
    await s.handled(1);
    await s.advance(3599);
    expect(s.order.status).toBe("pending");
    await s.advance(1);
    expect(s.types()).toEqual(["session-created", "session-expired"]);
    expect(s.order).toMatchObject({ status: "expired", session_status: "expired", transactions: {} });
    expect(s.order.history).toEqual(["pending", "expired"]);
    expect(s.fetched).toEqual([]);
  });

  it("answers 503 when it cannot fetch the transaction, and handles the event when the service delivers it again", async () => {
    // Three failures: the client's first attempt and its two retries.
    const s = await shop({ unreachableFetches: 3 });
    const paid = await s.simulate({ outcome: "pay" });
    const txn: string = paid.body.transaction.id;
    // transaction-created is answered 503, and retried 5 s (± 20 %) later on the sandbox clock.
    const failed = await until("the failed attempt", async () => (await s.deliveries()).find((d) => d.status === "failed"));
    expect(failed).toMatchObject({ event_type: "transaction-created", attempt: 1, response_status: 503 });
    expect(s.merchant.received.map((e) => e.id)).not.toContain(failed.event_id);

    await s.advance(6);
    await s.handled(4);
    // Whatever order they came in: a late event does not take the order back.
    expect([...s.types()].sort()).toEqual(["session-completed", "session-created", "transaction-completed", "transaction-created"]);
    const attempts = await until("the retry", async () => {
      const found = (await s.deliveries()).filter((d) => d.event_id === failed.event_id);
      return found.length === 2 && found;
    });
    expect(attempts.map((d) => [d.attempt, d.status])).toEqual([
      [1, "failed"],
      [2, "succeeded"],
    ]);
    expect(s.merchant.received.filter((e) => e.id === failed.event_id)).toEqual([
      { id: failed.event_id, type: "transaction-created", duplicate: false },
    ]);
    expect(s.fetched).toEqual([txn, txn]); // the fetch that failed is not here
    expect(s.order.status).toBe("paid");
    expect(s.order.history).toEqual(["pending", "paid"]);
  });

  it("refuses a delivery that is not signed with its secret, and changes nothing", async () => {
    const s = await shop();
    await s.handled(1);
    // The events a handler's unit tests build (payin-acceptance-contract/testing), signed with a secret not the merchant's.
    const forged = buildEvent("session-completed", {
      data: { session_id: s.session.id, counterparty_id: s.session.counterparty_id, order_id: s.order.order_id },
    });
    const { headers, body } = await signedDelivery(forged, "whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw");
    const res = await fetch(`${s.merchant.url}/webhooks/payin`, { method: "POST", headers, body });
    expect(res.status).toBe(401);
    expect(await res.json()).toMatchObject({ code: "webhook_invalid_signature" });
    expect(s.order.status).toBe("pending");
    expect(s.merchant.received.map((e) => e.id)).not.toContain(forged.id);
  });

  it("checks out through a 503 and a lost answer: it retries with the same Idempotency-Key, and the order has one session", async () => {
    const s = await shop({
      faults: [
        { target: "request", operation_id: "createCounterparty", effect: "status", status: 503, retry_after_seconds: 0, times: 1 },
        { target: "request", operation_id: "createPaymentSession", effect: "drop", times: 1 },
      ],
    });
    // Oldest first, after the merchant's registration of its webhook URL.
    const requests = (await s.requests()).reverse().filter((r) => r.operation_id !== "registerWebhook");
    const key = requests[0]!.idempotency_key;
    expect(key).toMatch(/^[0-9a-f-]{36}$/);
    expect(requests.map((r) => [r.operation_id, r.status, r.answered, r.idempotency_key ?? null, r.fault?.effect ?? null])).toEqual([
      ["createCounterparty", 503, true, key, "status"],
      ["createCounterparty", 201, true, key, null],
      ["createPaymentSession", 201, false, s.order.order_id, "drop"],
      ["createPaymentSession", 201, true, s.order.order_id, null],
    ]);
    // One session: one session-created, for the session the order has.
    await s.handled(1);
    const created = (await s.deliveries()).filter((d) => d.event_type === "session-created");
    expect(created).toHaveLength(1);
    expect(s.order.session_id).toBe(s.session.id);
    expect(s.types()).toEqual(["session-created"]);
  });

  it("ends each order right when every event comes twice and each session's events come newest first", async () => {
    const faults = [
      { target: "delivery", effect: "duplicate" },
      { target: "delivery", effect: "shuffle" },
    ];
    const [paid, failed] = [await shop({ faults }), await shop({ faults })];
    await paid.handled(1);
    await failed.handled(1);
    const txn: string = (await paid.simulate({ outcome: "pay" })).body.transaction.id;
    await failed.simulate({ outcome: "fail", failure_reason: "card_declined" });
    await paid.handled(4);
    await failed.handled(3);
    // Newest first: the transaction was completed before the merchant heard it was created.
    expect(paid.types()).toEqual(["session-created", "session-completed", "transaction-completed", "transaction-created"]);
    expect(failed.types()).toEqual(["session-created", "transaction-failed", "transaction-created"]);
    await paid.advance(60);
    await failed.advance(3600);
    for (const s of [paid, failed]) {
      // Each event twice, with the same id: the second is a duplicate, and changes nothing.
      const received = s.merchant.received;
      await until("every duplicate", () => received.filter((e) => e.duplicate).length === received.length / 2);
      expect(
        received
          .filter((e) => e.duplicate)
          .map((e) => e.id)
          .sort(),
      ).toEqual(
        received
          .filter((e) => !e.duplicate)
          .map((e) => e.id)
          .sort(),
      );
    }
    expect(paid.order).toMatchObject({ status: "settled", transactions: { [txn]: "settled" } });
    expect(paid.order.history).toEqual(["pending", "paid", "settled"]);
    expect(failed.order).toMatchObject({ status: "expired", failure_reason: "card_declined" });
    expect(failed.order.history).toEqual(["pending", "failed", "expired"]);
  });
});
