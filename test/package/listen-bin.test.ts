// The installed payin-listen on a throwaway PostgreSQL with two installed payin-sandbox processes,
// in a project with the driver installed beside the package: a paid session's events made via the
// other process arrive signed and in order, a 500 is retried, and what came while away arrives.
import { spawn } from "node:child_process";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { postgresMissing, startPostgres, type TestPostgres } from "../../scripts/lib/temp-postgres.ts";
import { startReceiver, type Receiver } from "../support/receiver.ts";
import { accountOn } from "../support/sandbox-account.ts";
import { cli, startBin, withPeers as project } from "./support/consumer.ts";

describe.skipIf(postgresMissing)("the installed payin-listen, on a throwaway PostgreSQL with two installed payin-sandbox processes", () => {
  let cluster: TestPostgres;
  const sandboxes: ReturnType<typeof startBin>[] = [];
  let one: string;
  let two: string;
  beforeAll(async () => {
    cluster = startPostgres();
    const database = cluster.createDatabase();
    for (let i = 0; i < 2; i++)
      sandboxes.push(
        startBin("payin-sandbox", process.execPath, project, [
          "--database",
          database,
          "--retry-schedule",
          "1,1,1",
          "--settlement-delay",
          "1",
        ]),
      );
    [one, two] = (await Promise.all(sandboxes.map((s) => s.url))) as [string, string];
  }, 60_000);
  afterAll(() => {
    for (const s of sandboxes) s.child.kill("SIGTERM");
    cluster?.stop();
  });

  /** The installed payin-listen on process one, passing on to `receiver`: its lines as they come, and its secret once printed. */
  function startListen(token: string, receiver: Receiver) {
    const child = spawn(process.execPath, [cli("listen"), "--base-url", one, "--token", token, "--forward-to", receiver.url], {
      cwd: project,
      stdio: ["ignore", "pipe", "pipe"],
    });
    const lines: string[] = [];
    let stderr = "";
    child.stderr!.on("data", (chunk: Buffer) => void (stderr += chunk));
    child.stdout!.setEncoding("utf8");
    let partial = "";
    child.stdout!.on("data", (chunk: string) => {
      const parts = (partial + chunk).split("\n");
      partial = parts.pop()!;
      lines.push(...parts);
    });
    const exited = new Promise<number | null>((resolve) => child.once("exit", resolve));
    const secret = new Promise<string>((resolve, reject) => {
      const poll = setInterval(() => {
        const found = lines.map((l) => /\bwhsec_\S+/.exec(l)?.[0]).find(Boolean);
        if (found) resolve(found);
        if (found || child.exitCode !== null) clearInterval(poll);
        if (!found && child.exitCode !== null) reject(new Error(`payin-listen exited with ${child.exitCode}: ${stderr}`));
      }, 20);
    });
    return { child, lines, secret, exited, stderr: () => stderr };
  }

  it("passes on a paid session's events made via the other process, signed, in order, a 500 retried, what came while away", async () => {
    const { verifyWebhook } = await import(
      path.join(project, "node_modules", "payin-acceptance-contract", "dist", "src", "webhooks", "index.js")
    );
    const token = `consumer-listen-${crypto.randomUUID()}`;
    const other = accountOn(two, token);
    const receiver = await startReceiver();
    receiver.answer = ({ type, n }) => (type === "transaction-created" && n === 2 ? 500 : 204);
    const listener = startListen(token, receiver);
    try {
      const secret = await listener.secret;
      expect(listener.lines[0]).toBe(`Ready! Your webhook signing secret is ${secret} (deliveries go to ${receiver.url}; Ctrl-C to stop)`);
      const session = await other.session();
      await other.simulate(session.id, { outcome: "pay" });
      await receiver.delivered(5, 20_000);
      const attempts = receiver.attempts;
      expect(attempts.map((a) => [a.type, a.status])).toEqual([
        ["session-created", 204],
        ["transaction-created", 500],
        ["transaction-created", 204],
        ["transaction-completed", 204],
        ["session-completed", 204],
        ["transaction-settled", 204],
      ]);
      expect(attempts[1]!.id).toBe(attempts[2]!.id);
      for (const a of attempts) await expect(verifyWebhook(a.body, a.headers, secret)).resolves.toMatchObject({ type: a.type });
      // One line per delivery, the 500 among them; the delivery log through the other process says the same.
      await expect.poll(() => listener.lines.length).toBe(1 + attempts.length);
      expect(listener.lines[2]).toMatch(new RegExp(`^\\S+Z {2}transaction-created {2}${attempts[1]!.id} {2}500 {2}\\d+ ms$`));
      const log = await other.deliveries();
      expect(log.filter((d) => d.event_type === "transaction-created").map((d) => [d.status, d.response_status])).toEqual([
        ["failed", 500],
        ["succeeded", 204],
      ]);

      // Ctrl-C: it stops cleanly; what is made meanwhile waits, and comes once it connects again.
      listener.child.kill("SIGINT");
      expect(await listener.exited).toBe(0);
      const away = await other.session();
      const again = startListen(token, receiver);
      try {
        expect(await again.secret).toBe(secret);
        const delivered = await receiver.delivered(6, 20_000);
        expect(JSON.parse(delivered.at(-1)!.body).data.session_id).toBe(away.id);
        expect([listener.stderr(), again.stderr()]).toEqual(["", ""]);
      } finally {
        again.child.kill("SIGINT");
      }
    } finally {
      listener.child.kill("SIGINT");
      await receiver.close();
    }
  }, 60_000);
});
