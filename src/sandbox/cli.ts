#!/usr/bin/env node
// `payin-sandbox [--port N] [--host H] [--db FILE] [--settlement-delay S] [--retry-schedule S,S,…]
//   [--public-url URL] [--allow-webhook-host HOST]…`:
// serves the stateful sandbox until interrupted. PORT in the environment sets the default port. Imports nothing that needs
// node:sqlite before checking that this Node has it.
import { parseArgs } from "node:util";
import { linkBase } from "./urls.ts";

const { values } = parseArgs({
  options: {
    port: { type: "string", default: process.env.PORT ?? "4010" },
    host: { type: "string", default: "127.0.0.1" },
    db: { type: "string" },
    "settlement-delay": { type: "string" },
    "retry-schedule": { type: "string" },
    "public-url": { type: "string" },
    "allow-webhook-host": { type: "string", multiple: true },
  },
});

/** A count of seconds, or exits with a line that names the flag. */
function seconds(flag: string, value: string): number {
  const n = Number(value);
  if (value.trim() === "" || !Number.isFinite(n) || n < 0) {
    console.error(`payin-sandbox: --${flag} takes seconds (a number, 0 or more), not ${JSON.stringify(value)}`);
    process.exit(2);
  }
  return n;
}

/** The --public-url as the base of links, or exits with a line that names the flag. */
function publicUrl(value: string): string {
  try {
    return linkBase(value, "--public-url");
  } catch (error) {
    console.error(`payin-sandbox: ${(error as Error).message}`);
    process.exit(2);
  }
}

const settlementDelay = values["settlement-delay"];
const retrySchedule = values["retry-schedule"];

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
const sandbox = await startSandbox({
  port,
  host: values.host,
  ...(values.db ? { db: values.db } : {}),
  ...(values["public-url"] === undefined ? {} : { publicUrl: publicUrl(values["public-url"]) }),
  ...(values["allow-webhook-host"] === undefined ? {} : { allowWebhookHosts: values["allow-webhook-host"] }),
  ...(settlementDelay === undefined ? {} : { settlementDelaySeconds: seconds("settlement-delay", settlementDelay) }),
  // "" is no retry at all: one attempt per event.
  ...(retrySchedule === undefined ? {} : { retryScheduleSeconds: retrySchedule === "" ? [] : retrySchedule.split(",").map((s) => seconds("retry-schedule", s)) }),
}).catch((error: Error) => {
  console.error(`payin-sandbox: ${error.message}`);
  process.exit(1);
});
console.log(`Payin sandbox (stateful, ${values.db ? `database ${values.db}` : "in memory"}) listening on ${sandbox.url}`);
for (const signal of ["SIGINT", "SIGTERM"] as const)
  process.once(signal, () => void sandbox.close().then(() => process.exit(0)));
