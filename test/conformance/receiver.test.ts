// The receiver checks against the example merchant (examples/merchant/), on a sandbox account of
// its own. The events name payments the kit created in that account, so the merchant, which
// fetches the transaction of every transaction event, can handle them: every check, required
// and advisory, passes. Without the account the events name made-up objects, and the report
// says so. The kit runs on a clock the test moves: the check of a fetch that hangs is over as soon
// as the hang is, not after the kit's timeout in real time.
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { startMerchant, type RunningMerchant } from "../../examples/merchant/src/server.ts";
import {
  receiverChecks,
  receiverSummaryLines,
  runReceiverConformance,
  SetupFailed,
  UnreachableTarget,
  type ReceiverReport,
} from "../../src/conformance/index.ts";
import { startSandbox, type RunningSandbox } from "../../src/sandbox/index.ts";
import { ManualClock, REAL_WORK } from "../support/manual-clock.ts";
import { startFaultyFront } from "./faulty-front.ts";

let sandbox: RunningSandbox;
let merchant: RunningMerchant;
let report: ReceiverReport;
const token = `receiver-${crypto.randomUUID()}`;
const logs: string[] = [];

/** The contract's 15 s scaled down: the check of a fetch that hangs waits it out, on the kit's clock. */
const TIMEOUT_MS = 2000;

/** Whether the sandbox holds a fetch of the merchant's: a delay fault armed on the account (the kit's), and met. */
async function holdsFetch(): Promise<boolean> {
  const faults = await fetch(`${sandbox.url}/_sandbox/v1/faults`, { headers: { authorization: `Bearer ${token}` } });
  return ((await faults.json()).data as Array<{ effect: string; met: number }>).some((f) => f.effect === "delay" && f.met > 0);
}

beforeAll(async () => {
  sandbox = await startSandbox({ port: 0 });
  // Its client tries a failed fetch again at once: its wait between two tries (a second, in real time) is no check's concern.
  merchant = await startMerchant({ baseUrl: sandbox.url, token, log: (line) => logs.push(line), retry: { baseDelayMs: 0 } });
  // At the system's time, within the five minutes of it that the merchant takes a delivery's timestamp.
  const clock = new ManualClock(Date.now());
  const run = runReceiverConformance({
    url: `${merchant.url}/webhooks/payin`,
    secret: merchant.signingSecret,
    baseUrl: sandbox.url,
    token,
    timeoutMs: TIMEOUT_MS,
    clock,
  });
  let ended = false;
  void run.finally(() => (ended = true)).catch(() => {});
  // The check of a fetch that hangs: once the sandbox holds the merchant's fetch, with the kit's delivery waiting for its
  // answer, the kit's clock moves past the timeout.
  await vi.waitFor(async () => expect(ended || ((await holdsFetch()) && clock.dueIn().includes(TIMEOUT_MS))).toBe(true), REAL_WORK);
  if (!ended) await clock.advance(TIMEOUT_MS);
  report = await run;
}, 60_000);
afterAll(async () => {
  await merchant?.close();
  await sandbox?.close();
});

const endpoint = () => `${merchant.url}/webhooks/payin`;

describe("the receiver checks against the example merchant", () => {
  it("pass, every one of them, on events about payments created in its account", () => {
    expect(report.results.filter((r) => r.outcome !== "passed")).toEqual([]);
    expect(report.results.map((r) => r.id)).toEqual(receiverChecks.map((c) => c.id));
    expect(report.payments).toBe("created");
    expect(receiverSummaryLines(report)).toEqual([
      "",
      `endpoint: ${endpoint()}`,
      "the events were about payments the checks made in the account at --base-url, deleted with their events as they ended",
      "",
      `${receiverChecks.length} passed, 0 failed, 0 warned (advisory), 0 skipped`,
    ]);
  });

  it("waited, on the kit's clock, the timeout for the delivery whose fetch the sandbox held, and nothing else", () => {
    expect(report.results.filter((r) => r.durationMs > 0).map((r) => [r.id, r.durationMs])).toEqual([
      ["receiver.processing-fails.fetch-timeout", TIMEOUT_MS],
    ]);
  });

  // The merchant answers 2xx only after verifyWebhook took the delivery (signature, timestamp,
  // the event's schema): the seven event checks passing says the kit's events keep the contract.
  it("sent an event of a type the merchant does not know, which verifyWebhook named and the merchant ignored", () => {
    expect(logs).toContainEqual(
      'ignored: The event type "transaction-refunded" is not one this version knows: acknowledge it with 2xx and ignore it.',
    );
  });

  it(
    "without the merchant's account, sends made-up objects: the merchant cannot fetch their transactions, " +
      "and the summary says to give --base-url",
    async () => {
      const lonely = await runReceiverConformance({
        url: endpoint(),
        secret: merchant.signingSecret,
        only: ["receiver.event.session-created", "receiver.event.transaction-completed"],
      });
      expect(lonely.results.map((r) => [r.id, r.outcome])).toEqual([
        ["receiver.event.session-created", "passed"],
        ["receiver.event.transaction-completed", "failed"],
      ]);
      // The cause the merchant's 503 most likely has comes first, the risk after it.
      const transaction = /"transaction_id":"(txn_[^"]+)"/.exec(lonely.results[1]!.details![1]!)![1];
      expect([lonely.results[1]!.reason, lonely.results[1]!.risk]).toEqual([
        `answered 503 to a validly signed transaction-completed, most likely because it could not fetch ${transaction}, ` +
          "which the kit made up: give --base-url and --token of the account the endpoint fetches from",
        "if that is not the cause, the endpoint misses real transaction-completed events: " +
          "the service retries each for days and the order never learns what happened",
      ]);
      expect(receiverSummaryLines(lonely)[2]).toBe(
        "the events named made-up objects: an endpoint that fetches the transaction fails those events; " +
          "give --base-url and --token of the account it fetches from",
      );
    },
  );

  it("makes nothing in an account with no control API to delete it, says so before it starts, and makes the objects up", async () => {
    const requests: string[] = [];
    const noControl = await startFaultyFront(sandbox.url, {
      answer: (request, answer) => {
        requests.push(`${request.method} ${request.path}`);
        return request.path.startsWith("/_sandbox/") ? { status: 404, headers: {}, body: "" } : answer;
      },
    });
    try {
      const said: string[] = [];
      const partial = await runReceiverConformance({
        url: endpoint(),
        secret: merchant.signingSecret,
        baseUrl: noControl.url,
        token,
        only: ["receiver.event.session-created"],
        onStart: (line) => said.push(line),
      });
      expect(partial.payments).toBe("not-made");
      expect(partial.counts).toEqual({ passed: 1, failed: 0, warned: 0, skipped: 0 });
      expect(said).toEqual([
        `${noControl.url} has no sandbox control API to delete what the checks would make there: ` +
          "they make nothing in the account, and their events name made-up objects.",
      ]);
      expect(receiverSummaryLines(partial)[2]).toMatch(/^the events named made-up objects: the account at --base-url has no sandbox/);
      // It asked whether there is a control API, and made nothing.
      expect(requests).toEqual(["GET /_sandbox/v1/faults"]);
    } finally {
      await noControl.close();
    }
  });

  it("cannot run when the account refuses to create what the events name, or cannot be reached", async () => {
    const run = (baseUrl: string) =>
      runReceiverConformance({ url: endpoint(), secret: merchant.signingSecret, baseUrl, token: "", only: [] });
    await expect(run(sandbox.url)).rejects.toThrow(SetupFailed);
    await expect(run(sandbox.url)).rejects.toThrow(
      /^http:\/\/127\.0\.0\.1:\d+ answered 401 to GET \/_sandbox\/v1\/faults, not 200: \{.*"status":401/,
    );
    await expect(run("http://127.0.0.1:9")).rejects.toThrow(UnreachableTarget);
  });
});
