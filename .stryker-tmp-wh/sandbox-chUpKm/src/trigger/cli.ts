#!/usr/bin/env node
// @ts-nocheck
// `payin-trigger <event|flow> --url URL --secret whsec_… [--attempts N] [--backoff-ms MS]`:
// sends signed events to a merchant endpoint, like `stripe trigger`.
import { readFileSync } from "node:fs";
import path from "node:path";
import { parseArgs } from "node:util";
import { EVENT_TYPES } from "../../generated/events.ts";
import { packageRoot } from "../package-root.ts";
import { deliver } from "./deliver.ts";
import { buildFlow, eventTypesOf, examplesFrom, FLOWS } from "./flows.ts";

const usage = `usage: payin-trigger <event|flow> --url <merchant endpoint> --secret <whsec_…> [--attempts N] [--backoff-ms MS]
flows:  ${Object.entries(FLOWS).map(([name, types]) => `${name} (${types.join(" → ")})`).join("\n        ")}
events: ${EVENT_TYPES.join(", ")}`;

function fail(message: string): never {
  console.error(`payin-trigger: ${message}\n${usage}`);
  process.exit(2);
}

let parsed;
try {
  parsed = parseArgs({
    allowPositionals: true,
    options: {
      url: { type: "string" },
      secret: { type: "string" },
      attempts: { type: "string", default: "4" },
      "backoff-ms": { type: "string", default: "1000" },
    },
  });
} catch (error) {
  fail((error as Error).message);
}
const { positionals, values } = parsed;
if (positionals.length !== 1) fail("name exactly one event or flow");
const types = eventTypesOf(positionals[0]!) ?? fail(`${JSON.stringify(positionals[0])} is neither an event nor a flow`);
if (!values.url || !URL.canParse(values.url)) fail("--url must be the absolute URL of the merchant endpoint");
if (!values.secret?.startsWith("whsec_")) fail("--secret must be the whsec_ signing secret");
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
