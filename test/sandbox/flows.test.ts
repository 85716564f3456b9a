// The payment flow and its events, delivered for real to a receiver on loopback: the order of
// the events, what each says, the state a GET shows at each step, and every event verified by
// the package's verifyWebhook and by the standardwebhooks reference library.
import { Webhook } from "standardwebhooks";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startSandbox, type RunningSandbox } from "../../src/sandbox/index.ts";
import { EVENT_TYPES } from "../../generated/event-types.ts";
import { EVENT_FLOWS } from "../../generated/event-flows.ts";
import { verifyWebhook } from "../../src/webhooks/index.ts";
import { accountOn } from "../support/sandbox-account.ts";
import { startReceiver, type Receiver } from "../support/receiver.ts";

let sandbox: RunningSandbox;
let endpoint: Receiver;

beforeAll(async () => {
  sandbox = await startSandbox({ port: 0, settlementDelaySeconds: 60 });
  endpoint = await startReceiver();
});
afterAll(async () => {
  await sandbox.close();
  await endpoint.close();
});

/** An account with the endpoint registered; its deliveries are those with its session ids. */
async function merchant() {
  const account = accountOn(sandbox.url);
  const secret = await account.register(endpoint.url);
  const received = (sessionId: string) =>
    endpoint.attempts.filter((a) => a.status === 204 && JSON.parse(a.body).data.session_id === sessionId);
  const until = async (sessionId: string, count: number) => {
    for (let i = 0; i < 200 && received(sessionId).length < count; i++) await new Promise((r) => setTimeout(r, 10));
    return received(sessionId);
  };
  return { ...account, secret, received, until };
}

describe("the payment flow", () => {
  it("pay: transaction-created, transaction-completed, session-completed, then transaction-settled after the delay", async () => {
    const m = await merchant();
    const session = await m.session();
    const paid = await m.simulate(session.id, { outcome: "pay" });
    expect(paid.status).toBe(200);
    expect(paid.body.session.status).toBe("completed");
    expect(paid.body.transaction).toMatchObject({
      status: "completed",
      session_id: session.id,
      amount: 10,
      currency: "EUR",
      order_id: "ORD-1",
    });

    const first = await m.until(session.id, 4);
    expect(first.map((a) => a.type)).toEqual(["session-created", "transaction-created", "transaction-completed", "session-completed"]);
    const txn = paid.body.transaction.id;
    expect((await m.transaction(txn)).body.status).toBe("completed");

    // Not before the delay: 59 s of sandbox time later it is still completed.
    await m.advance(59);
    expect((await m.transaction(txn)).body.status).toBe("completed");
    expect(m.received(session.id)).toHaveLength(4);
    // The advance answers once the settlement's event is delivered.
    await m.advance(1);
    const all = m.received(session.id);
    expect(all.map((a) => a.type)).toEqual([
      "session-created",
      "transaction-created",
      "transaction-completed",
      "session-completed",
      "transaction-settled",
    ]);
    const settled = (await m.transaction(txn)).body;
    expect(settled.status).toBe("settled");
    expect(Date.parse(settled.updated_at) - Date.parse(settled.created_at)).toBe(60_000);

    // Each event says what it announces, with the session's and the transaction's identifiers.
    const events = all.map((a) => JSON.parse(a.body));
    expect(events.map((e) => e.data.status)).toEqual(["created", "created", "completed", "completed", "settled"]);
    for (const event of events.slice(1)) expect(event.data.transaction_id ?? txn).toBe(txn);
    for (const event of events)
      expect(event.data).toMatchObject({
        session_id: session.id,
        counterparty_id: session.counterparty_id,
        order_id: "ORD-1",
        amount: 10,
        currency: "EUR",
      });
    expect(new Set(events.map((e) => e.id)).size).toBe(5);
  });

  it("fail: transaction-created and transaction-failed with the reason; the session stays open and can be paid after", async () => {
    const m = await merchant();
    const session = await m.session();
    const failed = await m.simulate(session.id, { outcome: "fail", failure_reason: "insufficient_funds" });
    expect(failed.status).toBe(200);
    expect(failed.body.transaction).toMatchObject({ status: "failed", failure_reason: "insufficient_funds" });
    expect(failed.body.session.status).toBe("created");
    const events = (await m.until(session.id, 3)).map((a) => JSON.parse(a.body));
    expect(events.map((e) => e.type)).toEqual(["session-created", "transaction-created", "transaction-failed"]);
    expect(events[2].data).toMatchObject({
      status: "failed",
      failure_reason: "insufficient_funds",
      transaction_id: failed.body.transaction.id,
    });
    expect((await m.transaction(failed.body.transaction.id)).body).toEqual(failed.body.transaction);

    const defaulted = await m.simulate(session.id, { outcome: "fail" });
    expect(defaulted.body.transaction.failure_reason).toBe("card_declined");
    const paid = await m.simulate(session.id, { outcome: "pay" });
    expect(paid.body.transaction.id).not.toBe(failed.body.transaction.id);
    expect(paid.body.session.status).toBe("completed");
  });

  it("refuses a second payment of a completed session, and any payment of an expired one, with 409", async () => {
    const m = await merchant();
    const session = await m.session();
    await m.simulate(session.id, { outcome: "pay" });
    const again = await m.simulate(session.id, { outcome: "pay" });
    expect(again.status).toBe(409);
    expect(again.body).toMatchObject({ code: "session_not_payable", status: 409 });
    expect(again.body.detail).toContain("already paid");

    const late = await m.session();
    await m.advance(3600);
    const expired = await m.simulate(late.id, { outcome: "fail" });
    expect(expired.status).toBe(409);
    expect(expired.body.detail).toContain("expired");
    expect((await m.simulate("ps_unknown", { outcome: "pay" })).status).toBe(404);
  });

  it("expiry: session-expired an hour after creation, delivered before the advance answers, and not a second earlier", async () => {
    const m = await merchant();
    const session = await m.session();
    await m.until(session.id, 1);
    await m.advance(3599);
    expect(m.received(session.id).map((a) => a.type)).toEqual(["session-created"]);
    await m.advance(1);
    const events = m.received(session.id).map((a) => JSON.parse(a.body));
    expect(events.map((e) => e.type)).toEqual(["session-created", "session-expired"]);
    expect(events[1].data.status).toBe("expired");
    expect(events[1].timestamp).toBe(session.expires_at);
  });

  it("validates the simulate body and names the bad field", async () => {
    const m = await merchant();
    const session = await m.session();
    const res = await m.simulate(session.id, { outcome: "maybe" });
    expect(res.status).toBe(422);
    expect(res.body.errors).toEqual([expect.objectContaining({ field: "outcome" })]);
  });
});

describe("the three flows together", () => {
  it("send all seven event types, each flow in the contract's order", async () => {
    const m = await merchant();
    const [paid, failed, expired] = [await m.session(), await m.session(), await m.session()];
    await m.simulate(paid.id, { outcome: "pay" });
    await m.simulate(failed.id, { outcome: "fail" });
    await m.until(failed.id, 3);
    await m.advance(3600);
    const types = (id: string) => m.received(id).map((a) => a.type);
    expect(types(paid.id)).toEqual(EVENT_FLOWS.success);
    expect(types(failed.id)).toEqual(EVENT_FLOWS.failure);
    expect(types(expired.id)).toEqual(EVENT_FLOWS.expiry);
    expect(new Set([paid, failed, expired].flatMap((s) => types(s.id)))).toEqual(new Set(EVENT_TYPES));
  });
});

describe("every delivered event", () => {
  it("verifies with verifyWebhook and with standardwebhooks, and is the one the deliveries list names", async () => {
    const m = await merchant();
    const session = await m.session();
    await m.simulate(session.id, { outcome: "pay" });
    const attempts = await m.until(session.id, 4);
    const reference = new Webhook(m.secret);
    for (const attempt of attempts) {
      const ours = await verifyWebhook(attempt.body, attempt.headers, m.secret);
      const theirs = reference.verify(attempt.body, attempt.headers as Record<string, string>) as { id: string };
      expect(theirs).toEqual(ours);
      expect(ours.id).toBe(attempt.id);
    }
    const listed = await m.deliveries();
    expect(listed.map((d) => d.event_id).sort()).toEqual(attempts.map((a) => a.id).sort());
    for (const d of listed) expect(d).toMatchObject({ attempt: 1, status: "succeeded", response_status: 204, url: endpoint.url });
  });
});
