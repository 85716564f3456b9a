// `payin-acceptance-contract/sandbox`: start the stateful sandbox in process, for a test's setup.
// Needs Node 22.13 or newer (node:sqlite).
export { startSandbox } from "./server.ts";
export type { RunningSandbox, SandboxOptions } from "./server.ts";
/** Paths, bodies and answers of the control API under `/_sandbox/v1/`. */
export type { paths as SandboxPaths, components as SandboxComponents } from "../../generated/sandbox.ts";
