import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { contentHash } from "../../scripts/lib/content-hash.ts";
import { cachedStep } from "../../scripts/lib/steps.ts";

let dir: string;
beforeEach(() => {
  dir = mkdtempSync(path.join(tmpdir(), "payin-steps-"));
  mkdirSync(path.join(dir, "in", "sub"), { recursive: true });
  writeFileSync(path.join(dir, "in", "a.txt"), "a");
  writeFileSync(path.join(dir, "in", "sub", "b.txt"), "b");
  vi.spyOn(console, "log").mockImplementation(() => {});
});
afterEach(() => {
  vi.restoreAllMocks();
  rmSync(dir, { recursive: true, force: true });
});

describe("contentHash", () => {
  it("changes with a file's content or name, and with a missing entry, not with a rewrite of the same bytes", () => {
    const first = contentHash(dir, ["in"]);
    writeFileSync(path.join(dir, "in", "a.txt"), "a");
    expect(contentHash(dir, ["in"])).toBe(first);
    writeFileSync(path.join(dir, "in", "a.txt"), "A");
    expect(contentHash(dir, ["in"])).not.toBe(first);
    expect(contentHash(dir, ["in", "gone"])).not.toBe(contentHash(dir, ["in"]));
  });
});

describe("cachedStep", () => {
  const stamps = () => path.join(dir, "stamps");
  let runs = 0;
  const step = (fail = false) => ({
    name: "make out/",
    inputs: ["in"],
    outputs: ["out"],
    run: () => {
      runs++;
      if (fail) throw new Error("broken");
      mkdirSync(path.join(dir, "out"), { recursive: true });
      writeFileSync(path.join(dir, "out", "made.txt"), "made");
    },
  });
  beforeEach(() => (runs = 0));

  it("runs once, then skips while inputs and outputs are as it left them", async () => {
    await cachedStep(dir, stamps(), step());
    await cachedStep(dir, stamps(), step());
    expect(runs).toBe(1);
  });

  it("runs again when an input changes or an output goes missing", async () => {
    await cachedStep(dir, stamps(), step());
    writeFileSync(path.join(dir, "in", "sub", "b.txt"), "changed");
    await cachedStep(dir, stamps(), step());
    rmSync(path.join(dir, "out"), { recursive: true });
    await cachedStep(dir, stamps(), step());
    expect(runs).toBe(3);
  });

  it("does not record a failed run, so the next one tries again", async () => {
    await expect(cachedStep(dir, stamps(), step(true))).rejects.toThrow("broken");
    await cachedStep(dir, stamps(), step());
    expect(runs).toBe(2);
  });
});
