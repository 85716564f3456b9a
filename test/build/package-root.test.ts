// packageRoot finds the folder with both a package.json and generated/, from any module below it.
import { mkdirSync, mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { pathToFileURL } from "node:url";
import { describe, expect, it } from "vitest";
import { root } from "../../scripts/lib/paths.ts";
import { packageRoot } from "../../src/package-root.ts";

const url = (...parts: string[]) => pathToFileURL(path.join(...parts)).href;

describe("packageRoot", () => {
  it("finds the repository from a module in src/ and deeper", () => {
    expect(packageRoot(url(root, "src", "mock", "server.ts"))).toBe(path.resolve(root).replace(/\/$/, ""));
  });

  it("passes a folder that has only a package.json, or only generated/, for the one that has both", () => {
    const top = mkdtempSync(path.join(tmpdir(), "payin-root-"));
    mkdirSync(path.join(top, "generated"));
    writeFileSync(path.join(top, "package.json"), "{}");
    const onlyJson = path.join(top, "a");
    mkdirSync(path.join(onlyJson, "b", "src"), { recursive: true });
    writeFileSync(path.join(onlyJson, "package.json"), "{}");
    mkdirSync(path.join(onlyJson, "b", "generated"));
    expect(packageRoot(url(onlyJson, "b", "src", "x.js"))).toBe(top);
  });

  it("says where it looked when no folder above has both", () => {
    const alone = mkdtempSync(path.join(tmpdir(), "payin-alone-"));
    expect(() => packageRoot(url(alone, "x.js"))).toThrow(`No package root above ${path.join(alone, "x.js")}`);
  });
});
