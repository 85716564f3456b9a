#!/usr/bin/env node
// `payin-mock [--port N] [--host H] [--document FILE.json] [--verbose]`: serves the contract's mock
// until interrupted. PORT in the environment sets the default port.
import module from "node:module";
import { parseArgs } from "node:util";

// Prism is some thousand modules; Node's compile cache (22.1+) keeps their compiled code
// between runs and makes every start after the first faster. Older Nodes start without it.
module.enableCompileCache?.();
const { startMock } = await import("./server.ts");

const { values } = parseArgs({
  options: {
    port: { type: "string", default: process.env.PORT ?? "4010" },
    host: { type: "string", default: "127.0.0.1" },
    document: { type: "string" },
    verbose: { type: "boolean", default: false },
  },
});

const port = Number(values.port);
if (!Number.isInteger(port) || port < 0 || port > 65535) {
  console.error(`payin-mock: --port must be a port number, not ${JSON.stringify(values.port)}`);
  process.exit(2);
}

const mock = await startMock({ port, host: values.host, verbose: values.verbose, ...(values.document ? { document: values.document } : {}) }).catch(
  (error: Error) => {
    console.error(`payin-mock: ${error.message}`);
    process.exit(1);
  },
);
console.log(`Payin Acceptance Service mock (Prism) listening on ${mock.url}`);
module.flushCompileCache?.();
for (const signal of ["SIGINT", "SIGTERM"] as const)
  process.once(signal, () => void mock.close().then(() => process.exit(0)));
