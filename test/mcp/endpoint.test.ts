// check_webhook_endpoint through the SDK's client: the kit's receiver checks against an endpoint
// that records an event as processed before processing it (test/conformance/fetching-endpoint.ts,
// in a process of its own, fetching from the sandbox account payin-mcp acts as) name the check
// that catches it, with what the endpoint did and what is expected; an endpoint that is not
// there is said so. The README's handler passing is proven from the packed package
// (test/package/mcp-bin.test.ts).
import { spawn, type ChildProcess } from "node:child_process";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { root } from "../../scripts/lib/paths.ts";
import { newSigningSecret } from "../../src/lib/ids.ts";
import { startSandbox, type RunningSandbox } from "../../src/sandbox/index.ts";
import { sourceAgent, type Agent } from "./client.ts";

let sandbox: RunningSandbox;
let agent: Agent;
let endpoint: ChildProcess | undefined;
const token = `mcp-endpoint-${crypto.randomUUID()}`;

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
    endpoint = spawn(
      process.execPath,
      [path.join(root, "test/conformance/fetching-endpoint.ts"), "records-before-processing", secret, sandbox.url, token],
      { stdio: ["ignore", "pipe", "inherit"] },
    );
    const url = await new Promise<string>((resolve) =>
      endpoint!.stdout!.on("data", (chunk: Buffer) => {
        const found = /listening on (\S+)/.exec(chunk.toString())?.[1];
        if (found) resolve(found);
      }),
    );
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
  }, 30_000);

  it("says when the endpoint cannot be reached, and needs the sandbox account", async () => {
    const gone = await agent.call("check_webhook_endpoint", { url: "http://127.0.0.1:9/webhooks", secret: newSigningSecret() });
    expect([gone.error, gone.text]).toEqual([
      true,
      expect.stringMatching(/^check_webhook_endpoint: http:\/\/127\.0\.0\.1:9\/webhooks cannot be reached/),
    ]);
  });
});
