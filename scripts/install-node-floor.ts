// `prepare` (run by npm ci and npm install in this repository): installs the oldest Node.js the
// package supports into test/package/node-floor/, where the consumer test runs the packed package
// on it. A second copy of the `node` package beside the one npm scripts run on would fight it
// for node_modules/.bin/node, hence a folder of its own. Does nothing once it is there: every
// `npm install` here runs prepare again.
import { execFileSync } from "node:child_process";
import { existsSync } from "node:fs";
import path from "node:path";
import { floorNode, root } from "./lib/paths.ts";

if (!existsSync(floorNode))
  execFileSync("npm", ["ci", "--no-audit", "--no-fund", "--loglevel=error"], {
    cwd: path.join(root, "test", "package", "node-floor"),
    stdio: "inherit",
  });
