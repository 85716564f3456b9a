// payin-mcp through the official SDK's client, over stdio, as an agent's MCP client runs it:
// against a fresh sandbox, each of the eight tools does what its description says; without a
// service, the tools that need none work and the others say what they need.
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StdioClientTransport } from "@modelcontextprotocol/sdk/client/stdio.js";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { root } from "../../scripts/lib/paths.ts";
import { startSandbox, type RunningSandbox } from "../../src/sandbox/index.ts";
import { startReceiver, type Receiver } from "../support/receiver.ts";
import { accountOn } from "../support/sandbox-account.ts";
import { signedDelivery, buildEvent } from "../../src/testing/index.ts";

const CLI = path.join(root, "src", "mcp", "cli.ts");

async function connect(args: string[]) {
  const client = new Client({ name: "payin-test", version: "1" });
  await client.connect(new StdioClientTransport({ command: process.execPath, args: [CLI, ...args], stderr: "pipe" }));
  return client;
}
const textOf = (result: any): string => result.content.map((c: { text: string }) => c.text).join("\n");

describe("payin-mcp against a sandbox", () => {
  let sandbox: RunningSandbox;
  let client: Client;
  let receiver: Receiver;
  let secret: string;
  const token = `mcp-${crypto.randomUUID()}`;
  beforeAll(async () => {
    sandbox = await startSandbox({ port: 0 });
    receiver = await startReceiver();
    secret = await accountOn(sandbox.url, token).register(receiver.url);
    client = await connect(["--base-url", sandbox.url, "--token", token]);
  });
  afterAll(async () => {
    await client?.close();
    await receiver?.close();
    await sandbox?.close();
  });

  it("lists the eight tools, each described and annotated, in at most 16 KB of JSON", async () => {
    const { tools } = await client.listTools();
    expect(tools.map((t) => t.name)).toEqual([
      "search_docs",
      "get_schema",
      "create_checkout",
      "simulate_payment",
      "get_transaction",
      "list_deliveries",
      "resend_event",
      "verify_webhook",
    ]);
    for (const tool of tools) {
      expect(tool.description!.length, tool.name).toBeGreaterThan(60);
      expect(typeof tool.annotations?.readOnlyHint, tool.name).toBe("boolean");
    }
    expect(Buffer.byteLength(JSON.stringify(tools))).toBeLessThanOrEqual(16 * 1024);
  });

  it("finds the Idempotency-Key rule, and shows an event's payload", async () => {
    expect(textOf(await client.callTool({ name: "search_docs", arguments: { query: "idempotency" } }))).toMatch(/Idempotency-Key/);
    expect(textOf(await client.callTool({ name: "get_schema", arguments: { name: "transaction-settled" } }))).toContain('"transaction_id"');
    expect(textOf(await client.callTool({ name: "get_schema", arguments: { name: "createPaymentSession" } }))).toContain("redirect_url");
  });

  it("runs a checkout: created, paid, its transaction read, its deliveries listed, one resent", async () => {
    const person = { first_name: "Ana", last_name: "Li", email: "ana@example.com", phone_number: "+34600000009" };
    const checkout = await client.callTool({
      name: "create_checkout",
      arguments: { ...person, amount: 49.99, currency: "EUR", redirect_url: "https://shop.example.com/thanks" },
    });
    const sessionId = /Session (ps_\S+)/.exec(textOf(checkout))![1]!;
    expect(textOf(checkout)).toMatch(/payment_link|http:\/\/\S+\/pay\/ps_/);
    // The same customer again is the existing counterparty, not a 409.
    const again = await client.callTool({
      name: "create_checkout",
      arguments: { ...person, amount: 10, currency: "EUR", redirect_url: "https://shop.example.com/thanks" },
    });
    expect(textOf(again)).toMatch(/\(existing\)/);
    const paid = textOf(await client.callTool({ name: "simulate_payment", arguments: { session_id: sessionId, outcome: "pay" } }));
    expect(paid).toMatch(/is completed, transaction txn_\S+ completed/);
    const transactionId = /transaction (txn_\S+)/.exec(paid)![1]!;
    expect(textOf(await client.callTool({ name: "get_transaction", arguments: { transaction_id: transactionId } }))).toMatch(
      new RegExp(`Transaction ${transactionId} is completed`),
    );
    await receiver.delivered(5);
    const deliveries = textOf(await client.callTool({ name: "list_deliveries", arguments: { session_id: sessionId } }));
    expect(deliveries).toMatch(/session-completed msg_\S+ attempt 1: succeeded/);
    const eventId = /session-created (msg_\S+)/.exec(deliveries)![1]!;
    const resent = await client.callTool({ name: "resend_event", arguments: { event_id: eventId } });
    expect(textOf(resent)).toContain(`Event ${eventId} delivered again`);
  });

  it("lets a session expire, and fails one with a reason", async () => {
    const checkout = async (phone: string) => {
      const arguments_ = { first_name: "Bo", last_name: "Ek", email: "bo@example.com", phone_number: phone, amount: 5, currency: "EUR" };
      const made = await client.callTool({
        name: "create_checkout",
        arguments: { ...arguments_, redirect_url: "https://shop.example.com/" },
      });
      return /Session (ps_\S+)/.exec(textOf(made))![1]!;
    };
    const failing = await checkout("+34600000021");
    const failed = await client.callTool({
      name: "simulate_payment",
      arguments: { session_id: failing, outcome: "fail", failure_reason: "insufficient_funds" },
    });
    expect(textOf(failed)).toMatch(/transaction txn_\S+ failed/);
    const expiring = await checkout("+34600000022");
    const expired = await client.callTool({ name: "simulate_payment", arguments: { session_id: expiring, outcome: "expire" } });
    expect(textOf(expired)).toContain(`Session ${expiring} is expired`);
  });

  it("verifies a delivery signed with the account's secret, and refuses it with one byte changed", async () => {
    const { headers, body } = await signedDelivery(buildEvent("session-created"), secret);
    const ok = await client.callTool({ name: "verify_webhook", arguments: { body, headers, secret } });
    expect([ok.isError ?? false, textOf(ok)]).toEqual([false, expect.stringMatching(/^Verified: a session-created event/)]);
    const changed = body.replace('"session-created"', '"session-createD"');
    const refused = await client.callTool({ name: "verify_webhook", arguments: { body: changed, headers, secret } });
    expect([refused.isError, textOf(refused)]).toEqual([true, expect.stringMatching(/^Refused \(invalid_signature\)/)]);
  });

  it("answers the service's problem as a tool error: its status, code, detail and fields", async () => {
    const result = await client.callTool({ name: "get_transaction", arguments: { transaction_id: "txn_0mwxym6ierYWMFgpTgqZxwsH" } });
    expect([result.isError, textOf(result)]).toEqual([true, expect.stringMatching(/^Get transaction answered 404 not_found: /)]);
  });

  it("offers the documents and the guides as resources", async () => {
    const { resources } = await client.listResources();
    expect(resources.map((r) => r.uri)).toContain("payin://contract/openapi.json");
    const guide = await client.readResource({ uri: "payin://docs/quickstart.md" });
    expect((guide.contents[0] as { text: string }).text).toMatch(/^# Quickstart/);
  });
});

describe("payin-mcp without a service", () => {
  it("searches and verifies offline, and the tools that act say what they need", async () => {
    const client = await connect([]);
    try {
      expect((await client.callTool({ name: "search_docs", arguments: { query: "retry schedule" } })).isError ?? false).toBe(false);
      const needs = await client.callTool({ name: "get_transaction", arguments: { transaction_id: "txn_x" } });
      expect([needs.isError, textOf(needs)]).toEqual([true, expect.stringContaining("start payin-mcp with --base-url and --token")]);
    } finally {
      await client.close();
    }
  });

  it("says, on a service that is not a sandbox, that the sandbox tools need one", async () => {
    const receiver = await startReceiver();
    receiver.answer = () => 404;
    const client = await connect(["--base-url", new URL(receiver.url).origin, "--token", "t"]);
    try {
      const result = await client.callTool({ name: "list_deliveries", arguments: {} });
      expect([result.isError, textOf(result)]).toEqual([true, expect.stringMatching(/^list_deliveries works on a payin-sandbox only/)]);
    } finally {
      await client.close();
      await receiver.close();
    }
  });
});
