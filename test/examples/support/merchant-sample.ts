// The test of a merchant sample in another language (examples/merchant-<lang>/), run as a merchant
// would copy it: the sample's files copied to a temporary folder (so that nothing it builds lands in
// the repository), its three scripts run from there against a sandbox in process. Its verifier
// passes the webhook vectors, its endpoint passes every receiver check, and a checkout paid on the
// sandbox makes its order paid. Without the toolchain the tests skip, saying why; in CI they may not.
import { spawn, spawnSync, type ChildProcess } from "node:child_process";
import { chmodSync, copyFileSync, mkdirSync, mkdtempSync, rmSync, statSync } from "node:fs";
import { createServer } from "node:net";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { root } from "../../../scripts/lib/paths.ts";
import { receiverChecks, runReceiverConformance } from "../../../src/conformance/index.ts";
import { startSandbox, type RunningSandbox } from "../../../src/sandbox/index.ts";

/** Written by the build: the cases every sample's verifier must judge as the package's does. */
const VECTORS = path.join(root, "generated", "webhook-vectors.json");

export interface MerchantSample {
  /** The language, as the test names it: "Python". */
  language: string;
  /** The sample's folder, from the repository root. */
  folder: string;
  /** Commands that must run (exit 0) for the sample to: the toolchain, and any library it needs. */
  toolchain: ReadonlyArray<readonly [string, ...string[]]>;
  /** The Debian packages that bring them, as the sample's README installs them. */
  packages: string;
}

/** Why the sample cannot be tested here, or undefined when it can. In CI it always must. */
function toolchainMissing({ language, toolchain, packages }: MerchantSample): string | undefined {
  const failing = toolchain.find(([command, ...args]) => spawnSync(command, args, { stdio: "ignore" }).status !== 0);
  if (!failing) return undefined;
  const missing = `${language} sample tests skipped: \`${failing.join(" ")}\` fails (apt-get install ${packages}).`;
  if (process.env.CI) throw new Error(missing.replace("skipped", "cannot skip in CI"));
  return missing;
}

/** The sample's files as a checkout has them (tracked, or new and not ignored), copied with their modes to a new folder. */
function copySample(folder: string): string {
  const listed = spawnSync("git", ["ls-files", "--cached", "--others", "--exclude-standard", "-z", folder], {
    cwd: root,
    encoding: "utf8",
  });
  if (listed.status !== 0) throw new Error(`git ls-files ${folder}: ${listed.stderr}`);
  const dir = mkdtempSync(path.join(tmpdir(), `${path.basename(folder)}-`));
  for (const file of listed.stdout.split("\0").filter(Boolean)) {
    const to = path.join(dir, path.relative(folder, file));
    mkdirSync(path.dirname(to), { recursive: true });
    copyFileSync(path.join(root, file), to);
    chmodSync(to, statSync(path.join(root, file)).mode);
  }
  return dir;
}

async function freePort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as { port: number };
  await new Promise((resolve) => server.close(resolve));
  return port;
}

interface Ran {
  code: number | null;
  stdout: string;
  stderr: string;
}

/** Runs one of the sample's scripts to its end. */
function run(dir: string, script: string, args: string[], env: NodeJS.ProcessEnv): Promise<Ran> {
  return new Promise((resolve, reject) => {
    const child = spawn(`./${script}`, args, { cwd: dir, env: { ...process.env, ...env }, stdio: ["ignore", "pipe", "pipe"] });
    let stdout = "";
    let stderr = "";
    child.stdout.on("data", (chunk: Buffer) => void (stdout += chunk));
    child.stderr.on("data", (chunk: Buffer) => void (stderr += chunk));
    child.once("error", reject);
    child.once("close", (code) => resolve({ code, stdout, stderr }));
  });
}

interface StartedEndpoint {
  child: ChildProcess;
  url: string;
  secret: string;
  output: () => string;
}

/** ./start, in a process group of its own (a wrapper script and what it starts stop together), once it printed its two lines. */
async function start(dir: string, env: NodeJS.ProcessEnv): Promise<StartedEndpoint> {
  const child = spawn("./start", [], { cwd: dir, env: { ...process.env, ...env }, stdio: ["ignore", "pipe", "pipe"], detached: true });
  let stdout = "";
  let stderr = "";
  child.stderr!.on("data", (chunk: Buffer) => void (stderr += chunk));
  const output = () => `stdout:\n${stdout}\nstderr:\n${stderr}`;
  const [url, secret] = await new Promise<[string, string]>((resolve, reject) => {
    child.stdout!.on("data", (chunk: Buffer) => {
      stdout += chunk.toString();
      const url = stdout.match(/^merchant listening on (http:\/\/127\.0\.0\.1:\d+)/m)?.[1];
      const secret = stdout.match(/^check the endpoint: npx payin-conformance receiver --url \S+ --secret (whsec_\S+) /m)?.[1];
      if (url && secret) resolve([url, secret]);
    });
    child.once("error", reject);
    child.once("exit", (code) => reject(new Error(`./start exited with ${code}\n${output()}`)));
  });
  return { child, url, secret, output };
}

async function stop(child: ChildProcess | undefined): Promise<void> {
  if (!child || child.exitCode !== null || child.signalCode !== null) return;
  const exited = new Promise((resolve) => child.once("exit", resolve));
  try {
    process.kill(-child.pid!, "SIGTERM");
  } catch {
    return; // its group has ended already
  }
  await exited;
}

export function describeMerchantSample(sample: MerchantSample): void {
  const missing = toolchainMissing(sample);
  describe.skipIf(missing !== undefined)(
    missing ?? `the ${sample.language} merchant sample (${sample.folder}/), copied out and run`,
    () => {
      let dir: string;
      let sandbox: RunningSandbox;
      let endpoint: StartedEndpoint;
      const token = `sample-${crypto.randomUUID()}`;
      let env: NodeJS.ProcessEnv;

      beforeAll(async () => {
        dir = copySample(sample.folder);
        sandbox = await startSandbox({ port: 0 });
        env = { PAYIN_BASE_URL: sandbox.url, PAYIN_TOKEN: token, PORT: String(await freePort()) };
        endpoint = await start(dir, env);
      });
      afterAll(async () => {
        // The endpoint first: a fetch of a transaction it still holds open would keep the sandbox from closing.
        await stop(endpoint?.child);
        await sandbox?.close();
        if (dir) rmSync(dir, { recursive: true, force: true });
      });

      it("./verify-vectors judges every case of the webhook vectors as the package does", async () => {
        const ran = await run(dir, "verify-vectors", [VECTORS], {});
        expect(ran.stderr).toBe("");
        expect(ran.stdout).toMatch(/^(\d+) passed, 0 failed$/m);
        expect(Number(ran.stdout.match(/^(\d+) passed/m)![1])).toBeGreaterThanOrEqual(40);
        expect(ran.code).toBe(0);
      });

      it("./start's endpoint passes every receiver check, advisory ones too", async () => {
        const report = await runReceiverConformance({
          url: `${endpoint.url}/webhooks/payin`,
          secret: endpoint.secret,
          baseUrl: sandbox.url,
          token,
          // The contract's 15 s scaled down: the check of a fetch that hangs waits it out.
          timeoutMs: 2000,
        });
        expect(
          report.results.filter((r) => r.outcome !== "passed"),
          endpoint.output(),
        ).toEqual([]);
        expect(report.results.map((r) => r.id)).toEqual(receiverChecks.map((c) => c.id));
      });

      it("./checkout prints a payment link; paid on the sandbox, its order is paid in GET /orders", async () => {
        const checkout = await run(dir, "checkout", [], { ...env, MERCHANT_URL: endpoint.url });
        expect(checkout.stderr).toBe("");
        expect(checkout.code).toBe(0);
        const [, orderId, sessionId] = checkout.stdout.match(/^order (\S+): pending, 49\.99 EUR, session (\S+)$/m)!;
        expect(checkout.stdout).toContain(`payment link: ${sandbox.url}/pay/${sessionId}\n`);
        // Again: the customer exists, and its 409's existing_id is used.
        expect((await run(dir, "checkout", [], { ...env, MERCHANT_URL: endpoint.url })).code).toBe(0);

        const paid = await fetch(`${sandbox.url}/_sandbox/v1/payment-sessions/${sessionId}/simulate`, {
          method: "POST",
          headers: { Authorization: `Bearer ${token}`, "Content-Type": "application/json" },
          body: JSON.stringify({ outcome: "pay" }),
        });
        expect(paid.status).toBe(200);
        const { transaction } = (await paid.json()) as { transaction: { id: string } };
        // The events come after simulate answers: wait for the order to say paid.
        let order: Record<string, unknown> | undefined;
        for (let i = 0; i < 200 && order?.status !== "paid"; i++) {
          await new Promise((resolve) => setTimeout(resolve, 25));
          const orders = (await (await fetch(`${endpoint.url}/orders`)).json()) as Array<Record<string, unknown>>;
          order = orders.find((o) => o.order_id === orderId);
        }
        // The transaction's status comes from its fetch: the handler asked the service.
        expect(order, endpoint.output()).toMatchObject({
          order_id: orderId,
          session_id: sessionId,
          status: "paid",
          amount: 49.99,
          currency: "EUR",
          transactions: { [transaction.id]: "completed" },
        });
      });

      it("answers a body over 1 MB with 413, a wrong path or method with 404, and keeps serving", async () => {
        const webhooks = `${endpoint.url}/webhooks/payin`;
        const huge = await fetch(webhooks, { method: "POST", body: "x".repeat(2 * 1024 * 1024) });
        expect(huge.status).toBe(413);
        await huge.body?.cancel();
        for (const [method, url] of [
          ["POST", `${endpoint.url}/elsewhere`],
          ["GET", webhooks],
          ["PUT", webhooks],
        ]) {
          const answer = await fetch(url!, { method, ...(method === "GET" ? {} : { body: "{}" }) });
          expect([method, url, answer.status]).toEqual([method, url, 404]);
          await answer.body?.cancel();
        }
        expect((await fetch(`${endpoint.url}/orders`)).status).toBe(200);
      });
    },
  );
}
