// The oldest Node the package supports is written in src/lib/node-floor.ts; everything else that
// names it is held to that here: package.json's engines, and the Node the package's tests run the
// packed package on as the floor (test/package/node-floor/, pinned there and in its lock, installed
// by npm ci's prepare). A floor raised in one place and not the others would test a Node the
// package no longer claims, or claim one no test runs.
import { execFileSync } from "node:child_process";
import { readFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { floorNode, root } from "../../scripts/lib/paths.ts";
import { NODE_FLOOR } from "../../src/lib/node-floor.ts";

const folder = path.join(root, "test", "package", "node-floor");
const json = (file: string) => JSON.parse(readFileSync(file, "utf8"));

describe(`the Node floor, ${NODE_FLOOR}`, () => {
  it("is what package.json's engines ask for", () => {
    expect(json(path.join(root, "package.json")).engines).toEqual({ node: `>=${NODE_FLOOR}` });
  });

  it("is the Node the floor's folder pins, in its package.json and its lock", () => {
    expect(json(path.join(folder, "package.json")).dependencies).toEqual({ node: NODE_FLOOR });
    expect(json(path.join(folder, "package-lock.json")).packages["node_modules/node"].version).toBe(NODE_FLOOR);
  });

  it("is the version of the binary the package's tests run as the floor", () => {
    expect(execFileSync(floorNode, ["--version"], { encoding: "utf8" }).trim()).toBe(`v${NODE_FLOOR}`);
  });
});
