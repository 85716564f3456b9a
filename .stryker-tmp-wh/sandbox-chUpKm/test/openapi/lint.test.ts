// @ts-nocheck
import { spawnSync } from "node:child_process";
import { describe, expect, it } from "vitest";
import { bin, root } from "../../scripts/lib/paths.ts";

const run = (cmd: string, args: string[]) => {
  const r = spawnSync(bin(cmd), args, { cwd: root, encoding: "utf8" });
  return { status: r.status, output: `${r.stdout}\n${r.stderr}` };
};

describe("the OpenAPI sources and bundle lint clean", () => {
  it("redocly: no errors, no warnings", () => {
    const { status, output } = run("redocly", ["lint", "openapi/openapi.yaml", "generated/openapi.yaml", "--format=stylish"]);
    expect(output).not.toMatch(/\b(warning|error)\b/i);
    expect(status, output).toBe(0);
  });

  it("spectral (house style): no problem of any severity", () => {
    const { status, output } = run("spectral", ["lint", "openapi/openapi.yaml", "generated/openapi.yaml", "--fail-severity=hint", "-f", "json", "--quiet"]);
    expect(JSON.parse(output.slice(output.indexOf("["), output.lastIndexOf("]") + 1))).toEqual([]);
    expect(status, output).toBe(0);
  });
});

describe("the AsyncAPI source and bundle validate and lint clean", () => {
  it.each(["asyncapi/asyncapi.yaml", "generated/asyncapi.yaml"])("asyncapi validate %s: no diagnostics of any severity", (file) => {
    const r = spawnSync(bin("asyncapi"), ["validate", file, "--fail-severity=hint"], {
      cwd: root,
      encoding: "utf8",
      env: { ...process.env, CI: "true", SUPPRESS_NO_CONFIG_WARNING: "1" },
    });
    expect(r.stdout).toContain("don't have governance issues");
    expect(r.status, `${r.stdout}\n${r.stderr}`).toBe(0);
  });
});
