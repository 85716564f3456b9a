// The payin-listen bin: its lines as a developer sees them, Ctrl-C ending it cleanly, a 503 at
// start tried again with a line that says so, and a clear line with exit 2 for bad flags, a
// sandbox it cannot reach, or a token it refuses.
import { execFile, spawn } from "node:child_process";
import path from "node:path";
import { promisify } from "node:util";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startSandbox, type RunningSandbox } from "../../src/sandbox/index.ts";
import { accountOn } from "../support/sandbox-account.ts";
import { startReceiver } from "../support/receiver.ts";
import { startLoadBalancer } from "../support/load-balancer.ts";

const CLI = path.resolve("src/listen/cli.ts");
const exec = promisify(execFile);
const run = (...args: string[]) =>
  exec(process.execPath, [CLI, ...args]).then(
    ({ stdout, stderr }) => ({ code: 0, stdout, stderr }),
    (e: { code: number; stdout: string; stderr: string }) => ({ code: e.code, stdout: e.stdout, stderr: e.stderr }),
  );

let sandbox: RunningSandbox;
beforeAll(async () => {
  sandbox = await startSandbox({ port: 0 });
});
afterAll(() => sandbox.close());

describe("payin-listen", () => {
  it("prints the secret, then a line per delivery, and stops on Ctrl-C with exit 0", async () => {
    const account = accountOn(sandbox.url);
    const receiver = await startReceiver();
    const child = spawn(process.execPath, [CLI, "--base-url", sandbox.url, "--token", account.token, "--forward-to", receiver.url]);
    let out = "";
    child.stdout.on("data", (chunk: Buffer) => void (out += chunk));
    await expect.poll(() => out, { timeout: 10_000 }).toMatch(/^Ready! Your webhook signing secret is whsec_\S+ \(deliveries go to /);
    await account.session();
    await expect.poll(() => out, { timeout: 10_000 }).toMatch(/\n\S+Z {2}session-created {2}msg_\S+ {2}204 {2}\d+ ms\n/);
    const exited = new Promise<number | null>((resolve) => child.once("exit", resolve));
    child.kill("SIGINT");
    expect(await exited).toBe(0);
    await receiver.close();
  });

  it("connects again while the sandbox answers 503 at start, one line each time; Ctrl-C then or after exits 0", async () => {
    const account = accountOn(sandbox.url);
    const receiver = await startReceiver();
    const balancer = await startLoadBalancer([sandbox.url]);
    const started: ReturnType<typeof spawn>[] = [];
    /** payin-listen through the balancer: its output so far, and its exit code once Ctrl-C is sent. */
    const start = () => {
      const child = spawn(process.execPath, [CLI, "--base-url", balancer.url, "--token", account.token, "--forward-to", receiver.url]);
      started.push(child);
      const run = {
        out: "",
        interrupt: () => new Promise<number | null>((resolve) => (child.once("exit", resolve), child.kill("SIGINT"))),
      };
      child.stdout!.on("data", (chunk: Buffer) => void (run.out += chunk));
      return run;
    };
    const unavailable = `${balancer.url} answered 503 to the listener; connecting again in`;
    try {
      balancer.unavailable(1);
      const connects = start();
      await expect.poll(() => connects.out, { timeout: 10_000 }).toMatch(/\nReady! /);
      expect(connects.out.split("\n")[0]).toBe(`${unavailable} 0.5 s.`);
      expect(await connects.interrupt()).toBe(0);
      // Still connecting, between two tries.
      balancer.unavailable(100);
      const waits = start();
      await expect.poll(() => waits.out, { timeout: 10_000 }).toContain(unavailable);
      expect(await waits.interrupt()).toBe(0);
    } finally {
      for (const child of started) child.kill("SIGKILL");
      await Promise.all([receiver.close(), balancer.close()]);
    }
  });

  it.each([
    [["--token", "t", "--forward-to", "http://127.0.0.1:3000/"], "payin-listen: --base-url is required"],
    [
      ["--base-url", "nope", "--token", "t", "--forward-to", "http://127.0.0.1:3000/"],
      'payin-listen: --base-url must be an http:// or https:// URL, not "nope"',
    ],
    [
      ["--base-url", "http://127.0.0.1:1", "--token", "t", "--forward-to", "ftp://x"],
      'payin-listen: --forward-to must be an http:// or https:// URL, not "ftp://x"',
    ],
    [["--base-url", "http://127.0.0.1:1", "--forward-to", "http://127.0.0.1:3000/"], "payin-listen: --token is required"],
    [
      ["--base-url", "http://127.0.0.1:1", "--token", "t", "--forward-to", "http://127.0.0.1:3000/", "--events", "session-made"],
      "payin-listen: --events names no event type session-made",
    ],
  ])("exits 2 on bad flags %j, naming what is wrong", async (args, line) => {
    const result = await run(...args);
    expect([result.code, result.stderr.split("\n")[0]]).toEqual([2, line]);
  });

  it("exits 2 with one line when the sandbox cannot be reached or refuses the token", async () => {
    const gone = await startReceiver();
    await gone.close();
    const origin = new URL(gone.url).origin;
    const unreachable = await run("--base-url", origin, "--token", "t", "--forward-to", gone.url);
    expect([unreachable.code, unreachable.stderr.trimEnd().split("\n")]).toEqual([
      2,
      [expect.stringMatching(new RegExp(`^payin-listen: ${origin} cannot be reached: .*ECONNREFUSED`))],
    ]);
    const refused = await run("--base-url", sandbox.url, "--token", "not a token", "--forward-to", gone.url);
    expect([refused.code, refused.stderr.trimEnd()]).toEqual([
      2,
      `payin-listen: ${sandbox.url} answered 401 to the listener: The Authorization header is missing or its bearer token is not valid.`,
    ]);
  });
});
