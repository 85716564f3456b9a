// The flows document covers the interface: each of the contract's six operations is a step of
// some workflow, and each of the seven events is asserted delivered by one. Its sources are the
// bundles the package ships beside it.
import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import YAML from "yaml";
import { EVENT_TYPES } from "../../generated/event-types.ts";

const source = YAML.parse(readFileSync("arazzo/payin.arazzo.yaml", "utf8"));
const shipped = YAML.parse(readFileSync("generated/payin.arazzo.yaml", "utf8"));
const contract = JSON.parse(readFileSync("generated/openapi.json", "utf8"));

interface Step {
  stepId: string;
  operationId?: string;
  successCriteria?: Array<{ condition: string }>;
}
const steps: Step[] = source.workflows.flatMap((w: { steps: Step[] }) => w.steps);
const operationIds = Object.values(contract.paths).flatMap((item) =>
  Object.values(item as Record<string, { operationId?: string }>).flatMap((op) => (op.operationId ? [op.operationId] : [])),
);

describe("the payin flows document", () => {
  it("calls each of the contract's six operations in some workflow", () => {
    expect(operationIds).toHaveLength(6);
    const called = new Set(
      steps.flatMap((s) => (s.operationId?.startsWith("$sourceDescriptions.payin.") ? [s.operationId.split(".")[2]] : [])),
    );
    expect([...called].sort()).toEqual([...operationIds].sort());
  });

  it("asserts each of the seven events delivered and acknowledged in some workflow", () => {
    const conditions = steps.flatMap((s) => s.successCriteria ?? []).map((c) => c.condition);
    const delivered = new Set(
      conditions.flatMap((c) =>
        [...c.matchAll(/data\/(\d+)\/event_type == '([a-z-]+)' && \$response\.body#\/data\/\1\/status == 'succeeded'/g)].map((m) => m[2]),
      ),
    );
    expect(EVENT_TYPES).toHaveLength(7);
    expect([...delivered].sort()).toEqual([...EVENT_TYPES].sort());
  });

  it("is shipped with its sources named as the bundles beside it, and otherwise the same", () => {
    expect(shipped.sourceDescriptions.map((s: { url: string }) => s.url)).toEqual(["./openapi.yaml", "./sandbox.yaml"]);
    expect({ ...shipped, sourceDescriptions: undefined }).toEqual({ ...source, sourceDescriptions: undefined });
    expect(JSON.parse(readFileSync("generated/payin.arazzo.json", "utf8"))).toEqual(shipped);
  });
});
