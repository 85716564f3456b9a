// The payin flows (arazzo/payin.arazzo.yaml), run by Redocly's respect through the kit's
// runFlows: green against the sandbox, each workflow in its own account; only the workflows of
// the six operations without the control API; the one a stateless mock can take against the
// mock; and red, workflow by workflow, against each fault the broken fronts inject.
import { readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { execFile } from "node:child_process";
import path from "node:path";
import { promisify } from "node:util";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { runFlows, type FlowsReport } from "../../src/conformance/index.ts";
import { startMock } from "../../src/mock/server.ts";
import { startSandbox, type RunningSandbox } from "../../src/sandbox/index.ts";
import { FAULTS } from "./faults.ts";
import { startFaultyFront } from "./faulty-front.ts";

const flows = JSON.parse(readFileSync("generated/payin.arazzo.json", "utf8")) as { workflows: Array<{ workflowId: string }> };
const ids = flows.workflows.map((w) => w.workflowId);
/** The workflows that act as the customer or move the clock: only the sandbox's control API can. */
const CONTROL = ["customer-pays", "payment-fails", "session-expires"];

let sandbox: RunningSandbox;
beforeAll(async () => {
  sandbox = await startSandbox({ port: 0 });
});
afterAll(() => sandbox.close());

const outcomes = (report: FlowsReport) => Object.fromEntries(report.results.map((r) => [r.id.replace(/^flows\./, ""), r.outcome]));
const failedOf = (report: FlowsReport) => report.results.filter((r) => r.outcome === "failed").map((r) => r.id.replace(/^flows\./, ""));

describe("the payin flows", () => {
  it("run green against the sandbox, each workflow in an account of its own", async () => {
    const reports = await Promise.all(
      ids.map((id) => runFlows({ baseUrl: sandbox.url, token: `flows-${id}-${crypto.randomUUID()}`, control: true, only: [id] })),
    );
    for (const report of reports) expect(report.results.filter((r) => r.outcome !== "passed")).toEqual([]);
    expect(reports.map((r) => r.results[0]!.id)).toEqual(ids.map((id) => `flows.${id}`));
  });

  it("without the control API, run only the workflows of the six operations and skip the rest, saying why", async () => {
    const report = await runFlows({ baseUrl: sandbox.url, token: `flows-${crypto.randomUUID()}` });
    expect(outcomes(report)).toEqual(Object.fromEntries(ids.map((id) => [id, CONTROL.includes(id) ? "skipped" : "passed"])));
    expect(report.results.find((r) => r.outcome === "skipped")!.reason).toMatch(/--control/);
  });

  it("against the stateless mock, pass start-checkout; the rest need state the mock does not keep", async () => {
    const mock = await startMock({ port: 0 });
    try {
      const report = await runFlows({ baseUrl: mock.url, token: "mock", only: ["start-checkout", "counterparty-unique"] });
      expect(outcomes(report)).toEqual({ "start-checkout": "passed", "counterparty-unique": "failed" });
    } finally {
      await mock.close();
    }
  });

  // Side by side: each run has its own front and account on the one sandbox.
  const touching = FAULTS.filter(([, , , , touched]) => touched.length > 0);
  it.concurrent.each(touching)(
    "fail on %s: exactly the workflows it touches, each saying which step and why",
    async (name, fault, _checks, _reason, touched) => {
      const front = await startFaultyFront(sandbox.url, fault);
      try {
        const report = await runFlows({ baseUrl: front.url, token: `broken-${crypto.randomUUID()}`, control: true });
        expect(failedOf(report).sort()).toEqual([...touched].sort());
        for (const failed of report.results.filter((r) => r.outcome === "failed"))
          expect(failed.reason).toMatch(/^step [\w-]+( › step [\w-]+)* \((GET|POST) \/\S*\): (success criteria|schema|status code) check/);
        if (name.startsWith("an event signed with another secret"))
          expect(report.results.flatMap((r) => r.details ?? [])).toContainEqual(
            expect.stringMatching(/^receiver: refused msg_\S+: .*signature/i),
          );
      } finally {
        await front.close();
      }
    },
  );

  it("pass through a front with no fault: the faults, not the front, fail the runs above", async () => {
    const front = await startFaultyFront(sandbox.url, {});
    try {
      const report = await runFlows({ baseUrl: front.url, token: `front-${crypto.randomUUID()}`, control: true });
      expect(failedOf(report)).toEqual([]);
    } finally {
      await front.close();
    }
  });

  // Exit 0 with every workflow passed: the package's tests run the installed command so.
  it("exit 1 from `payin-conformance flows` when a workflow fails, with JUnit", async () => {
    const cli = path.resolve("src/conformance/cli.ts");
    const run = (...args: string[]) => promisify(execFile)(process.execPath, [cli, "flows", ...args]);
    const front = await startFaultyFront(sandbox.url, FAULTS.find(([name]) => name.startsWith("a duplicate customer"))![1]);
    try {
      const report = path.join(tmpdir(), `flows-${crypto.randomUUID()}.xml`);
      await expect(run("--base-url", front.url, "--token", "t", "--only", "counterparty-unique", "--junit", report)).rejects.toMatchObject({
        code: 1,
        stdout: expect.stringMatching(/✗ flows\.counterparty-unique[\s\S]*0 passed, 1 failed, 0 skipped/),
      });
      expect(readFileSync(report, "utf8")).toMatch(
        /<testcase classname="payin-conformance\.flows" name="flows\.counterparty-unique: [^"]+"[^>]*>\s*<failure/,
      );
      rmSync(report);
    } finally {
      await front.close();
    }
  });

  it("exit 2 from `payin-conformance flows` when the target cannot be reached, naming it", async () => {
    const run = promisify(execFile)(process.execPath, [
      path.resolve("src/conformance/cli.ts"),
      "flows",
      "--base-url",
      "http://127.0.0.1:9",
      "--token",
      "t",
    ]);
    await expect(run).rejects.toMatchObject({
      code: 2,
      stderr: expect.stringMatching(/^payin-conformance: http:\/\/127\.0\.0\.1:9 cannot be reached/),
    });
  });
});
