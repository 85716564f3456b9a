// src/mock/prism.ts copies steps of Prism's HTTP server that its package does not export, and
// the configuration `prism mock` gives Prism's instance. The copies are of one version of Prism;
// this fails when another is installed, so that someone re-reads Prism's code before trusting them.
import { readFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { root } from "../../scripts/lib/paths.ts";
import { PRISM_VERSION } from "../../src/mock/prism.ts";

const installed = (name: string): string => JSON.parse(readFileSync(path.join(root, "node_modules", name, "package.json"), "utf8")).version;

describe("the copies of Prism's code in the mock", () => {
  it.each([
    ["@stoplight/prism-http-server", "dist/server.js"],
    ["@stoplight/prism-cli", "dist/util/createServer.js"],
  ])("are of the installed %s", (name, file) => {
    const version = installed(name);
    expect(
      version,
      `${name} is ${version}, but src/mock/prism.ts copies its code from ${PRISM_VERSION}: re-read node_modules/${name}/${file}, ` +
        `update the copies in src/mock/prism.ts to match it, then set PRISM_VERSION to ${version}`,
    ).toBe(PRISM_VERSION);
  });
});
