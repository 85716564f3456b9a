#!/usr/bin/env node
// `payin-trigger <event|flow> --url URL --secret whsec_… [--attempts N] [--backoff-ms MS]`:
// sends signed example events to a merchant endpoint, like `stripe trigger`. With `--base-url`
// and `--token` of a sandbox, a flow (or `pay|fail|expire --session ID`) runs there on real
// objects, and the sandbox delivers the events (`--help` lists the flags).
import { readFileSync } from "node:fs";
import path from "node:path";
import { EVENT_FLOWS } from "../../generated/event-flows.ts";
import { EVENT_TYPES } from "../../generated/event-types.ts";
import { parseFlags, refuse, type Command } from "../lib/cli.ts";
import { packageRoot } from "../package-root.ts";
import { secretFlagError } from "../webhooks/secret.ts";
import { deliver } from "./deliver.ts";
import { parseOverrides, SANDBOX_ACTIONS, SandboxRefused, triggerOnSandbox, type SandboxAction } from "./on-sandbox.ts";
import { buildFlow, eventTypesOf, examplesFrom } from "./flows.ts";

const command = {
  name: "payin-trigger",
  synopsis:
    "<event|flow> --url URL --secret whsec_… [--attempts N] [--backoff-ms MS]\n" +
    "       payin-trigger success|failure|expiry --base-url URL --token TOKEN [--url URL] [--override K=V,…]\n" +
    "       payin-trigger pay|fail|expire --session ID --base-url URL --token TOKEN [--url URL] [--override failure_reason=…]",
  positionals: true,
  flags: {
    url: { type: "string", value: "URL", description: "the merchant's webhook endpoint (on a sandbox: registered first)" },
    secret: { type: "string", value: "whsec_…", description: "the endpoint's signing secret" },
    attempts: { type: "string", value: "N", default: "4", description: "attempts per event until a 2xx, 1 to 10" },
    "backoff-ms": { type: "string", value: "MS", default: "1000", description: "milliseconds before the first retry, doubling after each" },
    "base-url": { type: "string", value: "URL", description: "a sandbox: the flow runs there on real objects, and it delivers the events" },
    token: { type: "string", value: "TOKEN", description: "the bearer token of the sandbox account, with --base-url" },
    session: { type: "string", value: "ID", description: "the session pay, fail and expire act on" },
    override: { type: "string", value: "K=V,…", description: "amount, currency and failure_reason of the flow's session and payment" },
  },
  more: `flows:  ${Object.entries(EVENT_FLOWS)
    .map(([name, types]) => `${name} (${types.join(" → ")})`)
    .join("\n        ")}
events: ${EVENT_TYPES.join(", ")}`,
} as const satisfies Command<any>;

function fail(message: string): never {
  return refuse(command, message);
}

const { positionals, values } = parseFlags(command);
if (positionals.length !== 1) fail("name exactly one event or flow");
if (values["base-url"] !== undefined) await onSandbox(positionals[0]!);
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

/** The sandbox mode: exits 0 when the endpoint acknowledged every event of the session, 1 when not, 2 for bad flags or a refusal. */
async function onSandbox(name: string): Promise<never> {
  if (!Object.hasOwn(SANDBOX_ACTIONS, name))
    fail(`on a sandbox, say success, failure, expiry, pay, fail or expire, not ${JSON.stringify(name)}`);
  const action = name as SandboxAction;
  const baseUrl = values["base-url"]!;
  if (!URL.canParse(baseUrl)) fail(`--base-url must be a URL, not ${JSON.stringify(baseUrl)}`);
  const token = values.token ?? fail("--token is required with --base-url");
  if (values.url !== undefined && !URL.canParse(values.url)) fail("--url must be the absolute URL of the merchant endpoint");
  if (SANDBOX_ACTIONS[action].creates === (values.session !== undefined))
    fail(
      SANDBOX_ACTIONS[action].creates
        ? `${action} makes its own session: --session is for pay, fail and expire`
        : `${action} needs --session ID`,
    );
  let overrides;
  try {
    overrides = parseOverrides(values.override ?? "");
  } catch (error) {
    fail((error as Error).message);
  }
  try {
    const { sessionId, events } = await triggerOnSandbox(action, {
      baseUrl,
      token,
      url: values.url,
      sessionId: values.session,
      overrides,
      onAttempt: (a) =>
        console.log(
          `${a.status === "succeeded" ? "✓" : "✗"} ${a.event_type.padEnd(22)} ${a.event_id}  attempt ${a.attempt}: ` +
            `${a.response_status ?? a.error ?? a.status}`,
        ),
    });
    const missed = events.filter((e) => !e.acknowledged);
    console.log(`session ${sessionId}: ${events.length - missed.length} of ${events.length} events acknowledged`);
    process.exit(missed.length > 0 || events.length === 0 ? 1 : 0);
  } catch (error) {
    if (error instanceof SandboxRefused) {
      console.error(`payin-trigger: ${error.message}`);
      process.exit(2);
    }
    if (error instanceof TypeError) {
      console.error(`payin-trigger: ${baseUrl} cannot be reached: ${(error.cause as Error | undefined)?.message ?? error.message}`);
      process.exit(2);
    }
    throw error;
  }
}
