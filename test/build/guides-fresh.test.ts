// The conformance guide's tables of checks, written into its Markdown by `npm run build` (the
// installed package has no docs site to fill them in), are what today's checks make.
import { execFileSync } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { guidesDir } from "../../scripts/docs/pages.ts";
import { root } from "../../scripts/lib/paths.ts";

const guide = path.join(root, guidesDir, "conformance.md");
const out = mkdtempSync(path.join(tmpdir(), "payin-guides-"));
afterAll(() => rmSync(out, { recursive: true, force: true }));

describe("the conformance guide's tables of checks", () => {
  // Read before the build runs: a build that wrote the committed guide could not pass it otherwise.
  const committed = readFileSync(guide, "utf8");
  execFileSync(process.execPath, [path.join(root, "scripts", "build-guides.ts"), "--out", out], { stdio: "pipe" });

  it("are what the build writes from today's checks (run `npm run build` and commit)", () => {
    expect(committed).toBe(readFileSync(path.join(out, "conformance.md"), "utf8"));
  });

  it("are built into --out without touching the committed guide", () => {
    expect(readFileSync(guide, "utf8")).toBe(committed);
  });
});
