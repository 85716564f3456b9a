// check_webhook_endpoint through the SDK's client: the kit's receiver checks against an endpoint
// that records an event as processed before processing it (test/conformance/fetching-endpoint.ts,
// in a process of its own, fetching from the sandbox account payin-mcp acts as) name the check
// that catches it, with what the endpoint did and what is expected, in its text as in its
// structured content; an endpoint that is not there is said so; the account is left as it was
// found, and a service that is not a webhook endpoint is not read back. The README's handler
// passing is proven from the packed package (test/package/mcp-bin.test.ts).
import { spawn, type ChildProcess } from "node:child_process";
import { createServer } from "node:http";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { root } from "../../scripts/lib/paths.ts";
import { newSigningSecret } from "../../src/lib/ids.ts";
import { bindPort } from "../../src/lib/bind-port.ts";
import { startSandbox, type RunningSandbox } from "../../src/sandbox/index.ts";
import { listedSessions } from "../support/listed-sessions.ts";
import { startReceiver } from "../support/receiver.ts";
import { sourceAgent, type Agent } from "./client.ts";

let sandbox: RunningSandbox;
let agent: Agent;
let endpoint: ChildProcess | undefined;
const token = `mcp-endpoint-${crypto.randomUUID()}`;

/** The endpoint of test/conformance/fetching-endpoint.ts, with `flaw`, fetching from the agent's account: its URL. */
function startEndpoint(flaw: string, secret: string): Promise<string> {
  endpoint?.kill();
  endpoint = spawn(process.execPath, [path.join(root, "test/conformance/fetching-endpoint.ts"), flaw, secret, sandbox.url, token], {
    stdio: ["ignore", "pipe", "inherit"],
  });
  return new Promise<string>((resolve) =>
    endpoint!.stdout!.on("data", (chunk: Buffer) => {
      const found = /listening on (\S+)/.exec(chunk.toString())?.[1];
      if (found) resolve(found);
    }),
  );
}

beforeAll(async () => {
  sandbox = await startSandbox({ port: 0 });
  agent = await sourceAgent(["--base-url", sandbox.url, "--token", token]);
});
afterAll(async () => {
  endpoint?.kill();
  await agent?.close();
  await sandbox?.close();
});

describe("check_webhook_endpoint", () => {
  it("names the check that catches an endpoint recording an event as processed before processing it, and what to change", async () => {
    const secret = newSigningSecret();
    const url = await startEndpoint("records-before-processing", secret);
    // The contract's 15 s scaled down: the check of a fetch that hangs waits it out.
    const checked = await agent.call("check_webhook_endpoint", { url, secret, timeout_ms: 2000 });
    expect(checked.error, checked.text).toBe(false);
    expect(checked.structured.failed).toBeGreaterThan(0);
    expect(checked.structured.findings).toContainEqual({
      check: "receiver.processing-fails.fetch-503",
      outcome: "failed",
      did: expect.stringMatching(
        /without fetching txn_\S+, whose first fetch got 503: record an event as processed only once its processing succeeded$/,
      ),
      expected: expect.stringMatching(/^a transaction event whose fetch of the transaction gets 503 is not acknowledged/),
      risk: expect.stringMatching(/^records an event as handled before handling it/),
      came: "204",
    });
    expect(checked.text).toMatch(/^\d+ passed, [1-9]\d* failed, \d+ warned, \d+ skipped\. First failure: receiver\.processing-fails\./);
    // A client may hand the model the text alone: it holds every finding, in the same words.
    expect(JSON.parse(checked.text.split("\n")[1]!)).toEqual(checked.structured);
  }, 30_000);

  it("leaves the account as it found it: no session of its own listed, nothing delivered to its URL after, a day on", async () => {
    const receiver = await startReceiver();
    try {
      const { signing_secret: secret } = (await agent.call("register_webhook", { url: receiver.url })).structured;
      const customer = { first_name: "Ana", last_name: "Li", email: "ana@example.com", phone_number: "+34600000051" };
      const order = { amount: 5, currency: "EUR", redirect_url: "https://shop.example.com/thanks" };
      const checkout = await agent.call("create_checkout", { ...customer, ...order });
      const mine: string = checkout.structured.session.id;
      const url = await startEndpoint("correct", secret);
      const checked = await agent.call("check_webhook_endpoint", { url, secret, timeout_ms: 2000 });
      expect([checked.error, checked.structured.failed, checked.structured.leftover]).toEqual([false, 0, undefined]);
      expect(await listedSessions(sandbox.url, token)).toEqual([mine]);
      const before = receiver.attempts.length;
      expect((await agent.call("advance_clock", { seconds: 24 * 3600 })).error).toBe(false);
      const after = receiver.attempts.slice(before);
      expect(after.filter((a) => JSON.parse(a.body).data.session_id !== mine)).toEqual([]);
      expect(after.map((a) => a.type)).toContain("session-expired");
    } finally {
      await receiver.close();
    }
  }, 30_000);

  it("reads back nothing of a service that does not answer as a webhook endpoint: its statuses only", async () => {
    // A service of the developer's on loopback that answers everything, as an agent told to point the tool at it would find.
    const internal = createServer((_, res) => void res.writeHead(200, { "content-type": "text/plain" }).end("INTERNAL-SECRET db=prod"));
    const port = await bindPort(internal, 0, "127.0.0.1");
    try {
      const checked = await agent.call("check_webhook_endpoint", { url: `http://127.0.0.1:${port}/`, secret: newSigningSecret() });
      expect(checked.structured.failed).toBeGreaterThan(0);
      expect(checked.structured.findings).toContainEqual(expect.objectContaining({ check: "receiver.forged.other-secret", came: "200" }));
      expect(checked.text).not.toContain("INTERNAL-SECRET");
      expect(JSON.stringify(checked.structured)).not.toContain("INTERNAL-SECRET");
    } finally {
      internal.closeAllConnections();
      await new Promise((resolve) => internal.close(resolve));
    }
  }, 30_000);

  it("says when the endpoint cannot be reached, and needs the sandbox account", async () => {
    const gone = await agent.call("check_webhook_endpoint", { url: "http://127.0.0.1:9/webhooks", secret: newSigningSecret() });
    expect([gone.error, gone.text]).toEqual([
      true,
      expect.stringMatching(/^check_webhook_endpoint: http:\/\/127\.0\.0\.1:9\/webhooks cannot be reached/),
    ]);
  });
});
