// The installed payin-mcp, started exactly as the testing guide configures an agent's MCP
// client, from the package as `npm run package` packs it, installed into a fresh project from
// npm's cache: through the SDK's client over stdio it refuses what its schemas refuse, fits an
// agent's context, answers searches from the site's index, gives structured content from every
// tool and the same in its text, says back no input large, runs the guide's loop on the installed
// sandbox, and checks the README's webhook handler (passing) and one that records an event as
// processed before processing it (failing), leaving the developer's account as it found it, as
// the installed payin-conformance receiver does; and it reads nothing back of a service on
// loopback that is not a webhook endpoint.
import { spawn, type ChildProcess } from "node:child_process";
import { createServer } from "node:http";
import { readFileSync, writeFileSync } from "node:fs";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { root } from "../../scripts/lib/paths.ts";
import { receiverChecks } from "../../src/conformance/index.ts";
import { bindPort } from "../../src/lib/bind-port.ts";
import { buildEvent, signedDelivery } from "../../src/testing/index.ts";
import { listedSessions } from "../support/listed-sessions.ts";
import { startReceiver, type Receiver } from "../support/receiver.ts";
import { startAgent, type Agent, type Called } from "../mcp/client.ts";
import { handlerSamples } from "./handler-samples.ts";
import { cli as installed, exec, project as bare, withPeers as project } from "./support/consumer.ts";

const children: ChildProcess[] = [];

/** Starts `node args` in the agent's project and resolves to what its first `listening on X` line says. */
function started(args: string[], env: NodeJS.ProcessEnv = process.env): Promise<string> {
  const child = spawn(process.execPath, args, { cwd: project, env, stdio: ["ignore", "pipe", "inherit"] });
  children.push(child);
  return new Promise((resolve, reject) => {
    child.stdout!.on("data", (chunk: Buffer) => {
      const found = /listening on (\S+)/.exec(chunk.toString())?.[1];
      if (found) resolve(found);
    });
    child.once("exit", (code) => reject(new Error(`${args.join(" ")} exited with ${code}`)));
  });
}

let sandboxUrl: string;
let receiver: Receiver;
let agent: Agent;
const token = `mcp-bin-${crypto.randomUUID()}`;
/** The sessions the developer made through the agent: all the account should list. */
const mine: string[] = [];
/** Every tool's answers, by tool. */
const answers = new Map<string, Called[]>();
const call = async (name: string, input: Record<string, unknown> = {}) => {
  const answered = await agent.call(name, input);
  answers.set(name, [...(answers.get(name) ?? []), answered]);
  return answered;
};

beforeAll(async () => {
  [sandboxUrl, receiver] = await Promise.all([started([installed("sandbox"), "--port", "0"]), startReceiver()]);
}, 60_000);

afterAll(async () => {
  await agent?.close();
  await receiver?.close();
  for (const child of children) child.kill("SIGTERM");
});

describe("the installed payin-mcp, started as the testing guide configures an agent's MCP client", () => {
  it("says what to install beside the package when its optional peers are not there", async () => {
    const without = await exec(process.execPath, [installed("mcp")], { cwd: bare }).catch(
      (error: { code: number; stderr: string }) => error,
    );
    expect(without).toMatchObject({
      code: 2,
      stderr: "payin-mcp needs @modelcontextprotocol/sdk beside the package: npm install --save-dev @modelcontextprotocol/sdk\n",
    });
  });

  it("runs the configured bin, never the registry's: the guide's command is node and the installed file", async () => {
    // The agent's project has what the guide tells it to install beside the package.
    const guide = readFileSync(path.join(root, "scripts", "docs", "guides", "testing.md"), "utf8");
    const config = JSON.parse(/## A coding agent beside you[\s\S]*?```json\n([\s\S]*?)```/.exec(guide)![1]!);
    const { command, args } = config.mcpServers.payin as { command: string; args: string[] };
    expect([command, args[0]]).toEqual(["node", installed("mcp")]);
    // The guide's configuration as written, pointed at this sandbox and account.
    const given = args.map((arg, i) => (args[i - 1] === "--base-url" ? sandboxUrl : args[i - 1] === "--token" ? token : arg));
    agent = await startAgent(process.execPath, given, project);
    expect(Buffer.byteLength(JSON.stringify(agent.listed))).toBeLessThanOrEqual(6 * 1024);
  });

  it("refuses a refund, naming outcome, and the session stays open; finds the guides' sections first", async () => {
    const checkout = await call("create_checkout", {
      first_name: "Ana",
      last_name: "Li",
      email: "ana@example.com",
      phone_number: "+34600000041",
      amount: 12.5,
      currency: "EUR",
      redirect_url: "https://shop.example.com/thanks",
    });
    const sessionId: string = checkout.structured.session.id;
    mine.push(sessionId);
    const refund = await call("simulate_payment", { session_id: sessionId, outcome: "refund" });
    expect([refund.error, refund.text]).toEqual([true, expect.stringContaining("`outcome` must be one of pay, fail, expire")]);
    const session = await fetch(`${sandboxUrl}/_sandbox/v1/payment-sessions/${sessionId}`, {
      headers: { Authorization: `Bearer ${token}` },
    });
    expect((await session.json()).status).toBe("created");

    for (const [query, title] of [
      ["register a webhook url", "2. Where events go"],
      ["idempotency", "3. The customer and the session"],
    ]) {
      const found = await call("search_docs", { query });
      expect([found.structured.hits[0].title, found.bytes <= 2048]).toEqual([title, true]);
    }
    await call("get_schema", { name: "transaction-settled" });
    // The handler's section first for how to verify a webhook, not the checks of an endpoint.
    expect((await call("search_docs", { query: "how do I verify a webhook" })).structured.hits[0].title).toBe("4. The events");
    // Said back short: a name of 500 KB is answered in under 2 KB.
    const long = await call("get_schema", { name: "a".repeat(500_000) });
    expect([long.error, long.bytes < 2048]).toEqual([true, true]);
  });

  it("runs the guide's loop: a URL registered, a session paid, the clock advanced, a delivery attempted and resent", async () => {
    const registered = await call("register_webhook", { url: receiver.url });
    const secret: string = registered.structured.signing_secret;
    const checkout = await call("create_checkout", {
      first_name: "Bo",
      last_name: "Ek",
      email: "bo@example.com",
      phone_number: "+34600000042",
      amount: 5,
      currency: "EUR",
      redirect_url: "https://shop.example.com/thanks",
    });
    const sessionId: string = checkout.structured.session.id;
    mine.push(sessionId);
    const paid = await call("simulate_payment", { session_id: sessionId, outcome: "pay" });
    await call("advance_clock", { seconds: 1 });
    const attempts: Array<{ event_id: string; event_type: string; status: string }> = (
      await call("list_deliveries", { session_id: sessionId })
    ).structured.attempts;
    const created = attempts.find((a) => a.event_type === "session-created")!;
    expect(created.status).toBe("succeeded");
    expect((await call("resend_event", { event_id: created.event_id })).structured.attempt.status).toBe("succeeded");
    expect((await call("get_transaction", { transaction_id: paid.structured.transaction.id })).structured.transaction.status).toBe(
      "completed",
    );
    const { headers, body } = await signedDelivery(buildEvent("session-created"), secret);
    expect((await call("verify_webhook", { body, headers, secret })).structured.event.type).toBe("session-created");
  });

  it("checks the README's handler, which passes, and one recording an event as processed before processing it, which fails", async () => {
    const secret: string = (await call("register_webhook", { url: receiver.url })).structured.signing_secret;
    const readme = handlerSamples().find((sample) => sample.name === "README.md")!;
    writeFileSync(path.join(project, "readme-handler.ts"), readme.runnable);
    const port = await started(["readme-handler.ts"], {
      ...process.env,
      PAYIN_BASE_URL: sandboxUrl,
      PAYIN_TOKEN: token,
      PAYIN_WEBHOOK_SECRET: secret,
    });
    // The contract's 15 s scaled down: the check of a fetch that hangs waits it out.
    const passing = await call("check_webhook_endpoint", { url: `http://127.0.0.1:${port}/webhooks`, secret, timeout_ms: 3000 });
    expect(passing.structured).toMatchObject({ passed: receiverChecks.length, failed: 0, findings: [] });

    const flawed = await started([
      path.join(root, "test/conformance/fetching-endpoint.ts"),
      "records-before-processing",
      secret,
      sandboxUrl,
      token,
    ]);
    const failing = await call("check_webhook_endpoint", { url: flawed, secret, timeout_ms: 2000 });
    expect(failing.structured.findings.map((f: { check: string }) => f.check)).toContain("receiver.processing-fails.fetch-503");

    // The installed payin-conformance receiver on the README's handler, as the README runs it, in the same account.
    const kit = await exec(
      process.execPath,
      [
        installed("conformance"),
        "receiver",
        "--url",
        `http://127.0.0.1:${port}/webhooks`,
        "--secret",
        secret,
        "--base-url",
        sandboxUrl,
      ].concat(["--token", token, "--timeout-ms", "3000"]),
      { cwd: project },
    );
    expect(kit.stdout.split("\n")[1]).toMatch(/^The checks make a customer and \d+ payments of their own in the account at /);

    // Both ended: the account lists the developer's sessions only, and its URL gets nothing else, even a day on.
    expect((await listedSessions(sandboxUrl, token)).sort()).toEqual([...mine].sort());
    const before = receiver.attempts.length;
    // The advance answers once every attempt it made due was made: what came by then is all there is to come.
    await call("advance_clock", { seconds: 24 * 3600 });
    const after = receiver.attempts.slice(before).map((d) => JSON.parse(d.body).data.session_id);
    expect(after.filter((session) => !mine.includes(session))).toEqual([]);
    expect(after).toContain(mine[0]);

    // Every tool answered with structured content, which the client checked against its output schema.
    expect(agent.listed.tools.filter((tool) => !answers.get(tool.name)?.some((a) => !a.error && a.structured))).toEqual([]);
    // And said the same in its text, as JSON after its line, or (search_docs) every hit's fields.
    for (const [name, called] of answers)
      for (const { text, structured } of called.filter((a) => !a.error)) {
        const [, ...rest] = text.split("\n");
        if (name !== "search_docs") expect(JSON.parse(rest.join("\n")), name).toEqual(structured);
        else for (const hit of structured.hits) for (const field of Object.values<string>(hit)) expect(rest.join("\n")).toContain(field);
      }
  }, 90_000);

  it("reads back nothing of a service on loopback that answers every request 200 INTERNAL-SECRET", async () => {
    const internal = createServer((_, res) => void res.writeHead(200, { "content-type": "text/plain" }).end("INTERNAL-SECRET"));
    const port = await bindPort(internal, 0, "127.0.0.1");
    try {
      const checked = await call("check_webhook_endpoint", {
        url: `http://127.0.0.1:${port}/`,
        secret: "whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw",
      });
      expect(checked.structured.failed).toBeGreaterThan(0);
      expect(`${checked.text}${JSON.stringify(checked.structured)}`).not.toContain("INTERNAL-SECRET");
    } finally {
      internal.closeAllConnections();
      await new Promise((resolve) => internal.close(resolve));
    }
  }, 30_000);
});
