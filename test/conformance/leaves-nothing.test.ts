// payin-conformance receiver in the developer's own sandbox account, as the README runs it: it says
// in one sentence, before the checks start, what they make there and take back; and when they end,
// run through or stopped with Ctrl-C, the account lists no session the developer did not make, and
// its URL gets nothing of theirs afterwards, however far its clock moves.
import { spawn } from "node:child_process";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startMerchant, type RunningMerchant } from "../../examples/merchant/src/server.ts";
import { root } from "../../scripts/lib/paths.ts";
import { startSandbox, type RunningSandbox } from "../../src/sandbox/index.ts";
import { listedSessions } from "../support/listed-sessions.ts";
import { accountOn } from "../support/sandbox-account.ts";

const CLI = path.join(root, "src", "conformance", "cli.ts");

let sandbox: RunningSandbox;
beforeAll(async () => {
  sandbox = await startSandbox({ port: 0 });
});
afterAll(() => sandbox.close());

/** A developer's account: its merchant at the registered URL, and a session of the developer's own. */
async function developer() {
  const account = accountOn(sandbox.url);
  const merchant: RunningMerchant = await startMerchant({ baseUrl: sandbox.url, token: account.token, log: () => {} });
  const mine: string = (await account.session()).id;
  const args = ["receiver", "--url", `${merchant.url}/webhooks/payin`, "--secret", merchant.signingSecret];
  return { account, merchant, mine, args: [...args, "--base-url", sandbox.url, "--token", account.token, "--timeout-ms", "2000"] };
}

/** What the account shows now and after a day on its clock: the sessions it lists, and the sessions its deliveries were about. */
async function leftIn(account: ReturnType<typeof accountOn>) {
  const listed = await listedSessions(sandbox.url, account.token);
  const deliveredBefore = (await account.deliveries()).map((a) => a.session_id);
  await account.advance(24 * 3600);
  const deliveredAfter = (await account.deliveries()).map((a) => a.session_id);
  return { listed, delivered: [...new Set([...deliveredBefore, ...deliveredAfter])] };
}

/** Runs the bin; `interrupt` sends Ctrl-C once the first check's line came. */
function run(args: string[], { interrupt = false } = {}): Promise<{ code: number | null; stdout: string }> {
  const child = spawn(process.execPath, [CLI, ...args], { stdio: ["ignore", "pipe", "inherit"] });
  let stdout = "";
  child.stdout.on("data", (chunk: Buffer) => {
    stdout += chunk;
    if (interrupt && /^[✓✗!-] receiver\./m.test(stdout) && !child.killed) child.kill("SIGINT");
  });
  return new Promise((resolve) => child.once("exit", (code) => resolve({ code, stdout })));
}

describe("payin-conformance receiver in the developer's sandbox account", () => {
  it("says what it makes there before the checks start, and leaves the account as it found it", async () => {
    const { account, merchant, mine, args } = await developer();
    try {
      const { code, stdout } = await run(args);
      expect(code).toBe(0);
      const lines = stdout.split("\n");
      expect(lines.slice(0, 2)).toEqual([
        `checking ${merchant.url}/webhooks/payin`,
        `The checks make a customer and 6 payments of their own in the account at ${sandbox.url} for their events to name, ` +
          "and delete them, with their events, when they end.",
      ]);
      expect(lines[2]).toMatch(/^✓ receiver\./);
      expect(stdout).toContain(
        "the events were about payments the checks made in the account at --base-url, deleted with their events as they ended",
      );
      expect(await leftIn(account)).toEqual({ listed: [mine], delivered: [mine] });
    } finally {
      await merchant.close();
    }
  }, 60_000);

  it("stopped with Ctrl-C, deletes what the checks made too", async () => {
    const { account, merchant, mine, args } = await developer();
    try {
      const { stdout } = await run(args, { interrupt: true });
      expect(stdout).toContain("stopping: the checks' payments are being deleted from the account (Ctrl-C again to leave them)");
      expect(await leftIn(account)).toEqual({ listed: [mine], delivered: [mine] });
    } finally {
      await merchant.close();
    }
  }, 60_000);
});
