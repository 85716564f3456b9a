#!/usr/bin/env node
// `payin-trigger <event|flow> --url URL --secret whsec_… [--attempts N] [--backoff-ms MS]`:
// sends signed events to a merchant endpoint, like `stripe trigger` (`--help` lists the flags).
import { readFileSync } from "node:fs";
import path from "node:path";
import { EVENT_TYPES } from "../../generated/event-types.ts";
import { parseFlags, refuse, type Command } from "../lib/cli.ts";
import { packageRoot } from "../package-root.ts";
import { secretFlagError } from "../webhooks/secret.ts";
import { deliver } from "./deliver.ts";
import { buildFlow, eventTypesOf, examplesFrom, FLOWS } from "./flows.ts";

const command = {
  name: "payin-trigger",
  synopsis: "<event|flow> --url URL --secret whsec_… [--attempts N] [--backoff-ms MS]",
  positionals: true,
  flags: {
    url: { type: "string", value: "URL", description: "the merchant's webhook endpoint" },
    secret: { type: "string", value: "whsec_…", description: "the endpoint's signing secret" },
    attempts: { type: "string", value: "N", default: "4", description: "attempts per event until a 2xx, 1 to 10" },
    "backoff-ms": { type: "string", value: "MS", default: "1000", description: "milliseconds before the first retry, doubling after each" },
  },
  more: `flows:  ${Object.entries(FLOWS)
    .map(([name, types]) => `${name} (${types.join(" → ")})`)
    .join("\n        ")}
events: ${EVENT_TYPES.join(", ")}`,
} as const satisfies Command<any>;

function fail(message: string): never {
  return refuse(command, message);
}

const { positionals, values } = parseFlags(command);
if (positionals.length !== 1) fail("name exactly one event or flow");
const types = eventTypesOf(positionals[0]!) ?? fail(`${JSON.stringify(positionals[0])} is neither an event nor a flow`);
if (!values.url || !URL.canParse(values.url)) fail("--url must be the absolute URL of the merchant endpoint");
if (values.secret === undefined) fail("--secret is required");
const secretError = secretFlagError(values.secret);
if (secretError) fail(secretError);
const attempts = Number(values.attempts);
const backoffMs = Number(values["backoff-ms"]);
if (!Number.isInteger(attempts) || attempts < 1 || attempts > 10) fail("--attempts must be a whole number from 1 to 10");
if (!Number.isFinite(backoffMs) || backoffMs < 0) fail("--backoff-ms must be a number of milliseconds");

const openapi = JSON.parse(readFileSync(path.join(packageRoot(import.meta.url), "generated", "openapi.json"), "utf8"));
const events = buildFlow(types, examplesFrom(openapi));
const reports = await deliver(events, {
  url: values.url,
  secret: values.secret,
  attempts,
  backoffMs,
  onAttempt: ({ event, attempt, status, ok, ms }) =>
    console.log(`${ok ? "✓" : "✗"} ${event.type.padEnd(22)} ${event.id}  attempt ${attempt}: ${status} (${ms} ms)`),
});
const failed = reports.filter((r) => !r.delivered);
console.log(`${reports.length - failed.length} of ${reports.length} delivered`);
process.exit(failed.length ? 1 : 0);
