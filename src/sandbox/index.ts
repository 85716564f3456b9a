// `payin-acceptance-contract/sandbox`: start the stateful sandbox in process, for a test's setup.
// The sandbox keeps its state with node:sqlite, which an older Node refuses with a loader error:
// the entry point checks the Node first and loads the sandbox only then.
import { requireNode } from "../lib/node-floor.ts";
import type { RunningSandbox } from "./edge/server.ts";
import { loadQuietly } from "./load-quietly.ts";
import type { SandboxOptions } from "./runtime/options.ts";

export type { RunningSandbox } from "./edge/server.ts";
export type { SandboxOptions } from "./runtime/options.ts";
export type { Clock } from "../lib/clock.ts";
export { UnsupportedNodeError } from "../lib/node-floor.ts";
/** Paths, bodies and answers of the control API under `/_sandbox/v1/`. */
export type { paths as SandboxPaths, components as SandboxComponents } from "../../generated/sandbox.ts";

/**
 * Starts the sandbox and resolves once it listens. Rejects with `UnsupportedNodeError` on a
 * Node older than 22.13, the first with node:sqlite unflagged.
 */
export async function startSandbox(options: SandboxOptions = {}): Promise<RunningSandbox> {
  requireNode("startSandbox()");
  const server = await loadQuietly(() => import("./edge/server.ts"));
  return server.startSandbox(options);
}
