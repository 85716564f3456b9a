// The webhook test vectors and their schema, written into generated/ by `npm run build`
// (scripts/build-vectors.ts), are what today's signer and cases make: merchants' verifiers are
// held to the committed file.
import { execFileSync } from "node:child_process";
import { mkdtempSync, readdirSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { generatedDir, root } from "../../scripts/lib/paths.ts";
import { VECTORS_FILE, VECTORS_SCHEMA_FILE } from "../../scripts/lib/webhook-vectors.ts";

const out = mkdtempSync(path.join(tmpdir(), "payin-vectors-"));
afterAll(() => rmSync(out, { recursive: true, force: true }));

describe("the webhook test vectors in generated/", () => {
  const committed = [VECTORS_FILE, VECTORS_SCHEMA_FILE].map((name) => readFileSync(path.join(generatedDir, name), "utf8"));
  execFileSync(process.execPath, [path.join(root, "scripts", "build-vectors.ts"), "--out", out], { stdio: "pipe" });

  it("are the two files the script writes", () => {
    expect(readdirSync(out).sort()).toEqual([VECTORS_FILE, VECTORS_SCHEMA_FILE].sort());
  });

  it.each([VECTORS_FILE, VECTORS_SCHEMA_FILE].map((name, i) => [name, i] as const))(
    "%s is what the build makes today (run `npm run build` and commit)",
    (name, i) => {
      expect(committed[i]).toBe(readFileSync(path.join(out, name), "utf8"));
    },
  );
});
