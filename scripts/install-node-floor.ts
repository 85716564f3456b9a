// `prepare` (run by npm ci and npm install in this repository): installs the oldest Node.js the
// package supports into test/package/node-floor/, where the package's tests run the packed package
// on it. A second copy of the `node` package beside the one npm scripts run on would fight it
// for node_modules/.bin/node, hence a folder of its own. Does nothing once the pinned version is
// there (every `npm install` here runs prepare again); installs again when the pin has moved, as
// when the floor is raised (test/package/node-floor.test.ts holds the pin to src/lib/node-floor.ts).
import { execFileSync } from "node:child_process";
import { existsSync, readFileSync } from "node:fs";
import path from "node:path";
import { floorNode, root } from "./lib/paths.ts";

const folder = path.join(root, "test", "package", "node-floor");
const read = (file: string) => JSON.parse(readFileSync(file, "utf8"));
const pinned: string = read(path.join(folder, "package.json")).dependencies.node;
const installedManifest = path.join(folder, "node_modules", "node", "package.json");
const installed: string | undefined = existsSync(installedManifest) ? read(installedManifest).version : undefined;

if (installed !== pinned || !existsSync(floorNode))
  execFileSync("npm", ["ci", "--no-audit", "--no-fund", "--loglevel=error"], { cwd: folder, stdio: "inherit" });
