#!/usr/bin/env node
// `payin-sandbox [flags]`: serves the stateful sandbox until interrupted (`--help` lists the
// flags). Imports nothing that needs node:sqlite before checking that this Node has it.
import { LISTEN_FLAGS, parseFlags, portOf, refuse, type Command } from "../lib/cli.ts";
import { DEFAULT_RETRY_SCHEDULE_SECONDS, DEFAULT_SETTLEMENT_DELAY_SECONDS } from "./defaults.ts";
import { linkBase } from "./urls.ts";

const command = {
  name: "payin-sandbox",
  synopsis: "[--port N] [--host H] [--db FILE] [--settlement-delay S] [--retry-schedule S,S,…] [--public-url URL] [--allow-webhook-host HOST]…",
  flags: {
    ...LISTEN_FLAGS,
    db: { type: "string", value: "FILE", shownDefault: "in memory", description: "SQLite file that keeps the state across restarts" },
    "settlement-delay": { type: "string", value: "S", shownDefault: String(DEFAULT_SETTLEMENT_DELAY_SECONDS), description: "seconds of sandbox time from a completed transaction to its settlement" },
    "retry-schedule": { type: "string", value: "S,S,…", shownDefault: DEFAULT_RETRY_SCHEDULE_SECONDS.join(","), description: 'seconds of sandbox time before each retry of a failed delivery, "" for none' },
    "public-url": { type: "string", value: "URL", description: "where the sandbox is reached, when not its own address: the origin of every payment_link" },
    "allow-webhook-host": { type: "string", value: "HOST", multiple: true, shownDefault: "none", description: "a host outside loopback that webhooks may be delivered to, * for any" },
  },
} as const satisfies Command<any>;

const { values } = parseFlags(command);

/** A count of seconds, or exits with a line that names the flag. */
function seconds(flag: string, value: string): number {
  const n = Number(value);
  if (value.trim() === "" || !Number.isFinite(n) || n < 0) refuse(command, `--${flag} takes seconds (a number, 0 or more), not ${JSON.stringify(value)}`);
  return n;
}

/** The --public-url as the base of links, or exits with a line that names the flag. */
function publicUrl(value: string): string {
  try {
    return linkBase(value, "--public-url");
  } catch (error) {
    refuse(command, (error as Error).message);
  }
}

const settlementDelay = values["settlement-delay"];
const retrySchedule = values["retry-schedule"];

const port = portOf(command, values.port);

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
  ...(settlementDelay === undefined ? {} : { settlementDelaySeconds: seconds("settlement-delay", settlementDelay) }),
  // "" is no retry at all: one attempt per event.
  ...(retrySchedule === undefined ? {} : { retryScheduleSeconds: retrySchedule === "" ? [] : retrySchedule.split(",").map((s) => seconds("retry-schedule", s)) }),
  ...(values["public-url"] === undefined ? {} : { publicUrl: publicUrl(values["public-url"]) }),
  ...(values["allow-webhook-host"] === undefined ? {} : { allowWebhookHosts: values["allow-webhook-host"] }),
}).catch((error: Error) => {
  console.error(`payin-sandbox: ${error.message}`);
  process.exit(1);
});
console.log(`Payin sandbox (stateful, ${values.db ? `database ${values.db}` : "in memory"}) listening on ${sandbox.url}`);
for (const signal of ["SIGINT", "SIGTERM"] as const)
  process.once(signal, () => void sandbox.close().then(() => process.exit(0)));
