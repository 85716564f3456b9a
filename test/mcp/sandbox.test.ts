// payin-mcp's tools that act, through the SDK's client over stdio, against a fresh sandbox: the
// loop the testing guide gives an agent (a URL registered, a session paid, the clock advanced,
// a delivery attempted and resent), each answer structured and checked by the client against
// the tool's output schema; inputs refused by the tools' own schemas before anything is done.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startSandbox, type RunningSandbox } from "../../src/sandbox/index.ts";
import { startReceiver, type Receiver } from "../support/receiver.ts";
import { accountOn } from "../support/sandbox-account.ts";
import { sourceAgent, type Agent } from "./client.ts";

let sandbox: RunningSandbox;
let receiver: Receiver;
let agent: Agent;
const account = () => accountOn(sandbox.url, token);
const token = `mcp-${crypto.randomUUID()}`;
const customer = { first_name: "Ana", last_name: "Li", email: "ana@example.com", amount: 49.99, currency: "EUR" };
const checkout = async (phone: string) => {
  const made = await agent.call("create_checkout", { ...customer, phone_number: phone, redirect_url: "https://shop.example.com/thanks" });
  expect(made.error, made.text).toBe(false);
  return made.structured.session.id as string;
};

beforeAll(async () => {
  [sandbox, receiver] = await Promise.all([startSandbox({ port: 0 }), startReceiver()]);
  agent = await sourceAgent(["--base-url", sandbox.url, "--token", token]);
});
afterAll(async () => {
  await agent?.close();
  await receiver?.close();
  await sandbox?.close();
});

describe("payin-mcp against a sandbox", () => {
  it("runs the guide's loop: no URL says why none is sent; registered, paid and advanced, a delivery is attempted and resent", async () => {
    const sessionId = await checkout("+34600000031");
    const waiting = await agent.call("list_deliveries", { session_id: sessionId });
    expect([waiting.structured.attempts, waiting.text]).toEqual([[], expect.stringMatching(/no webhook URL.*register_webhook/)]);

    const registered = await agent.call("register_webhook", { url: receiver.url });
    expect(registered.structured).toEqual({ url: receiver.url, signing_secret: expect.stringMatching(/^whsec_/), registered: "new" });
    const paid = await agent.call("simulate_payment", { session_id: sessionId, outcome: "pay" });
    expect([paid.structured.session.status, paid.structured.transaction.status]).toEqual(["completed", "completed"]);
    const advanced = await agent.call("advance_clock", { seconds: 1 });
    // Every attempt due is made (or, under way in real time, waited for) before it answers.
    expect(advanced.structured.attempts_still_due).toBe(0);

    const listed = await agent.call("list_deliveries", { session_id: sessionId });
    const attempts: Array<{ event_type: string; event_id: string; status: string; attempted_at: string }> = listed.structured.attempts;
    expect(attempts.map((a) => a.event_type)).toEqual(expect.arrayContaining(["session-created", "transaction-completed"]));
    expect(attempts.every((a) => a.status === "succeeded")).toBe(true);
    // The order the description says: oldest first.
    expect(attempts.map((a) => a.attempted_at)).toEqual(attempts.map((a) => a.attempted_at).sort());
    expect(listed.text).toMatch(/oldest first/);
    // One page holds them all: nothing follows.
    expect(listed.structured.next_cursor).toBeNull();

    const created = attempts.find((a) => a.event_type === "session-created")!;
    const resent = await agent.call("resend_event", { event_id: created.event_id });
    expect(resent.structured.attempt).toMatchObject({ event_id: created.event_id, status: "succeeded", attempt: 2 });
    const transaction = await agent.call("get_transaction", { transaction_id: paid.structured.transaction.id });
    expect(transaction.structured.transaction).toMatchObject({ id: paid.structured.transaction.id, status: "completed" });
  });

  it("refuses an input outside the tool's schema, naming the field and what it takes, and does nothing", async () => {
    const sessionId = await checkout("+34600000032");
    const refund = await agent.call("simulate_payment", { session_id: sessionId, outcome: "refund" });
    expect([refund.error, refund.text]).toEqual([
      true,
      expect.stringContaining('`outcome` must be one of pay, fail, expire, not "refund"'),
    ]);
    expect((await account().call("GET", `/_sandbox/v1/payment-sessions/${sessionId}`)).body.status).toBe("created");

    const missing = await agent.call("resend_event", {});
    expect([missing.error, missing.text]).toEqual([
      true,
      expect.stringContaining("`event_id` is required: a string of 1 to 64 characters"),
    ]);
    const misspelt = await agent.call("simulate_payment", { session_id: sessionId, outcome: "fail", failure_reasn: "x" });
    expect(misspelt.text).toContain("`failure_reasn` is not taken here; the fields are session_id, outcome, failure_reason");
    const nested = await agent.call("create_checkout", { ...customer, phone_number: "0034", redirect_url: "http://shop.example.com/" });
    expect(nested.text.split("\n").slice(1)).toEqual([
      expect.stringMatching(/^- `phone_number` must be a string matching \^\\\+\[1-9\]\[0-9\]\{6,14\}\$, not "0034"$/),
      expect.stringMatching(/^- `redirect_url` must be an absolute URI matching \^https:\/\/ of at most 2048 characters, not "http:/),
    ]);
  });

  it("expires an open session and refuses, without moving the clock, to expire one that is not open", async () => {
    const [open, paid] = [await checkout("+34600000033"), await checkout("+34600000034")];
    await agent.call("simulate_payment", { session_id: paid, outcome: "pay" });
    // How far the account's clock is ahead of real time: only an advance moves it.
    const ahead = async () => (await agent.call("advance_clock", { seconds: 1 })).structured.offset_seconds as number;
    const before = await ahead();
    const refused = await agent.call("simulate_payment", { session_id: paid, outcome: "expire" });
    expect([refused.error, refused.text]).toEqual([
      true,
      `Session ${paid} is completed, not open: it cannot expire; the clock did not move.`,
    ]);
    expect((await ahead()) - before).toBe(1);

    const expired = await agent.call("simulate_payment", { session_id: open, outcome: "expire" });
    expect([expired.structured.session.status, expired.structured.clock.attempts_still_due]).toEqual(["expired", expect.any(Number)]);
  });

  it("fails a session with a reason, and finds the existing customer rather than answering 409", async () => {
    const sessionId = await checkout("+34600000035");
    const again = await agent.call("create_checkout", {
      ...customer,
      phone_number: "+34600000035",
      redirect_url: "https://shop.example.com/",
    });
    expect(again.structured.counterparty).toBe("existing");
    const failed = await agent.call("simulate_payment", { session_id: sessionId, outcome: "fail", failure_reason: "insufficient_funds" });
    expect(failed.structured.transaction).toMatchObject({ status: "failed", failure_reason: "insufficient_funds" });
  });

  it("answers the service's problem as a tool error: its status, code, detail and fields", async () => {
    const result = await agent.call("get_transaction", { transaction_id: "txn_0mwxym6ierYWMFgpTgqZxwsH" });
    expect([result.error, result.text]).toEqual([true, expect.stringMatching(/^Get transaction answered 404 not_found: /)]);
  });
});
