#!/usr/bin/env node
// `payin-sandbox [flags]`: serves the stateful sandbox until interrupted (`--help` lists the
// flags). Loads the sandbox through its entry point, which checks the Node first. The state is
// kept in SQLite (in memory, or --db FILE), or in PostgreSQL (--database URL, or the environment's
// PAYIN_SANDBOX_DATABASE_URL), where several of these processes serve one sandbox.
import { failedToStart, LISTEN_FLAGS, parseFlags, portOf, refuse, type Command } from "../lib/cli.ts";
import { DELIVERY_TIMEOUT_MS, RETRY_SCHEDULE_SECONDS } from "../lib/contract-facts.ts";
import { DEFAULT_SETTLEMENT_DELAY_SECONDS } from "./flow/defaults.ts";
import { linkBase } from "./flow/urls.ts";
import { hostOf, isPostgresUrl } from "./store/location.ts";
import { networkList } from "../lib/networks.ts";

const command = {
  name: "payin-sandbox",
  synopsis:
    "[--port N] [--host H] [--db FILE | --database URL] [--settlement-delay S] [--retry-schedule S,S,…] [--delivery-timeout S] " +
    "[--public-url URL] [--allow-webhook-host HOST]… [--allow-webhook-network CIDR]… [--retention DURATION] [--drain S] " +
    "[--rate-limit N] [--min-token-length N] [--accounts open|issued] [--trusted-proxy CIDR]…\n" +
    "       payin-sandbox accounts create|list|revoke …  (--help there)\n" +
    "       payin-sandbox health [--url URL] [--wait S]  (whether a running sandbox serves: exit 0 when it does)",
  flags: {
    ...LISTEN_FLAGS,
    db: { type: "string", value: "FILE", shownDefault: "in memory", description: "SQLite file that keeps the state across restarts" },
    database: {
      type: "string",
      value: "URL",
      shownDefault: "$PAYIN_SANDBOX_DATABASE_URL",
      description: "PostgreSQL (postgres://…) that keeps the state, shared by every sandbox process started on it",
    },
    "settlement-delay": {
      type: "string",
      value: "S",
      shownDefault: String(DEFAULT_SETTLEMENT_DELAY_SECONDS),
      description: "seconds of sandbox time from a completed transaction to its settlement",
    },
    "retry-schedule": {
      type: "string",
      value: "S,S,…",
      shownDefault: RETRY_SCHEDULE_SECONDS.join(","),
      description: 'seconds of sandbox time before each retry of a failed delivery, "" for none',
    },
    "delivery-timeout": {
      type: "string",
      value: "S",
      shownDefault: String(DELIVERY_TIMEOUT_MS / 1000),
      description: "seconds a webhook receiver has to answer an attempt",
    },
    "public-url": {
      type: "string",
      value: "URL",
      description: "where the sandbox is reached, when not its own address: the origin of every payment_link",
    },
    "allow-webhook-host": {
      type: "string",
      value: "HOST",
      multiple: true,
      shownDefault: "none",
      description: "a host outside loopback that webhooks may be delivered to, * for any",
    },
    "allow-webhook-network": {
      type: "string",
      value: "CIDR",
      multiple: true,
      shownDefault: "none",
      description: "with --allow-webhook-host, a network of this one (10.1.0.0/16) that deliveries may still reach",
    },
    "rate-limit": {
      type: "string",
      value: "N",
      shownDefault: "none",
      description: "requests a second each token may make to this process (a burst of N at once); beyond, 429 with Retry-After",
    },
    accounts: {
      type: "string",
      value: "open|issued",
      default: "open",
      description: "open: any bearer token is an account; issued: only those of payin-sandbox accounts create",
    },
    "min-token-length": {
      type: "string",
      value: "N",
      shownDefault: "any",
      description: "the shortest bearer token taken; a shorter one gets 401 naming the minimum",
    },
    "trusted-proxy": {
      type: "string",
      value: "CIDR",
      multiple: true,
      shownDefault: "none",
      description: "a load balancer's network (10.0.0.0/8) whose X-Forwarded-For names the client a limit counts",
    },
    drain: {
      type: "string",
      value: "S",
      shownDefault: "0",
      description: "seconds between SIGTERM and the end of serving, while /_sandbox/health answers 503 (for a load balancer)",
    },
    retention: {
      type: "string",
      value: "DURATION",
      shownDefault: "$PAYIN_SANDBOX_RETENTION or 30d",
      description: "how long an account may go without a request before it is deleted (units s, m, h, d)",
    },
  },
} as const satisfies Command<any>;

// `payin-sandbox accounts …` manages the accounts a hosted sandbox issues, `payin-sandbox health` asks a
// running one whether it serves; anything else starts the sandbox.
if (process.argv[2] === "accounts") {
  await import("./accounts-cli.ts");
  process.exit();
}
if (process.argv[2] === "health") {
  await import("./health-cli.ts");
  process.exit();
}

const { values } = parseFlags(command);

/** A count of seconds, or exits with a line that names the flag. */
function seconds(flag: string, value: string): number {
  const n = Number(value);
  if (value.trim() === "" || !Number.isFinite(n) || n < 0)
    refuse(command, `--${flag} takes seconds (a number, 0 or more), not ${JSON.stringify(value)}`);
  return n;
}

/** A whole number more than 0, or exits with a line that names the flag. */
function count(flag: string, value: string): number {
  if (!/^[1-9]\d*$/.test(value.trim())) refuse(command, `--${flag} takes a whole number more than 0, not ${JSON.stringify(value)}`);
  return Number(value);
}

/** A duration such as 30d, 12h, 45m or 90s, in seconds, or exits with a line that names where it came from. */
function duration(from: string, value: string): number {
  const match = /^(\d+(?:\.\d+)?)(s|m|h|d)$/.exec(value.trim());
  const seconds = match ? Number(match[1]) * { s: 1, m: 60, h: 3600, d: 86400 }[match[2] as "s" | "m" | "h" | "d"] : 0;
  if (!(seconds > 0))
    refuse(command, `${from} takes a duration more than 0 with its unit (30d, 12h, 45m, 90s), not ${JSON.stringify(value)}`);
  return seconds;
}

/** The --accounts mode, or exits with a line that names the flag. */
function accountsOf(value: string): "open" | "issued" {
  if (value === "open" || value === "issued") return value;
  refuse(command, `--accounts takes open or issued, not ${JSON.stringify(value)}`);
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
// A flag wins over the environment: --db where the environment names a PostgreSQL database is that file.
const fromEnvironment =
  values.database === undefined && values.db === undefined ? process.env.PAYIN_SANDBOX_DATABASE_URL || undefined : undefined;
const database = values.database ?? fromEnvironment;
if (values.database !== undefined && values.db !== undefined)
  refuse(command, "--db (a SQLite file) and --database (PostgreSQL) name two stores: give one");
if (database !== undefined && !isPostgresUrl(database))
  refuse(
    command,
    `${fromEnvironment ? "PAYIN_SANDBOX_DATABASE_URL" : "--database"} takes a postgres:// URL, not ${JSON.stringify(database)}; ` +
      "a SQLite file is given with --db",
  );
const deliveryTimeout = values["delivery-timeout"];
const retention =
  values.retention !== undefined
    ? duration("--retention", values.retention)
    : process.env.PAYIN_SANDBOX_RETENTION
      ? duration("PAYIN_SANDBOX_RETENTION", process.env.PAYIN_SANDBOX_RETENTION)
      : undefined;

const networks = values["allow-webhook-network"];
const proxies = values["trusted-proxy"];
for (const [flag, cidrs] of [
  ["allow-webhook-network", networks],
  ["trusted-proxy", proxies],
] as const)
  try {
    networkList(cidrs ?? [], flag);
  } catch (error) {
    refuse(command, (error as Error).message);
  }

const { startSandbox } = await import("./index.ts");
const sandbox = await startSandbox({
  port,
  host: values.host,
  ...(values.db ? { db: values.db } : {}),
  ...(database === undefined ? {} : { database }),
  ...(deliveryTimeout === undefined ? {} : { deliveryTimeoutMs: seconds("delivery-timeout", deliveryTimeout) * 1000 }),
  ...(settlementDelay === undefined ? {} : { settlementDelaySeconds: seconds("settlement-delay", settlementDelay) }),
  // "" is no retry at all: one attempt per event.
  ...(retrySchedule === undefined
    ? {}
    : { retryScheduleSeconds: retrySchedule === "" ? [] : retrySchedule.split(",").map((s) => seconds("retry-schedule", s)) }),
  ...(values["public-url"] === undefined ? {} : { publicUrl: publicUrl(values["public-url"]) }),
  ...(values["allow-webhook-host"] === undefined ? {} : { allowWebhookHosts: values["allow-webhook-host"] }),
  ...(networks === undefined ? {} : { allowWebhookNetworks: networks }),
  ...(proxies === undefined ? {} : { trustedProxies: proxies }),
  ...(retention === undefined ? {} : { retentionSeconds: retention }),
  ...(values.drain === undefined ? {} : { drainSeconds: seconds("drain", values.drain) }),
  ...(values["rate-limit"] === undefined ? {} : { rateLimitPerSecond: count("rate-limit", values["rate-limit"]) }),
  ...(values["min-token-length"] === undefined ? {} : { minTokenLength: count("min-token-length", values["min-token-length"]) }),
  accounts: accountsOf(values.accounts),
}).catch((error: Error) => failedToStart(command, error));
const kept = database ? `PostgreSQL at ${hostOf(database)}` : values.db ? `database ${values.db}` : "in memory";
console.log(`Payin sandbox (stateful, ${kept}) listening on ${sandbox.url}`);
console.log(`dashboard: ${sandbox.url}/_sandbox/dashboard (sign in with a token your tests use)`);
for (const signal of ["SIGINT", "SIGTERM"] as const) process.once(signal, () => void sandbox.close().then(() => process.exit(0)));
