// The receiver checks of the endpoint's own failures, against endpoints that fetch their
// transactions from a sandbox account, each in a process of its own: the commonest webhook bugs
// of the field (fetching-endpoint.ts) make `payin-conformance receiver` exit 1, each named by the
// check and the step that catches it; a correct endpoint passes and is still serving after. The
// account's own faults are as they were, and a run without the account says what it skipped.
import { execFile, spawn, type ChildProcess } from "node:child_process";
import path from "node:path";
import { promisify } from "node:util";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { receiverChecks, resultLines, runReceiverConformance } from "../../src/conformance/index.ts";
import { newSigningSecret } from "../../src/lib/ids.ts";
import { startSandbox, type RunningSandbox } from "../../src/sandbox/index.ts";
import { buildEvent, signedDelivery } from "../../src/testing/index.ts";
import { accountOn } from "../support/sandbox-account.ts";
import { startFaultyFront } from "./faulty-front.ts";
import type { ProcessingFlaw } from "./fetching-endpoint.ts";

const exec = promisify(execFile);
const PROCESSING = receiverChecks.filter((c) => c.id.startsWith("receiver.processing-fails.")).map((c) => c.id);
/** The kit's delivery timeout, scaled down from the contract's 15 s: the check of a fetch that hangs waits it out. */
const TIMEOUT_MS = "1500";

let sandbox: RunningSandbox;
const children: ChildProcess[] = [];
beforeAll(async () => {
  sandbox = await startSandbox({ port: 0 });
});
afterAll(async () => {
  for (const child of children) child.kill();
  await sandbox.close();
});

/** An endpoint with `flaw` on an account of its own, started in its own process. */
async function endpointWith(flaw: ProcessingFlaw | "correct") {
  const account = accountOn(sandbox.url);
  const secret = newSigningSecret();
  const child = spawn(process.execPath, [path.resolve("test/conformance/fetching-endpoint.ts"), flaw, secret, sandbox.url, account.token], {
    stdio: ["ignore", "pipe", "pipe"],
  });
  children.push(child);
  const url = await new Promise<string>((resolve, reject) => {
    child.stdout!.on("data", (chunk: Buffer) => {
      const found = /listening on (\S+)/.exec(chunk.toString())?.[1];
      if (found) resolve(found);
    });
    child.once("exit", (code) => reject(new Error(`the ${flaw} endpoint exited with ${code}`)));
  });
  return { account, secret, url, child };
}

/** `payin-conformance receiver` against the endpoint, with its account: exit code and lines. */
async function kit(endpoint: Awaited<ReturnType<typeof endpointWith>>) {
  const args = ["--url", endpoint.url, "--secret", endpoint.secret, "--base-url", sandbox.url, "--token", endpoint.account.token];
  return exec(process.execPath, [path.resolve("src/conformance/cli.ts"), "receiver", ...args, "--timeout-ms", TIMEOUT_MS]).then(
    ({ stdout }) => ({ code: 0, lines: stdout.split("\n") }),
    (error: { code: number; stdout: string }) => ({ code: error.code, lines: error.stdout.split("\n") }),
  );
}

const failedIds = (lines: string[]) => lines.filter((l) => l.startsWith("✗ ")).map((l) => l.split(" ")[1]);
/** The reason under a check's ✗ line. */
const reasonOf = (lines: string[], id: string) => lines[lines.findIndex((l) => l.startsWith(`✗ ${id} `)) + 1]!.trim();

describe("the receiver checks of the endpoint's own failures", () => {
  it("exit 0 on a correct endpoint, which still acknowledges a delivery afterwards, and leave the account's own faults armed", async () => {
    const endpoint = await endpointWith("correct");
    const own = await endpoint.account.call("POST", "/_sandbox/v1/faults", { target: "delivery", effect: "delay", delay_ms: 1 });
    const { code, lines } = await kit(endpoint);
    expect(code, lines.join("\n")).toBe(0);
    for (const id of PROCESSING) expect(lines).toContainEqual(expect.stringMatching(new RegExp(`^✓ ${id.replaceAll(".", "\\.")} `)));
    expect(lines.at(-2)).toBe(`${receiverChecks.length} passed, 0 failed, 0 warned (advisory), 0 skipped`);
    expect((await endpoint.account.call("GET", "/_sandbox/v1/faults")).body.data).toEqual([{ ...own.body, met: expect.any(Number) }]);
    const { headers, body } = await signedDelivery(buildEvent("session-created"), endpoint.secret);
    expect((await fetch(endpoint.url, { method: "POST", headers, body })).status).toBe(204);
  });

  it.concurrent.each<[ProcessingFlaw, string[], RegExp, RegExp]>([
    [
      "records-before-processing",
      PROCESSING,
      new RegExp(
        "^answered 204 to the redelivery of msg_\\S+ without fetching txn_\\S+, whose first fetch got 503: " +
          "record an event as processed only once its processing succeeded$",
      ),
      /^records an event as handled before handling it/,
    ],
    [
      "rethrows",
      PROCESSING,
      new RegExp(
        "^no answer: .*ECONNREFUSED.* to the next delivery, after its fetch of txn_\\S+ got 503: " +
          "it went down; let no error escape the request handler, answer 5xx instead$",
      ),
      /^goes down with its own failure/,
    ],
    [
      "acknowledges-failure",
      ["receiver.processing-fails.fetch-503", "receiver.processing-fails.fetch-dropped"],
      /^answered 204 although its fetch of txn_\S+ got 503: acknowledge an event only once its processing succeeded$/,
      /^acknowledges an event it failed to process: the service never sends it again/,
    ],
    [
      "one-at-a-time",
      ["receiver.processing-fails.fetch-timeout", "receiver.processing-fails.fetch-dropped"],
      /^no answer within 1\.5 s to the next delivery, after its fetch of txn_\S+ got no answer for 60 s: it hangs behind the failed one/,
      /^lets one slow fetch hold up every delivery/,
    ],
  ])("exit 1 on an endpoint that %s, named by %j", async (flaw, named, reason, risk) => {
    const endpoint = await endpointWith(flaw);
    const { code, lines } = await kit(endpoint);
    expect(code).toBe(1);
    expect(failedIds(lines)).toEqual(named);
    expect(reasonOf(lines, named[0]!)).toMatch(reason);
    const at = lines.findIndex((l) => l.startsWith(`✗ ${named[0]} `));
    expect(lines[at + 2]!.trim()).toMatch(new RegExp(`^risk: ${risk.source.slice(1)}`));
    // The account's journal shows the fetch that failed: the kit's verdict is not a guess.
    const fetched = (await endpoint.account.call("GET", "/_sandbox/v1/requests")).body.data;
    expect(fetched.some((r: { fault?: object; operation_id: string }) => r.operation_id === "getTransaction" && r.fault)).toBe(true);
    if (flaw === "rethrows") expect(endpoint.child.exitCode).not.toBeNull();
  });

  it("are skipped without the account, each saying why, and without its control API", async () => {
    const endpoint = await endpointWith("correct");
    const skipped = async (options: { baseUrl?: string; token?: string }) =>
      (await runReceiverConformance({ url: endpoint.url, secret: endpoint.secret, only: PROCESSING, ...options })).results.map((r) =>
        resultLines(r).join("\n"),
      );
    expect(await skipped({})).toEqual(
      PROCESSING.map((id) =>
        expect.stringMatching(
          new RegExp(
            `^- ${id.replaceAll(".", "\\.")} .* \\(skipped\\)\n {4}needs --base-url and --token of the sandbox account ` +
              "the endpoint fetches from: the kit makes the endpoint's fetch of the transaction fail there$",
          ),
        ),
      ),
    );
    const noControl = await startFaultyFront(sandbox.url, {
      answer: (request, answer) => (request.path.startsWith("/_sandbox/") ? { status: 404, headers: {}, body: "" } : answer),
    });
    try {
      const lines = await skipped({ baseUrl: noControl.url, token: endpoint.account.token });
      expect(lines[0]).toMatch(
        /\n {4}needs the sandbox's control API at --base-url to fail a payment there: http:\/\/127\.0\.0\.1:\d+ has none$/,
      );
    } finally {
      await noControl.close();
    }
  });
});
