// The installed payin-mcp, started as the testing guide configures an agent's MCP client, in a
// project with the MCP SDK installed beside the package.
import { readFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { root } from "../../scripts/lib/paths.ts";
import { toolEnv } from "../../scripts/lib/tool-env.ts";
import { buildEvent, signedDelivery } from "../../src/testing/index.ts";
import { startReceiver } from "../support/receiver.ts";
import { startBin, withPeers as project } from "./support/consumer.ts";

describe("the installed payin-mcp, started as the testing guide configures an agent's MCP client", () => {
  it("gives an agent the eight tools over stdio, and runs a checkout on the installed sandbox through them", async () => {
    const { Client } = await import("@modelcontextprotocol/sdk/client/index.js");
    const { StdioClientTransport } = await import("@modelcontextprotocol/sdk/client/stdio.js");
    const guide = readFileSync(path.join(root, "scripts", "docs", "guides", "testing.md"), "utf8");
    const config = JSON.parse(/## A coding agent beside you[\s\S]*?```json\n([\s\S]*?)```/.exec(guide)![1]!);
    const { command, args } = config.mcpServers.payin as { command: string; args: string[] };
    const started = startBin("payin-sandbox", process.execPath, project);
    const client = new Client({ name: "consumer-agent", version: "1" });
    try {
      const url = await started.url;
      const token = `consumer-mcp-${crypto.randomUUID()}`;
      const receiver = await startReceiver();
      const registered = await fetch(`${url}/webhooks`, {
        method: "POST",
        headers: { Authorization: `Bearer ${token}`, "Content-Type": "application/json" },
        body: JSON.stringify({ url: receiver.url }),
      });
      const secret: string = (await registered.json()).signing_secret;
      // The guide's configuration as written, pointed at this sandbox and account.
      const given = args.map((arg, i) => (args[i - 1] === "--base-url" ? url : args[i - 1] === "--token" ? token : arg));
      await client.connect(new StdioClientTransport({ command, args: given, cwd: project, env: toolEnv() as Record<string, string> }));
      const call = async (name: string, input: Record<string, unknown>) => {
        const result = (await client.callTool({ name, arguments: input })) as { content: Array<{ text: string }>; isError?: boolean };
        return { text: result.content.map((c) => c.text).join("\n"), error: result.isError ?? false };
      };
      const { tools } = await client.listTools();
      expect(tools).toHaveLength(8);
      expect(tools.every((t) => typeof t.annotations?.readOnlyHint === "boolean")).toBe(true);
      expect(Buffer.byteLength(JSON.stringify(tools))).toBeLessThanOrEqual(16 * 1024);
      expect((await call("search_docs", { query: "idempotency" })).text).toContain("Idempotency-Key");
      expect((await call("get_schema", { name: "transaction-settled" })).text).toContain('"transaction_id"');
      const checkout = await call("create_checkout", {
        first_name: "Ana",
        last_name: "Li",
        email: "ana@example.com",
        phone_number: "+34600000010",
        amount: 12.5,
        currency: "EUR",
        redirect_url: "https://shop.example.com/thanks",
      });
      const sessionId = /Session (ps_\S+)/.exec(checkout.text)![1]!;
      expect(checkout.text).toContain(`/pay/${sessionId}`);
      const paid = await call("simulate_payment", { session_id: sessionId, outcome: "pay" });
      const transactionId = /transaction (txn_\S+) completed/.exec(paid.text)![1]!;
      expect((await call("get_transaction", { transaction_id: transactionId })).text).toContain(
        `Transaction ${transactionId} is completed`,
      );
      await receiver.delivered(4);
      const deliveries = await call("list_deliveries", { session_id: sessionId });
      const eventId = /session-created (msg_\S+)/.exec(deliveries.text)![1]!;
      expect((await call("resend_event", { event_id: eventId })).text).toContain(`Event ${eventId} delivered again`);
      const { headers, body } = await signedDelivery(buildEvent("session-created"), secret);
      expect((await call("verify_webhook", { body, headers, secret })).error).toBe(false);
      const changed = await call("verify_webhook", { body: body.replace("session-created", "session-createD"), headers, secret });
      expect([changed.error, changed.text]).toEqual([true, expect.stringMatching(/^Refused \(invalid_signature\)/)]);
      await receiver.close();
    } finally {
      await client.close();
      started.child.kill("SIGTERM");
    }
  }, 60_000);
});
