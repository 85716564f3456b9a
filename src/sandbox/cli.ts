#!/usr/bin/env node
// `payin-sandbox [--port N] [--host H] [--db FILE]`: serves the stateful sandbox until
// interrupted. PORT in the environment sets the default port. Imports nothing that needs
// node:sqlite before checking that this Node has it.
import { parseArgs } from "node:util";

const { values } = parseArgs({
  options: {
    port: { type: "string", default: process.env.PORT ?? "4010" },
    host: { type: "string", default: "127.0.0.1" },
    db: { type: "string" },
  },
});

const port = Number(values.port);
if (!Number.isInteger(port) || port < 0 || port > 65535) {
  console.error(`payin-sandbox: --port must be a port number, not ${JSON.stringify(values.port)}`);
  process.exit(2);
}

/** Whether this Node has node:sqlite without a flag (getBuiltinModule, from Node 20.16, answers undefined when not). */
function hasSqlite(): boolean {
  try {
    return process.getBuiltinModule?.("node:sqlite") !== undefined;
  } catch {
    return false;
  }
}

if (!hasSqlite()) {
  console.error(`payin-sandbox needs Node.js 22.13 or newer (for node:sqlite), and this is Node.js ${process.version}; on this Node, use payin-mock (the stateless Prism mock) instead.`);
  process.exit(1);
}

const { startSandbox } = await import("./server.ts");
const sandbox = await startSandbox({ port, host: values.host, ...(values.db ? { db: values.db } : {}) }).catch((error: Error) => {
  console.error(`payin-sandbox: ${error.message}`);
  process.exit(1);
});
console.log(`Payin sandbox (stateful, ${values.db ? `database ${values.db}` : "in memory"}) listening on ${sandbox.url}`);
for (const signal of ["SIGINT", "SIGTERM"] as const)
  process.once(signal, () => void sandbox.close().then(() => process.exit(0)));
