import { execFile } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { bin, root } from "../../scripts/lib/paths.ts";
import { toolEnv } from "../../scripts/lib/tool-env.ts";

// Each CLI runs as package.json's lint scripts run it: without telemetry or update checks. The
// tests run side by side: each waits on its CLI.
const run = (cmd: string, args: string[]) =>
  new Promise<{ status: number | null; stdout: string; output: string }>((resolve) =>
    execFile(bin(cmd), args, { cwd: root, encoding: "utf8", env: toolEnv(), maxBuffer: 1 << 24 }, (error, stdout, stderr) =>
      resolve({ status: error ? (typeof error.code === "number" ? error.code : 1) : 0, stdout, output: `${stdout}\n${stderr}` }),
    ),
  );

/** The contract and the sandbox's control API, each as sources and bundle. */
const DOCUMENTS = ["openapi/openapi.yaml", "generated/openapi.yaml", "openapi/sandbox.yaml", "generated/sandbox.yaml"];

/**
 * A lint script of package.json, with `extra` arguments: the files it lints and the severity it
 * fails at are written there once, for `npm run lint` and these tests alike.
 */
const runScript = (script: string, ...extra: string[]) => run("npm", ["run", "--silent", script, "--", ...extra]);

describe("the OpenAPI sources and bundles lint clean", () => {
  it.concurrent("redocly: no errors, no warnings", async () => {
    const { status, output } = await run("redocly", ["lint", ...DOCUMENTS, "--format=stylish"]);
    expect(output).not.toMatch(/\b(warning|error)\b/i);
    expect(status, output).toBe(0);
  });

  it.concurrent("spectral (house style): no problem of any severity", async () => {
    const { status, output } = await runScript("lint:spectral", "-f", "json", "--quiet");
    expect(JSON.parse(output.slice(output.indexOf("["), output.lastIndexOf("]") + 1))).toEqual([]);
    expect(status, output).toBe(0);
  });
});

describe("the house rules catch what they are for", () => {
  it.concurrent("a component named like a JavaScript global, an unbounded request string, number or pattern", async () => {
    const doc = JSON.parse(readFileSync(path.join(root, "generated", "openapi.json"), "utf8"));
    const schemas = doc.components.schemas;
    schemas.Date = schemas.CalendarDate;
    delete schemas.CalendarDate.maxLength;
    delete schemas.Amount.maximum;
    schemas.Currency.pattern = "^[A-Z]+$";
    const dir = mkdtempSync(path.join(tmpdir(), "payin-lint-"));
    try {
      writeFileSync(path.join(dir, "openapi.json"), JSON.stringify(doc));
      const { output } = await run("spectral", [
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
  it.concurrent.each(["lint:asyncapi:source", "lint:asyncapi:bundle"])(
    "%s (asyncapi validate): no diagnostics of any severity",
    async (script) => {
      const { status, stdout, output } = await runScript(script);
      expect(stdout).toContain("don't have governance issues");
      expect(status, output).toBe(0);
    },
  );
});
