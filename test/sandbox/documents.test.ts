// The control API stays off the contract: its own prefix, its own operations, and every
// operation of both documents served by the sandbox.
import { describe, expect, it } from "vitest";
import { operations as generatedOperations } from "../../generated/sandbox-requests.js";
import { handlers } from "../../src/sandbox/api/index.ts";
import { openapiBundle, operations } from "../support/documents.ts";
import { readFileSync } from "node:fs";
import path from "node:path";
import { generatedDir } from "../../scripts/lib/paths.ts";

const sandboxApi = JSON.parse(readFileSync(path.join(generatedDir, "sandbox.json"), "utf8"));
const contractPaths = Object.keys(openapiBundle.paths);
const sandboxPaths = Object.keys(sandboxApi.paths);

/** A concrete path that a template matches: each `{name}` becomes a plain segment. */
const concrete = (template: string) => template.replace(/\{[^}]+\}/g, "x1");
const matches = (template: string, pathname: string) =>
  new RegExp(`^${template.replace(/[.*+?^$()|[\]\\]/g, "\\$&").replace(/\{[^}]+\}/g, "[^/]+")}$`).test(pathname);

describe("the control API and the contract", () => {
  it("the control API lives under /_sandbox/v1/, a prefix no contract path uses", () => {
    expect(sandboxPaths.length).toBeGreaterThan(0);
    for (const p of sandboxPaths) expect(p).toMatch(/^\/_sandbox\/v1\//);
    for (const p of contractPaths) expect(p.startsWith("/_sandbox/")).toBe(false);
  });

  it("no path of one document is matched by a path of the other", () => {
    for (const a of contractPaths)
      for (const b of sandboxPaths) {
        expect(matches(a, concrete(b)), `${a} matches ${b}`).toBe(false);
        expect(matches(b, concrete(a)), `${b} matches ${a}`).toBe(false);
      }
  });

  it("the two documents share no operationId", () => {
    const ids = (doc: Record<string, any>) => operations(doc).map((o) => o.operation.operationId);
    const contractIds = new Set(ids(openapiBundle));
    expect(ids(sandboxApi).filter((id) => contractIds.has(id))).toEqual([]);
  });

  it("the sandbox routes every operation of both documents to a handler", () => {
    const documented = [...operations(openapiBundle), ...operations(sandboxApi)].map((o) => `${o.method.toUpperCase()} ${o.path}`).sort();
    expect(generatedOperations.map((o) => `${o.method} ${o.path}`).sort()).toEqual(documented);
    expect(Object.keys(handlers).sort()).toEqual(generatedOperations.map((o) => o.operationId).sort());
  });
});
