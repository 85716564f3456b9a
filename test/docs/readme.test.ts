// README.md is the package's front door, on npm and in the repository: what a newcomer needs
// first, and links to the guides for the rest.
import { readFileSync } from "node:fs";
import path from "node:path";
import { expect, it } from "vitest";
import { root } from "../../scripts/lib/paths.ts";

it("README.md is at most 200 lines", () => {
  expect(readFileSync(path.join(root, "README.md"), "utf8").trimEnd().split("\n").length).toBeLessThanOrEqual(200);
});
