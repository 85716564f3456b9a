// The conformance kit against the two implementations this package has: the sandbox keeps the
// whole contract (every check passes, the coverage is whole with the control API), and the
// stateless mock fails none of the checks it can take and is reported skipped for the others.
import { execFile } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { promisify } from "node:util";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { junit, resultLines, runConformance, serviceChecks, summaryLines, type ConformanceReport } from "../../src/conformance/index.ts";
import { startMock, type RunningMock } from "../../src/mock/server.ts";
import { startSandbox, type RunningSandbox } from "../../src/sandbox/index.ts";

const exec = promisify(execFile);
const cli = path.resolve("src/conformance/cli.ts");
const outcomes = (report: ConformanceReport) => Object.fromEntries(report.results.map((r) => [r.id, r.outcome]));

let sandbox: RunningSandbox;
let mock: RunningMock;
beforeAll(async () => {
  [sandbox, mock] = await Promise.all([startSandbox({ port: 0 }), startMock({ port: 0 })]);
});
afterAll(() => Promise.all([sandbox.close(), mock.close()]));

describe("payin-conformance service", () => {
  it("passes every check against the sandbox with --control, and exercises every status a request can provoke", async () => {
    const report = await runConformance({ baseUrl: sandbox.url, token: `conformance-${crypto.randomUUID()}`, control: true, seed: 1 });
    expect(report.results.filter((r) => r.outcome !== "passed")).toEqual([]);
    expect(report.results.map((r) => r.id)).toEqual(serviceChecks.map((c) => c.id));
    expect(report.coverage.filter((c) => !c.exercised)).toEqual([]);
    expect(report.coveragePercent).toBe(100);
  });

  // The engine of `payin-conformance service --control`, in process: the command's start would add most of a second to the
  // three the rate limit takes.
  it("passes every check with the control API against a sandbox that takes 50 requests a second, waiting out each 429", async () => {
    const limited = await startSandbox({ port: 0, rateLimitPerSecond: 50 });
    try {
      const token = `conformance-${crypto.randomUUID()}`;
      const report = await runConformance({ baseUrl: limited.url, token, control: true, seed: 1 });
      expect(report.results.filter((r) => r.outcome !== "passed")).toEqual([]);
      expect(report.rateLimited.requests).toBeGreaterThan(0);
      expect(summaryLines(report)).toContainEqual(
        expect.stringMatching(
          /^rate limit: \d+ requests? (was|were) answered 429 and sent again after their Retry-After, the run waiting \d+\.\d s in all$/,
        ),
      );
    } finally {
      await limited.close();
    }
  });

  it("skips what needs state or the control API against the mock, and fails nothing", async () => {
    const report = await runConformance({ baseUrl: mock.url, token: "conformance", seed: 1 });
    const byOutcome = outcomes(report);
    expect(report.counts.failed).toBe(0);
    for (const check of serviceChecks) expect(byOutcome[check.id], check.id).toBe(check.needs?.length ? "skipped" : "passed");
    expect(report.results.find((r) => r.id === "rules.idempotency")?.reason).toMatch(/does not offer state/);
    expect(report.coveragePercent).toBeLessThan(100);
  });

  it("runs only the checks asked for, and replays the same generated bodies from the same seed", async () => {
    const only = ["negative.create-counterparty"];
    const [a, b] = [
      await runConformance({ baseUrl: mock.url, token: "c", seed: 7, only }),
      await runConformance({ baseUrl: mock.url, token: "c", seed: 7, only }),
    ];
    expect(a.results.map((r) => r.id)).toEqual(only);
    expect(a.seed).toBe(7);
    expect(b.results[0]!.outcome).toBe(a.results[0]!.outcome);
  });

  it("writes JUnit XML with a suite per group and a testcase per check, failures and skips marked", async () => {
    const report = await runConformance({
      baseUrl: mock.url,
      token: "conformance",
      seed: 1,
      only: ["answers.create-counterparty", "rules.idempotency"],
    });
    const xml = junit({
      ...report,
      results: [
        ...report.results,
        {
          id: "answers.broken",
          name: "a <broken> check",
          outcome: "failed",
          durationMs: 5,
          reason: "answered 500",
          details: ["sent: POST /x"],
        },
      ],
    });
    expect(xml).toMatch(
      /^<\?xml version="1.0" encoding="UTF-8"\?>\n<testsuites name="payin-conformance" tests="3" failures="1" skipped="1">/,
    );
    expect(xml).toContain('<testsuite name="answers" tests="2" failures="1" skipped="0"');
    expect(xml).toContain('<testsuite name="rules" tests="1" failures="0" skipped="1"');
    expect(xml).toContain('name="answers.broken: a &lt;broken&gt; check"');
    expect(xml).toContain('<failure message="answered 500">sent: POST /x</failure>');
    expect(xml).toMatch(/<skipped message="the target does not offer state/);
  });
});

describe("the service report as people read it", () => {
  it("has a line per check, a failure's reason and details under it, then the coverage and the count", async () => {
    const report = await runConformance({
      baseUrl: mock.url,
      token: "conformance",
      seed: 1,
      only: ["answers.create-counterparty", "rules.idempotency"],
    });
    const [passed, skipped] = report.results.map((r) => ({ ...r, durationMs: 3.4 }));
    expect(resultLines(passed!)).toEqual([`✓ answers.create-counterparty  ${passed!.name} (3 ms)`]);
    expect(resultLines(skipped!)).toEqual([`- rules.idempotency  ${skipped!.name} (skipped)`, `    ${skipped!.reason}`]);
    expect(
      resultLines({
        id: "a.b",
        name: "c",
        outcome: "failed",
        durationMs: 1,
        reason: "answered 500",
        risk: "r",
        details: ["sent: x", "came: y"],
      }),
    ).toEqual(["✗ a.b  c (1 ms)", "    answered 500", "    risk: r", "    sent: x", "    came: y"]);
    const lines = summaryLines(report);
    expect(lines[1]).toBe(
      `coverage: ${report.coveragePercent.toFixed(0)} % of the documented statuses a request can provoke and of the event types (seed 1)`,
    );
    expect(lines).toContain("  createCounterparty     201✓ 400· 401· 409· 413· 415· 422·");
    expect(lines.find((line) => line.trimStart().startsWith("events"))).toBe(
      "  events                 session-created· transaction-created· transaction-completed· transaction-settled· " +
        "session-expired· transaction-failed· session-completed·",
    );
    expect(lines.slice(-2)).toEqual(["", "1 passed, 0 failed, 1 skipped"]);
  });
});

describe("the payin-conformance command", () => {
  it("prints a line per check, the coverage and the count, writes JUnit, and exits 0 when all that ran passed", async () => {
    const dir = mkdtempSync(path.join(tmpdir(), "payin-conformance-"));
    try {
      const file = path.join(dir, "junit.xml");
      const { stdout } = await exec(process.execPath, [
        cli,
        "service",
        "--base-url",
        mock.url,
        "--token",
        "t",
        "--seed",
        "3",
        "--junit",
        file,
      ]);
      expect(stdout).toMatch(/^✓ answers\.create-counterparty {2}create counterparty answers 201/m);
      expect(stdout).toMatch(/^- rules\.idempotency .*\(skipped\)\n {4}the target does not offer state/m);
      expect(stdout).toMatch(/coverage: \d+ % of the documented statuses a request can provoke and of the event types \(seed 3\)/);
      expect(stdout.trimEnd().split("\n").at(-1)).toMatch(/^\d+ passed, 0 failed, \d+ skipped$/);
      expect(readFileSync(file, "utf8")).toContain('<testsuites name="payin-conformance"');
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it("exits 1 when coverage falls short of --min-coverage", async () => {
    const run = exec(process.execPath, [
      cli,
      "service",
      "--base-url",
      mock.url,
      "--token",
      "t",
      "--only",
      "answers.counterparty-schema",
      "--min-coverage",
      "90",
    ]);
    await expect(run).rejects.toMatchObject({ code: 1, stdout: expect.stringMatching(/below --min-coverage 90 %/) });
  });

  it("exits 2 with one line saying how to pick another --receiver-port when its receiver's port is taken", async () => {
    const run = exec(process.execPath, [cli, "service", "--base-url", mock.url, "--token", "t", "--receiver-port", String(mock.port)]);
    await expect(run).rejects.toMatchObject({
      code: 2,
      stderr:
        `payin-conformance: port ${mock.port} on 127.0.0.1 is taken by another process; ` +
        "pick another with --receiver-port N, or --receiver-port 0 for any free port\n",
    });
  });

  it.each([
    [["service", "--token", "t"], /--base-url is required/],
    [["service", "--base-url", "http://127.0.0.1:1", "--token", "t", "--only", "no.such-check"], /no check has the id no\.such-check/],
    [["receiver-of-nothing", "--base-url", "http://127.0.0.1:1", "--token", "t"], /unknown command "receiver-of-nothing"/],
    [["service", "--base-url", "http://127.0.0.1:1", "--token", "t"], /http:\/\/127\.0\.0\.1:1 cannot be reached/],
  ])("exits 2 with one line saying why: %j", async (args, message) => {
    await expect(exec(process.execPath, [cli, ...args])).rejects.toMatchObject({ code: 2, stderr: expect.stringMatching(message) });
  });
});
