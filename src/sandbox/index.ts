// `payin-acceptance-contract/sandbox`: start the stateful sandbox in process, for a test's setup.
// Needs Node 22.13 or newer (node:sqlite).
export { startSandbox } from "./server.ts";
export type { RunningSandbox, SandboxOptions } from "./server.ts";
