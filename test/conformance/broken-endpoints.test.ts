// The receiver checks against broken endpoints, one flaw each (flawed-endpoint.ts): each flaw is
// reported by the checks that name it, with the risk in plain words, and by no other; the
// same endpoint without a flaw passes every check. The command exits 1 on a flaw, 2 when it
// cannot run. Where what is checked is time (an answer slow or late, none at all), the kit and the
// endpoint run on a clock the test moves: no test waits for a timeout, and each duration is exact.
import { execFile } from "node:child_process";
import { mkdtempSync, readFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { promisify } from "node:util";
import { afterAll, describe, expect, it, vi } from "vitest";
import { createServer } from "node:http";
import {
  junit,
  receiverChecks,
  receiverSecretLines,
  resultLines,
  runReceiverConformance,
  UnreachableTarget,
  type ReceiverOptions,
} from "../../src/conformance/index.ts";
import { bindPort } from "../../src/lib/bind-port.ts";
import { newSigningSecret } from "../../src/lib/ids.ts";
import { ManualClock, REAL_WORK } from "../support/manual-clock.ts";
import { FLAWS, startFlawedEndpoint, type Flaw, type FlawedEndpoint } from "./flawed-endpoint.ts";

const endpoints: FlawedEndpoint[] = [];
afterAll(() => Promise.all(endpoints.map((e) => e.close())));

async function check(flaw: Flaw | undefined, options: Partial<ReceiverOptions> = {}, slowMs = 0) {
  const secret = newSigningSecret();
  const endpoint = await startFlawedEndpoint(secret, flaw, { slowMs, ...(options.clock ? { clock: options.clock } : {}) });
  endpoints.push(endpoint);
  const report = await runReceiverConformance({ url: endpoint.url, secret, ...options });
  const ids = (outcome: string) => report.results.filter((r) => r.outcome === outcome).map((r) => r.id);
  return { report, failed: ids("failed"), warned: ids("warned"), risk: (id: string) => report.results.find((r) => r.id === id)?.risk };
}

/**
 * Waits for `run` while moving `clock` `ms` on each time a timer of `ms` waits on it (the endpoint holding its answer,
 * or the kit waiting for one that does not come); between two moves the requests and answers go as fast as they can.
 */
async function moving<T>(clock: ManualClock, ms: number, run: Promise<T>): Promise<T> {
  let ended = false;
  const ending = run.finally(() => {
    ended = true;
  });
  ending.catch(() => {});
  while (!ended) {
    await vi.waitFor(() => expect(ended || clock.dueIn().includes(ms)).toBe(true), REAL_WORK);
    if (!ended) await clock.advance(ms);
  }
  return ending;
}

/** The checks against the slow endpoint, which takes `slowMs` on the clock over each authentic event. */
function checkSlow(options: Partial<ReceiverOptions>, slowMs: number) {
  const clock = new ManualClock();
  return moving(clock, slowMs, check("slow", { ...options, clock }, slowMs));
}

const FORGED = [
  "receiver.forged.other-secret",
  "receiver.forged.other-body",
  "receiver.forged.changed-byte",
  "receiver.forged.added-whitespace",
  "receiver.forged.reserialised",
];
const ACKNOWLEDGED = [
  "receiver.event.session-created",
  "receiver.event.transaction-created",
  "receiver.event.transaction-completed",
  "receiver.event.transaction-settled",
  "receiver.event.session-expired",
  "receiver.event.transaction-failed",
  "receiver.event.session-completed",
  "receiver.redelivery",
  "receiver.reformatted-json",
  "receiver.signature-rotation",
  "receiver.out-of-order",
];

describe("the receiver checks against broken endpoints", () => {
  it("pass every check on the endpoint without a flaw, and skip those of its own failures, for want of an account", async () => {
    const { report } = await check(undefined);
    expect(report.results.filter((r) => r.outcome !== "passed").map((r) => [r.id, r.outcome])).toEqual(
      receiverChecks.filter((c) => c.needs).map((c) => [c.id, "skipped"]),
    );
    expect(report.payments).toBe("made-up");
    expect(report.secretSuspected).toBe(false);
  });

  it(
    "say first that the secret is probably not the endpoint's when it refuses every validly signed delivery, " + "and keep each failure",
    async () => {
      const endpoint = await startFlawedEndpoint(newSigningSecret());
      endpoints.push(endpoint);
      const progress: boolean[] = [];
      const report = await runReceiverConformance({
        url: endpoint.url,
        secret: newSigningSecret(),
        onResult: (_, { secretSuspected }) => progress.push(secretSuspected),
      });
      expect(report.secretSuspected).toBe(true);
      expect(progress).toEqual(report.results.map(() => true));
      expect(receiverSecretLines(report)).toEqual([
        "The endpoint refused every validly signed delivery with 4xx: " +
          "the secret given with --secret is most likely not the one it verifies with.",
        "Give --secret the endpoint's own signing secret (the signing_secret POST /webhooks returned for its URL); " +
          "the failures below follow from it.",
        "",
      ]);
      const failed = report.results.filter((r) => r.outcome === "failed");
      expect(failed.map((r) => r.id)).toEqual(ACKNOWLEDGED);
      expect(failed[0]!.reason).toBe("answered 401 to a validly signed session-created, where the contract expects 2xx");
      expect(report.results.filter((r) => r.outcome === "warned").map((r) => r.id)).toEqual([
        "receiver.unknown-event-type",
        "receiver.answer-time",
      ]);
    },
  );

  it.each<[string, Flaw | undefined, Partial<ReceiverOptions>]>([
    ["an endpoint that redirects every delivery (3xx, not a refusal)", "redirects", {}],
    ["an endpoint that refuses only some signed deliveries", "refuses-out-of-order", {}],
    ["a run whose checks send no delivery to acknowledge", undefined, { only: ["receiver.not-json", "receiver.forged.other-secret"] }],
  ])("do not suspect the secret of %s", async (_, flaw, options) => {
    const progress: boolean[] = [];
    const { report } = await check(flaw, { ...options, onResult: (_, { secretSuspected }) => progress.push(secretSuspected) });
    expect(report.secretSuspected).toBe(false);
    expect(receiverSecretLines(report)).toEqual([]);
    // Before the first delivery to acknowledge, it could still be the secret.
    expect(progress[0]).toBe(flaw === undefined);
  });

  it.each<[Flaw, string[], RegExp, string[]?]>([
    [
      "no-signature-check",
      [...FORGED, "receiver.missing-header.webhook-signature"],
      /^accepts forged events: anyone can mark an order paid/,
    ],
    [
      "signature-over-reserialised-json",
      ["receiver.reformatted-json", "receiver.forged.added-whitespace", "receiver.forged.reserialised", "receiver.not-json"],
      /re-serialised JSON/,
    ],
    ["no-timestamp-check", ["receiver.stale-timestamp", "receiver.future-timestamp"], /^accepts replays/],
    ["500-on-redelivery", ["receiver.redelivery"], /^fails every retry/],
    ["500-on-non-json", ["receiver.not-json"], /retries a delivery that can never succeed/],
    ["500-on-forgery", FORGED, /^answers a forgery with 5xx/],
    [
      "crash-on-missing-header",
      ["receiver.missing-header.webhook-id", "receiver.missing-header.webhook-timestamp", "receiver.missing-header.webhook-signature"],
      /^answers a forgery with 5xx/,
    ],
    ["first-signature-only", ["receiver.signature-rotation"], /^tries only the first signature/],
    ["accepts-invalid-events", ["receiver.invalid-event"], /lost without a trace/],
    ["refuses-out-of-order", ["receiver.out-of-order"], /out of order/],
    ["redirects", ACKNOWLEDGED, /^misses real session-created events/, ["receiver.unknown-event-type", "receiver.answer-time"]],
  ])("report %s by %j, and nothing else", async (flaw, named, risk, advised = []) => {
    const { failed, warned, risk: riskOf } = await check(flaw);
    expect(failed).toEqual(named);
    expect(warned).toEqual(advised);
    expect(riskOf(named[0]!)).toMatch(risk);
  });

  it("report an answer after 16 s, past the contract's 15 s, by every check of an event it must acknowledge", async () => {
    const { failed, warned, report, risk } = await checkSlow({}, 16_000);
    expect(failed).toEqual(ACKNOWLEDGED);
    expect(warned).toEqual(["receiver.answer-time"]);
    expect(report.results.find((r) => r.id === "receiver.event.transaction-completed")!.reason).toBe(
      "no answer within 15 s to a validly signed transaction-completed, where the contract expects 2xx",
    );
    expect(risk("receiver.event.transaction-completed")).toBe(
      "answers after the service stops waiting: every event is delivered again, and handled more than once",
    );
  });

  it("warn, without failing, of an endpoint that refuses event types it does not know", async () => {
    const { failed, warned, risk } = await check("refuses-unknown-types");
    expect([failed, warned]).toEqual([[], ["receiver.unknown-event-type"]]);
    expect(risk("receiver.unknown-event-type")).toMatch(/^refuses event types added later/);
  });

  it("warn, without failing, of an endpoint that answers in time but slowly", async () => {
    // Past the 0.1 s the check allows: the endpoint answers once the test has moved the kit's clock 0.2 s on.
    const { failed, warned, report } = await checkSlow({ slowMs: 100 }, 200);
    expect([failed, warned]).toEqual([[], ["receiver.answer-time"]]);
    const answerTime = report.results.find((r) => r.id === "receiver.answer-time")!;
    expect([answerTime.reason, answerTime.durationMs]).toEqual(["took 0.2 s to acknowledge, more than 0.1 s", 200]);
  });
});

/** Report lines without what changes from run to run: ids, times, signatures, ports, durations. */
const stable = (lines: string[]) =>
  lines.map((line) =>
    line
      .replace(/\b(msg|ps|cp|txn)_[A-Za-z0-9_-]+/g, "$1_…")
      .replace(/ORD-[A-Za-z0-9_-]+/g, "ORD-…")
      .replace(/webhook-timestamp: \d+/g, "webhook-timestamp: …")
      .replace(/v1,[A-Za-z0-9+/=]+/g, "v1,…")
      .replace(/\d{4}-\d\d-\d\dT[\d:.]+Z/g, "…")
      .replace(/127\.0\.0\.1:\d+/g, "127.0.0.1:…")
      .replace(/\(\d+ ms\)/g, "(… ms)")
      .replace(/"amount":\d+/g, '"amount":…'),
  );

describe("what the receiver checks say", () => {
  it("name each check, required or advisory", () => {
    expect(receiverChecks.map((c) => `${c.id}: ${c.name}${c.advisory ? " (advisory)" : ""}`)).toMatchSnapshot();
  });

  it.each(FLAWS.filter((f) => f !== "slow"))("against %s: each failure's reason, risk, what was sent and what came", async (flaw) => {
    const { report } = await check(flaw);
    const reported = report.results.filter((r) => r.outcome === "failed" || r.outcome === "warned");
    expect(stable(reported.flatMap(resultLines))).toMatchSnapshot();
  });

  it("as JUnit: a suite of the receiver checks, a failure with its risk and details, a warning as output", async () => {
    const { report } = await check("500-on-non-json");
    const warned = {
      id: "receiver.answer-time",
      name: "slow",
      outcome: "warned" as const,
      durationMs: 6000,
      reason: "took 6.0 s",
      risk: "r",
      details: ["came: 204"],
    };
    // A millisecond each, so that the times are the same in every run.
    const results = [...report.results.slice(0, 2), ...report.results.filter((r) => r.outcome === "failed")].map((r) => ({
      ...r,
      durationMs: 1,
    }));
    expect(stable(junit({ results: [...results, warned] }).split("\n"))).toMatchSnapshot();
  });
});

describe("the receiver checks' setup", () => {
  it("cannot run against an endpoint nobody listens on", async () => {
    const endpoint = await startFlawedEndpoint(newSigningSecret());
    await endpoint.close();
    await expect(runReceiverConformance({ url: endpoint.url, secret: newSigningSecret(), only: [] })).rejects.toThrow(
      new UnreachableTarget(`${endpoint.url} cannot be reached: Error: connect ECONNREFUSED ${new URL(endpoint.url).host}`),
    );
  });

  it("runs against an endpoint that does not answer at all, and reports each check that waited", async () => {
    const silent = createServer(() => {});
    const port = await bindPort(silent, 0, "127.0.0.1");
    const clock = new ManualClock();
    try {
      // Each wait for an answer (the probe's, the unsigned delivery's, each check's) ends as the test moves the clock past it.
      const report = await moving(
        clock,
        100,
        runReceiverConformance({
          url: `http://127.0.0.1:${port}/hooks`,
          secret: newSigningSecret(),
          timeoutMs: 100,
          only: ["receiver.event.session-created", "receiver.forged.other-secret"],
          clock,
        }),
      );
      expect(report.results.map((r) => [r.id, r.outcome, r.reason, r.risk])).toEqual([
        [
          "receiver.event.session-created",
          "failed",
          "no answer within 0.1 s to a validly signed session-created, where the contract expects 2xx",
          "answers after the service stops waiting: every event is delivered again, and handled more than once",
        ],
        [
          "receiver.forged.other-secret",
          "failed",
          "no answer within 0.1 s to a delivery signed with another secret, where the contract expects a 4xx refusal",
          "answers a forgery with 5xx, which asks the service to send it again: " +
            "every forgery is retried for days and handled again each time",
        ],
      ]);
      // Each waited for its answer the 0.1 s it allows, to the millisecond.
      expect(report.results.map((r) => r.durationMs)).toEqual([100, 100]);
    } finally {
      silent.closeAllConnections();
      silent.close();
    }
  });
});

describe("payin-conformance receiver", () => {
  const exec = promisify(execFile);
  const cli = (...args: string[]) => exec(process.execPath, [path.resolve("src/conformance/cli.ts"), "receiver", ...args]);

  it("exits 1 on a broken endpoint, with each failure's risk, what was sent and what came, and writes JUnit", async () => {
    const secret = newSigningSecret();
    const endpoint = await startFlawedEndpoint(secret, "no-timestamp-check");
    endpoints.push(endpoint);
    const junit = path.join(mkdtempSync(path.join(tmpdir(), "receiver-junit-")), "receiver.xml");
    const run = cli("--url", endpoint.url, "--secret", secret, "--junit", junit);
    const error = await run.then(
      () => undefined,
      (e: { code: number; stdout: string }) => e,
    );
    expect(error?.code).toBe(1);
    const lines = error!.stdout.split("\n");
    const at = lines.findIndex((line) => line.startsWith("✗ receiver.stale-timestamp"));
    expect(lines.slice(at + 1, at + 4)).toEqual([
      "    acknowledged a delivery signed 6 minutes ago with 204, where the contract allows 5 minutes",
      "    risk: accepts replays: anyone who recorded one genuine delivery can send it again, whenever they like",
      expect.stringMatching(/^ {4}sent: POST webhook-id: msg_\S+; webhook-timestamp: \d+; webhook-signature: v1,\S+$/),
    ]);
    expect(lines.at(-2)).toBe("23 passed, 2 failed, 0 warned (advisory), 3 skipped");
    const xml = readFileSync(junit, "utf8");
    expect(xml).toContain('<testsuite name="receiver" tests="28" failures="2" skipped="3"');
    expect(xml).toContain(
      '<failure message="acknowledged a delivery signed 6 minutes ago with 204, where the contract allows 5 minutes">risk: accepts replays',
    );
  });

  it("exits 1 on the wrong secret, saying so before the failures it causes, each of which it still lists", async () => {
    const endpoint = await startFlawedEndpoint(newSigningSecret());
    endpoints.push(endpoint);
    const error = await cli("--url", endpoint.url, "--secret", newSigningSecret()).then(
      () => undefined,
      (e: { code: number; stdout: string }) => e,
    );
    expect(error?.code).toBe(1);
    const lines = error!.stdout.split("\n");
    expect(lines.slice(0, 5)).toEqual([
      `checking ${endpoint.url}`,
      "The endpoint refused every validly signed delivery with 4xx: " +
        "the secret given with --secret is most likely not the one it verifies with.",
      "Give --secret the endpoint's own signing secret (the signing_secret POST /webhooks returned for its URL); " +
        "the failures below follow from it.",
      "",
      expect.stringMatching(/^✗ receiver\.event\.session-created /),
    ]);
    expect(lines.filter((line) => line.startsWith("✗ "))).toHaveLength(ACKNOWLEDGED.length);
    expect(lines.filter((line) => line.includes("most likely not the one"))).toHaveLength(1);
    expect(lines.at(-2)).toBe("12 passed, 11 failed, 2 warned (advisory), 3 skipped");
  });

  it("takes the secret without its whsec_ prefix, and prints each line as its check ends when the secret is right", async () => {
    const secret = newSigningSecret();
    const endpoint = await startFlawedEndpoint(secret);
    endpoints.push(endpoint);
    const { stdout } = await cli(
      "--url",
      endpoint.url,
      "--secret",
      secret.slice("whsec_".length),
      "--only",
      "receiver.event.session-created,receiver.forged.other-secret",
    );
    expect(stdout.split("\n").slice(0, 3)).toEqual([
      `checking ${endpoint.url}`,
      expect.stringMatching(/^✓ receiver\.event\.session-created /),
      expect.stringMatching(/^✓ receiver\.forged\.other-secret /),
    ]);
  });

  it.each([
    [["--secret", "whsec_AAAA"], "--url is required"],
    [["--url", "ftp://x", "--secret", "whsec_AAAA"], '--url must be an http:// or https:// URL, not "ftp://x"'],
    [["--url", "http://127.0.0.1:9"], "--secret is required"],
    [
      ["--url", "http://127.0.0.1:9", "--secret", "whsec_!"],
      "--secret must be the endpoint's signing secret: whsec_ followed by base64, " +
        "as POST /webhooks returns it (the whsec_ prefix may be left off)",
    ],
    [["--url", "http://127.0.0.1:9", "--secret", "AAA"], "--secret must be the endpoint's signing secret: whsec_ followed by base64"],
    [["--url", "http://127.0.0.1:9", "--secret", "whsec_AAAA", "--base-url", "http://127.0.0.1:9"], "--base-url and --token go together"],
    [
      ["--url", "http://127.0.0.1:9", "--secret", "whsec_AAAA", "--timeout-ms", "0"],
      '--timeout-ms must be a whole number of milliseconds, not "0"',
    ],
    [["--url", "http://127.0.0.1:9", "--secret", "whsec_AAAA", "--only", "receiver.nope"], "no check has the id receiver.nope"],
  ])("exits 2 on bad flags %j, naming what is wrong", async (args, message) => {
    await expect(cli(...args)).rejects.toMatchObject({
      code: 2,
      stderr: expect.stringContaining(`payin-conformance receiver: ${message}`),
    });
  });

  it("exits 2 when the endpoint cannot be reached", async () => {
    const endpoint = await startFlawedEndpoint(newSigningSecret());
    await endpoint.close();
    await expect(cli("--url", endpoint.url, "--secret", "whsec_AAAA")).rejects.toMatchObject({
      code: 2,
      stderr: expect.stringMatching(/^payin-conformance: http:\/\/127\.0\.0\.1:\d+\/webhooks cannot be reached: .*ECONNREFUSED/),
    });
  });
});
