// `payin-trigger` on a sandbox: the flows run on real objects and the sandbox delivers their
// events, each attempt printed; the exit status says whether the endpoint acknowledged them all.
// A handler written from the Quickstart (the example merchant) takes `success` whole.
import { execFile } from "node:child_process";
import { createServer, type Server } from "node:http";
import path from "node:path";
import { promisify } from "node:util";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startMerchant } from "../../examples/merchant/src/server.ts";
import { createPayinClient } from "../../src/index.ts";
import { bindPort } from "../../src/lib/bind-port.ts";
import { startSandbox, type RunningSandbox } from "../../src/sandbox/index.ts";

let sandbox: RunningSandbox;
let receiver: Server;
let url: string;
/** Every event the receiver got, as parsed; it answers `status`. */
const received: Array<{ type: string; data: Record<string, any> }> = [];
let status = 204;

beforeAll(async () => {
  sandbox = await startSandbox({ port: 0 });
  receiver = createServer(async (req, res) => {
    const chunks: Buffer[] = [];
    for await (const chunk of req) chunks.push(chunk as Buffer);
    received.push(JSON.parse(Buffer.concat(chunks).toString("utf8")));
    res.writeHead(status).end();
  });
  url = `http://127.0.0.1:${await bindPort(receiver, 0, "127.0.0.1")}/hook`;
});
afterAll(async () => {
  receiver.closeAllConnections();
  receiver.close();
  await sandbox.close();
});

const trigger = (...args: string[]) =>
  promisify(execFile)(process.execPath, [path.resolve("src/trigger/cli.ts"), ...args]).then(
    ({ stdout, stderr }) => ({ code: 0, stdout, stderr }),
    (error: { code: number; stdout: string; stderr: string }) => ({ code: error.code, stdout: error.stdout, stderr: error.stderr }),
  );
const onSandbox = (token: string, ...args: string[]) => trigger(...args, "--base-url", sandbox.url, "--token", token, "--url", url);
const typesOf = (stdout: string) => [...stdout.matchAll(/^✓ (\S+)/gm)].map((m) => m[1]);
const sessionOf = (stdout: string) => /^session (ps_\S+): /m.exec(stdout)![1]!;
const eventsOf = (sessionId: string) => received.filter((e) => e.data.session_id === sessionId);

describe("payin-trigger on a sandbox", () => {
  it("success: real objects, every event delivered and printed, the transaction the events name fetchable", async () => {
    const token = `trigger-${crypto.randomUUID()}`;
    const run = await onSandbox(token, "success");
    expect(run.code).toBe(0);
    expect(typesOf(run.stdout)).toEqual([
      "session-created",
      "transaction-created",
      "transaction-completed",
      "session-completed",
      "transaction-settled",
    ]);
    expect(run.stdout).toMatch(/: 5 of 5 events acknowledged$/m);
    const events = eventsOf(sessionOf(run.stdout));
    expect(events.map((e) => e.type)).toEqual(typesOf(run.stdout));
    const payin = createPayinClient({ baseUrl: sandbox.url, token });
    const fetched = await payin.GET("/api/v1/earn/transactions/{transaction_id}/", {
      params: { path: { transaction_id: events[1]!.data.transaction_id } },
    });
    expect(fetched.data?.status).toBe("settled");
  });

  it("failure with overrides: the amount, currency and reason asked for; the session expires", async () => {
    const run = await onSandbox(
      `trigger-${crypto.randomUUID()}`,
      "failure",
      "--override",
      "amount=1200,currency=JPY,failure_reason=insufficient_funds",
    );
    expect(run.code).toBe(0);
    const events = eventsOf(sessionOf(run.stdout));
    expect(events.map((e) => e.type)).toEqual(["session-created", "transaction-created", "transaction-failed", "session-expired"]);
    expect(events[2]!.data).toMatchObject({ amount: 1200, currency: "JPY", failure_reason: "insufficient_funds" });
  });

  it("expiry, and pay, fail or expire on a session that exists", async () => {
    const token = `trigger-${crypto.randomUUID()}`;
    expect(typesOf((await onSandbox(token, "expiry")).stdout)).toEqual(["session-created", "session-expired"]);
    const payin = createPayinClient({ baseUrl: sandbox.url, token });
    const customer = await payin.POST("/api/v1/send/counterparties/", {
      body: {
        type: "INDIVIDUAL",
        payment_rail: "PAYIN",
        first_name: "A",
        last_name: "B",
        email: `${token}@example.com`,
        phone_number: "+34612345678",
      },
    });
    const session = await payin.POST("/api/v1/earn/payment-sessions/", {
      body: { amount: 10, currency: "EUR", counterparty_id: customer.data!.id, redirect_url: "https://shop.example.com/thanks" },
    });
    const paid = await onSandbox(token, "pay", "--session", session.data!.id);
    expect(paid.code).toBe(0);
    expect(sessionOf(paid.stdout)).toBe(session.data!.id);
    expect(typesOf(paid.stdout)).toEqual([
      "session-created",
      "transaction-created",
      "transaction-completed",
      "session-completed",
      "transaction-settled",
    ]);
    // Paid: it cannot be paid again, and the sandbox says so.
    const again = await onSandbox(token, "fail", "--session", session.data!.id);
    expect(again).toMatchObject({ code: 2, stderr: expect.stringMatching(/^payin-trigger: fail session ps_\S+ was answered 409/) });
  });

  it("exits 1 when the endpoint never acknowledged an event, printing each failed attempt", async () => {
    status = 500;
    try {
      const run = await onSandbox(`trigger-${crypto.randomUUID()}`, "expiry");
      expect(run.code).toBe(1);
      expect(run.stdout).toMatch(/^✗ session-created +msg_\S+ +attempt 1: 500$/m);
      // session-expired waits behind it (the order rule), so it is not attempted at all.
      expect(run.stdout).toMatch(/: 0 of 1 events acknowledged$/m);
    } finally {
      status = 204;
    }
  });

  it.each([
    [["success", "--override", "colour=red"], /--override knows amount, currency and failure_reason, not "colour"/],
    [["pay"], /pay needs --session ID/],
    [["refund"], /on a sandbox, say success, failure, expiry, pay, fail or expire, not "refund"/],
  ])("exits 2 on bad flags: %j", async (args, message) => {
    const run = await onSandbox("t", ...args);
    expect(run).toMatchObject({ code: 2, stderr: expect.stringMatching(message) });
  });

  it("exits 2 without --token, or when the account has no webhook URL and none is given", async () => {
    expect(await trigger("success", "--base-url", sandbox.url)).toMatchObject({
      code: 2,
      stderr: expect.stringMatching(/--token is required/),
    });
    const run = await trigger("success", "--base-url", sandbox.url, "--token", `empty-${crypto.randomUUID()}`);
    expect(run).toMatchObject({ code: 2, stderr: expect.stringMatching(/the account has no webhook URL: give --url/) });
  });

  it("passes `success` with a handler written from the Quickstart: the example merchant, on its registered URL", async () => {
    const token = `merchant-${crypto.randomUUID()}`;
    const merchant = await startMerchant({ baseUrl: sandbox.url, token, log: () => {} });
    try {
      const run = await trigger("success", "--base-url", sandbox.url, "--token", token);
      expect(run.code).toBe(0);
      expect(run.stdout).toMatch(/: 5 of 5 events acknowledged$/m);
      expect(merchant.received.map((e) => e.type)).toEqual([
        "session-created",
        "transaction-created",
        "transaction-completed",
        "session-completed",
        "transaction-settled",
      ]);
    } finally {
      await merchant.close();
    }
  });
});
