#!/usr/bin/env node
// `payin-mock [flags]`: serves the contract's mock until interrupted (`--help` lists the flags).
import module from "node:module";
import { failedToStart, LISTEN_FLAGS, parseFlags, portOf, type Command } from "../lib/cli.ts";

const command = {
  name: "payin-mock",
  synopsis: "[--port N] [--host H] [--document FILE.json] [--verbose]",
  flags: {
    ...LISTEN_FLAGS,
    document: {
      type: "string",
      value: "FILE.json",
      shownDefault: "this package's generated/openapi.json",
      description: "the bundled OpenAPI document to mock",
    },
    verbose: { type: "boolean", default: false, description: "print Prism's log: routing, negotiation, each validation finding" },
  },
} as const satisfies Command<any>;

const { values } = parseFlags(command);
const port = portOf(command, values.port);

// Prism is some thousand modules; Node's compile cache (22.1+) keeps their compiled code
// between runs and makes every start after the first faster. Older Nodes start without it.
module.enableCompileCache?.();
const { startMock } = await import("./server.ts");

const mock = await startMock({
  port,
  host: values.host,
  verbose: values.verbose,
  ...(values.document ? { document: values.document } : {}),
}).catch((error: Error) => failedToStart(command, error));
console.log(`Payin Acceptance Service mock (Prism) listening on ${mock.url}`);
module.flushCompileCache?.();
for (const signal of ["SIGINT", "SIGTERM"] as const) process.once(signal, () => void mock.close().then(() => process.exit(0)));
