// The dispatcher's schedule does not depend on HTTP: a transport of the test's own, which records
// each request and answers as told, gets every attempt the schedule makes (the order rule, the
// retries on the account's clock, the same webhook-id), signed, and what it reports is recorded.
import { afterEach, describe, expect, it } from "vitest";
import { accountNow } from "../../src/sandbox/flow/clock.ts";
import { Payments } from "../../src/sandbox/flow/payments.ts";
import { Dispatcher } from "../../src/sandbox/delivery/dispatcher.ts";
import type { Transport, TransportResult, WebhookRequest } from "../../src/sandbox/delivery/transport.ts";
import { Store } from "../../src/sandbox/store/index.ts";
import { verifyWebhook } from "../../src/webhooks/index.ts";

/** Keeps every request it is given, and answers the n-th attempt of an event (from 1) what `answer` says. */
class RecordingTransport implements Transport {
  readonly timeoutMs = 1000;
  readonly requests: WebhookRequest[] = [];
  answer: (request: { type: string; n: number }) => TransportResult = () => ({ status: 204 });

  async send(request: WebhookRequest): Promise<TransportResult> {
    this.requests.push(request);
    const n = this.requests.filter((r) => r.headers["webhook-id"] === request.headers["webhook-id"]).length;
    return this.answer({ type: JSON.parse(request.body).type, n });
  }
}

const closing: Array<() => Promise<void>> = [];
afterEach(async () => {
  for (const close of closing.splice(0)) await close();
});

/** A store in memory with one account, its webhook URL and a counterparty, delivered to by `transport`. */
async function setUp(transport: Transport) {
  const store = await Store.open();
  const dispatcher = new Dispatcher(store, { retryScheduleSeconds: [5, 300], transport });
  closing.push(async () => {
    await dispatcher.close();
    await store.close();
  });
  const account = await store.accounts.forToken("listener");
  // Outside loopback and not allowed: the HTTP transport would refuse it, so whatever is answered comes from the test's.
  const url = "https://merchant.invalid/webhooks";
  const { signing_secret: secret } = await store.webhooks.register(account.id, url, accountNow(store.clock, account));
  const person = { type: "INDIVIDUAL", payment_rail: "PAYIN", first_name: "Ana", last_name: "Li" } as const;
  const counterparty = { ...person, id: "cp_1", email: "ana@example.com", phone_number: "+34600000001", created_at: "" };
  await store.counterparties.create(account.id, counterparty, accountNow(store.clock, account));
  dispatcher.start();
  /** A session, announced, then paid: four events of one session. */
  const paidSession = async (id: string) => {
    await store.transaction(async () => {
      const request = { counterparty_id: "cp_1", amount: 5, currency: "EUR", redirect_url: "https://shop.example.com/" };
      await store.sessions.create(account.id, id, request, accountNow(store.clock, account), Date.now() + 3_600_000);
      await store.outbox.add(account.id, id, [{ type: "session-created" }], accountNow(store.clock, account));
    });
    await new Payments(store).attempt(account, id, { outcome: "pay" });
  };
  /** What an advance of the account's clock does: every attempt due by then made before it resolves. */
  const advance = async (seconds: number) => {
    await store.advanceClock(account, seconds * 1000);
    return dispatcher.deliverDue(account, Date.now());
  };
  /** Resolves once `count` attempts are recorded. */
  const recorded = (count: number) =>
    expect.poll(async () => (await store.outbox.attemptsPage(account.id, { limit: 100 })).length, { timeout: 10_000 }).toBe(count);
  return { store, account, url, secret, paidSession, advance, recorded };
}

describe("a transport other than HTTP", () => {
  it("gets the attempts the schedule makes, in the order rule's order, retried on the account's clock, signed", async () => {
    const transport = new RecordingTransport();
    transport.answer = ({ type, n }) =>
      type !== "session-created" || n === 3 ? { status: 204 } : n === 1 ? { error: "No listener is connected." } : { status: 500 };
    const { store, account, url, secret, paidSession, advance, recorded } = await setUp(transport);
    await paidSession("ps_1");
    const sent = () => transport.requests.map((r) => [JSON.parse(r.body).type, r.headers["webhook-id"]]);

    // The first attempt failed: its session's three later events are due but wait behind it (the order rule), and its
    // retry is 5 s away on the account's clock.
    await recorded(1);
    expect(await advance(0)).toEqual({ made: 0, stillDue: 3 });
    expect(await advance(3)).toEqual({ made: 0, stillDue: 3 });
    expect(transport.requests).toHaveLength(1);
    expect(await advance(4)).toEqual({ made: 1, stillDue: 3 });
    // Answered 500: retried after the schedule's second delay, then the rest go one at a time, in the order they were made.
    expect(await advance(400)).toEqual({ made: 4, stillDue: 0 });
    expect(sent().map(([type]) => type)).toEqual([
      "session-created",
      "session-created",
      "session-created",
      "transaction-created",
      "transaction-completed",
      "session-completed",
    ]);
    expect(
      new Set(
        sent()
          .slice(0, 3)
          .map(([, id]) => id),
      ).size,
    ).toBe(1);
    expect(new Set(sent().map(([, id]) => id)).size).toBe(4);

    // Each the same request an HTTP receiver would get, to the URL registered, signed anew with the account's secret.
    for (const request of transport.requests) {
      expect(request.url).toBe(url);
      expect(request.headers).toMatchObject({ "Content-Type": "application/json", "User-Agent": "payin-sandbox" });
      await expect(verifyWebhook(request.body, request.headers, secret)).resolves.toMatchObject({ type: JSON.parse(request.body).type });
    }

    // The log holds what the transport reported, and the schedule's delays from each failed attempt's end.
    const log = await store.outbox.attemptsPage(account.id, { limit: 100 });
    expect(log.map((a) => [a.type, a.attempt, a.response_status, a.error, a.succeeded])).toEqual([
      ["session-created", 1, null, "No listener is connected.", 0],
      ["session-created", 2, 500, "The receiver answered 500.", 0],
      ["session-created", 3, 204, null, 1],
      ["transaction-created", 1, 204, null, 1],
      ["transaction-completed", 1, 204, null, 1],
      ["session-completed", 1, 204, null, 1],
    ]);
    const delays = log.slice(0, 2).map((a) => a.next_attempt_at_ms! - a.attempted_at_ms - a.duration_ms);
    expect(delays[0]).toBeGreaterThanOrEqual(4000);
    expect(delays[0]).toBeLessThanOrEqual(6000);
    expect(delays[1]).toBeGreaterThanOrEqual(240_000);
    expect(delays[1]).toBeLessThanOrEqual(360_000);
  });

  it("gives up on an event the transport never delivers after the schedule's last retry, and lets the next one go", async () => {
    const transport = new RecordingTransport();
    transport.answer = ({ type }) => (type === "session-created" ? { error: "No listener is connected." } : { status: 204 });
    const { store, account, paidSession, advance, recorded } = await setUp(transport);
    await paidSession("ps_1");
    await recorded(1);
    await advance(10);
    await advance(400);
    const log = await store.outbox.attemptsPage(account.id, { limit: 100 });
    expect(log.map((a) => [a.type, a.attempt])).toEqual([
      ["session-created", 1],
      ["session-created", 2],
      ["session-created", 3],
      ["transaction-created", 1],
      ["transaction-completed", 1],
      ["session-completed", 1],
    ]);
    expect(log[2]!.next_attempt_at_ms).toBeNull();
  });
});
