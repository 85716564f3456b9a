// The conformance kit's checks, run by the contract suite against its target (the mock, the
// sandbox, or the server PAYIN_BASE_URL names): the one set of checks of what a server answers
// and sends, written once in src/conformance/. A check the target cannot take is skipped here too.
import { beforeAll, describe, expect, it } from "vitest";
import { runConformance, serviceChecks, type ConformanceReport } from "../../src/conformance/index.ts";
import { baseUrl, onSandbox, token } from "./support/target.ts";

let report: ConformanceReport;
beforeAll(async () => {
  // The sandbox serves the control API; the seed is fixed so a failure replays (PAYIN_SEED to vary it).
  report = await runConformance({ baseUrl, token, control: onSandbox, seed: Number(process.env.PAYIN_SEED ?? 1) });
});

describe("the conformance checks", () => {
  for (const check of serviceChecks)
    it(`${check.id}: ${check.name}`, (context) => {
      const result = report.results.find((r) => r.id === check.id)!;
      if (result.outcome === "skipped") context.skip(result.reason);
      expect(result.outcome, [result.reason, ...(result.details ?? [])].join("\n")).toBe("passed");
    });
});
