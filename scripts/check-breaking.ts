// `npm run check:breaking`: compares the built documents with those of the last release
// (openapi/last-release.json, asyncapi/last-release.json) and fails on a breaking change
// that the version does not announce with a new major. `--mark-release` makes the current
// documents the last release (run it when publishing).
import { copyFileSync, readFileSync } from "node:fs";
import path from "node:path";
import { parseArgs } from "node:util";
import { asyncapiBreakingChanges, describe, openapiBreakingChanges } from "./lib/breaking-changes.ts";
import { generatedDir, root } from "./lib/paths.ts";

const { values } = parseArgs({ options: { "mark-release": { type: "boolean", default: false } } });
const released = { openapi: path.join(root, "openapi", "last-release.json"), asyncapi: path.join(root, "asyncapi", "last-release.json") };
const current = { openapi: path.join(generatedDir, "openapi.json"), asyncapi: path.join(generatedDir, "asyncapi.json") };

if (values["mark-release"]) {
  copyFileSync(current.openapi, released.openapi);
  copyFileSync(current.asyncapi, released.asyncapi);
  console.log("The current documents are now the last release.");
  process.exit(0);
}

const read = (file: string) => JSON.parse(readFileSync(file, "utf8"));
const before = { openapi: read(released.openapi), asyncapi: read(released.asyncapi) };
const after = { openapi: read(current.openapi), asyncapi: read(current.asyncapi) };
const changes = [
  ...(await openapiBreakingChanges(before.openapi, after.openapi)),
  ...(await asyncapiBreakingChanges(before.asyncapi, after.asyncapi)),
];

const major = (version: string) => Number(version.split(".")[0]);
const from = before.openapi.info.version as string;
const to = read(path.join(root, "package.json")).version as string;
if (changes.length === 0) {
  console.log(`No breaking change since ${from}.`);
} else if (major(to) > major(from)) {
  console.log(`${changes.length} breaking change(s) since ${from}, announced by the major version ${to}:`);
  for (const change of changes) console.log(`  - ${describe(change)}`);
} else {
  console.error(`${changes.length} unannounced breaking change(s) since ${from} (version ${to} is not a new major):`);
  for (const change of changes) console.error(`  - ${describe(change)}`);
  console.error("Undo them, or announce them: a new major version and a CHANGELOG entry.");
  process.exit(1);
}
