// `payin-sandbox`'s flags: a bad value is refused with one line that names the flag, and the
// schedule, settlement, public URL and delivery host flags reach the sandbox.
import { execFile, spawn } from "node:child_process";
import path from "node:path";
import { promisify } from "node:util";
import { describe, expect, it } from "vitest";
import { root } from "../../scripts/lib/paths.ts";
import { accountOn } from "../support/sandbox-account.ts";

const cli = path.join(root, "src", "sandbox", "cli.ts");
const run = promisify(execFile);

async function refusal(...args: string[]) {
  const error = await run(process.execPath, [cli, ...args]).then(() => undefined, (e: { code: number; stderr: string }) => e);
  expect(error, `payin-sandbox ${args.join(" ")} started`).toBeDefined();
  return { code: error!.code, stderr: error!.stderr.trim() };
}

describe("payin-sandbox", () => {
  it.each([
    [["--retry-schedule", "5,soon"], 'payin-sandbox: --retry-schedule takes seconds (a number, 0 or more), not "soon"'],
    [["--retry-schedule", "5,-1"], 'payin-sandbox: --retry-schedule takes seconds (a number, 0 or more), not "-1"'],
    [["--settlement-delay", ""], 'payin-sandbox: --settlement-delay takes seconds (a number, 0 or more), not ""'],
    [["--port", "70000"], 'payin-sandbox: --port must be a port number, not "70000"'],
    [["--public-url", "ftp://sandbox.example"], 'payin-sandbox: --public-url must be an http:// or https:// URL without credentials, query or fragment, not "ftp://sandbox.example"'],
  ])("refuses %j with exit code 2, one line naming the flag, then the usage", async (args, line) => {
    const { code, stderr } = await refusal(...args);
    expect(code).toBe(2);
    expect(stderr.split("\n").slice(0, 2)).toEqual([line, expect.stringMatching(/^usage: payin-sandbox /)]);
  });

  it("takes --settlement-delay and an empty --retry-schedule (one attempt per event)", async () => {
    const child = spawn(process.execPath, [cli, "--port", "0", "--settlement-delay", "5", "--retry-schedule", ""], { stdio: ["ignore", "pipe", "inherit"] });
    try {
      const url = await new Promise<string>((resolve) => child.stdout!.on("data", (c: Buffer) => { const m = c.toString().match(/listening on (http:\/\/\S+)/); if (m) resolve(m[1]!); }));
      const account = accountOn(url);
      await account.register("http://127.0.0.1:9/unreachable");
      const session = await account.session();
      const paid = await account.simulate(session.id, { outcome: "pay" });
      await account.advance(5);
      expect((await account.transaction(paid.body.transaction.id)).body.status).toBe("settled");
      const attempts = (await account.deliveries()).filter((d) => d.event_type === "session-created");
      expect(attempts).toHaveLength(1);
      expect(attempts[0].next_attempt_at).toBeUndefined();
    } finally {
      child.kill();
    }
  });

  it("takes --public-url for its links and --allow-webhook-host, once or more, for its deliveries", async () => {
    // [::ffff:7f00:1] is loopback reached by an IPv4-mapped address, which the sandbox does not
    // count as loopback: allowing it shows the flag at work without a packet leaving the machine.
    const args = ["--port", "0", "--public-url", "https://sandbox.tunnel.example", "--allow-webhook-host", "a.example", "--allow-webhook-host", "[::ffff:7f00:1]"];
    const child = spawn(process.execPath, [cli, ...args], { stdio: ["ignore", "pipe", "inherit"] });
    try {
      const url = await new Promise<string>((resolve) => child.stdout!.on("data", (c: Buffer) => { const m = c.toString().match(/listening on (http:\/\/\S+)/); if (m) resolve(m[1]!); }));
      const account = accountOn(url);
      await account.register("https://[::ffff:7f00:1]:1/hooks");
      const session = await account.session();
      expect(session.payment_link).toBe(`https://sandbox.tunnel.example/pay/${session.id}`);
      let attempts: any[] = [];
      for (let i = 0; i < 300 && attempts.length === 0; i++) attempts = await account.deliveries();
      expect(attempts[0].error).toBe("The request failed: ECONNREFUSED.");
    } finally {
      child.kill();
    }
  });
});
