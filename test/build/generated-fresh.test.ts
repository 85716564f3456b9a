import { execFileSync } from "node:child_process";
import { mkdtempSync, readdirSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { generatedDir, root } from "../../scripts/lib/paths.ts";
import { VECTORS_FILE, VECTORS_SCHEMA_FILE } from "../../scripts/lib/webhook-vectors.ts";

// Builds into a temporary folder so that tests reading generated/ are never disturbed.
const out = mkdtempSync(path.join(tmpdir(), "payin-build-"));
afterAll(() => rmSync(out, { recursive: true, force: true }));

describe("generated/ is what the build makes from today's sources", () => {
  execFileSync(process.execPath, [path.join(root, "scripts", "build.ts"), "--out", out], { stdio: "pipe" });
  const built = readdirSync(out).sort();

  it("the build makes exactly the committed files", () => {
    // The webhook test vectors are written by a script of their own, after this one (vectors-fresh.test.ts).
    const others = [VECTORS_FILE, VECTORS_SCHEMA_FILE];
    expect(
      readdirSync(generatedDir)
        .filter((name) => !others.includes(name))
        .sort(),
    ).toEqual(built);
  });

  it.each(built)("%s is up to date (run `npm run build` and commit)", (name) => {
    expect(readFileSync(path.join(generatedDir, name), "utf8")).toBe(readFileSync(path.join(out, name), "utf8"));
  });
});
