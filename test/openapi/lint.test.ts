import { spawnSync } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { bin, root } from "../../scripts/lib/paths.ts";
import { toolEnv } from "../../scripts/lib/tool-env.ts";

// Each CLI runs as package.json's lint scripts run it: without telemetry or update checks.
const run = (cmd: string, args: string[]) => {
  const r = spawnSync(bin(cmd), args, { cwd: root, encoding: "utf8", env: toolEnv() });
  return { status: r.status, output: `${r.stdout}\n${r.stderr}` };
};

/** The contract and the sandbox's control API, each as sources and bundle. */
const DOCUMENTS = ["openapi/openapi.yaml", "generated/openapi.yaml", "openapi/sandbox.yaml", "generated/sandbox.yaml"];

describe("the OpenAPI sources and bundles lint clean", () => {
  it("redocly: no errors, no warnings", () => {
    const { status, output } = run("redocly", ["lint", ...DOCUMENTS, "--format=stylish"]);
    expect(output).not.toMatch(/\b(warning|error)\b/i);
    expect(status, output).toBe(0);
  });

  it("spectral (house style): no problem of any severity", () => {
    const { status, output } = run("spectral", ["lint", ...DOCUMENTS, "--fail-severity=hint", "-f", "json", "--quiet"]);
    expect(JSON.parse(output.slice(output.indexOf("["), output.lastIndexOf("]") + 1))).toEqual([]);
    expect(status, output).toBe(0);
  });
});

describe("the house rules catch what they are for", () => {
  it("a component named like a JavaScript global, an unbounded request string, number or pattern", () => {
    const doc = JSON.parse(readFileSync(path.join(root, "generated", "openapi.json"), "utf8"));
    const schemas = doc.components.schemas;
    schemas.Date = schemas.CalendarDate;
    delete schemas.CalendarDate.maxLength;
    delete schemas.Amount.maximum;
    schemas.Currency.pattern = "^[A-Z]+$";
    const dir = mkdtempSync(path.join(tmpdir(), "payin-lint-"));
    try {
      writeFileSync(path.join(dir, "openapi.json"), JSON.stringify(doc));
      const { output } = run("spectral", [
        "lint",
        path.join(dir, "openapi.json"),
        "-r",
        path.join(root, ".spectral.yaml"),
        "-f",
        "json",
        "--quiet",
      ]);
      const found = JSON.parse(output.slice(output.indexOf("["), output.lastIndexOf("]") + 1)).map(
        (r: any) => `${r.code} ${r.path.join(".")}`,
      );
      // Each rule reports a schema and some of its keywords: compare the schemas reported.
      const schemasFound = new Set(
        found.filter((f: string) => f.startsWith("payin-")).map((f: string) => f.split(".").slice(0, 3).join(".")),
      );
      expect([...schemasFound].sort()).toEqual([
        "payin-no-global-names components.schemas.Date",
        "payin-request-bounds components.schemas.Amount",
        "payin-request-bounds components.schemas.CalendarDate",
        "payin-request-bounds components.schemas.Currency",
      ]);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});

describe("the AsyncAPI source and bundle validate and lint clean", () => {
  it.each(["asyncapi/asyncapi.yaml", "generated/asyncapi.yaml"])("asyncapi validate %s: no diagnostics of any severity", (file) => {
    const r = spawnSync(bin("asyncapi"), ["validate", file, "--fail-severity=hint"], { cwd: root, encoding: "utf8", env: toolEnv() });
    expect(r.stdout).toContain("don't have governance issues");
    expect(r.status, `${r.stdout}\n${r.stderr}`).toBe(0);
  });
});
