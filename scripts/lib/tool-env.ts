// The environment the project's tools run in: every CLI the scripts, the tests and package.json
// start (Redocly, the AsyncAPI CLI, Spectral, Prism, npm) gets these, so that none of them
// phones home. The tests' loopback guard (test/support/loopback-guard.mjs) fails the run when
// one does. `node scripts/tool.ts <cli> …` runs a CLI of node_modules/.bin with them.
//
// What else each tool would reach, and why it does not:
// - Spectral, Prism, Portman (given a local file), openapi-typescript, @hey-api/openapi-ts, StrykerJS, tsc, publint and attw
//   (given a tarball) have no telemetry or update check to turn off.
import path from "node:path";
import { REDOCLY_ENV } from "../../src/lib/redocly-env.ts";
import { root } from "./paths.ts";

export const TOOL_ENV: Readonly<Record<string, string>> = {
  // Redocly CLI (its switches are the package's too: `payin-conformance flows` runs it).
  ...REDOCLY_ENV,
  // AsyncAPI CLI: its usage metrics, off in a config file of ours (otherwise it reads, and first
  // creates, ~/.asyncapi-analytics), and the new-version check of its CLI framework (oclif).
  ASYNCAPI_METRICS_CONFIG_PATH: path.join(root, "scripts", "lib", "asyncapi-analytics.json"),
  ASYNCAPI_SKIP_NEW_VERSION_CHECK: "true",
  // node-config, inside the AsyncAPI CLI, warns on every run that it found no config folder.
  SUPPRESS_NO_CONFIG_WARNING: "1",
  // ... and that NODE_ENV (production, which its bin sets) names no config file of its.
  SUPPRESS_STRICTNESS_CHECK: "1",
  // npm's update notifier (it asks the registry for npm's latest version once a week).
  npm_config_update_notifier: "false",
};

/** This process's environment with the tool switches, and `extra` over both. */
export const toolEnv = (extra: Record<string, string> = {}): NodeJS.ProcessEnv => ({ ...process.env, ...TOOL_ENV, ...extra });
