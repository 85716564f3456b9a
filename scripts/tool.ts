// `node scripts/tool.ts <cli> [args…]`: runs a CLI of node_modules/.bin in the environment the
// project's tools run in (scripts/lib/tool-env.ts: no telemetry, no update checks), as
// package.json's lint scripts do. Exits as the CLI did.
import { spawnSync } from "node:child_process";
import { bin } from "./lib/paths.ts";
import { toolEnv } from "./lib/tool-env.ts";

const [cli, ...args] = process.argv.slice(2);
if (!cli) {
  console.error("usage: node scripts/tool.ts <cli> [args…]");
  process.exit(2);
}
const result = spawnSync(bin(cli), args, { stdio: "inherit", env: toolEnv() });
if (result.error) throw result.error;
if (result.signal) process.kill(process.pid, result.signal);
process.exit(result.status ?? 1);
