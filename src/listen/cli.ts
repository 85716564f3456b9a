#!/usr/bin/env node
// `payin-listen --base-url URL --token TOKEN --forward-to URL [--events T,…]`: a hosted sandbox's
// webhooks on this machine, like `stripe listen` (`--help` lists the flags). Prints the account's
// signing secret, then a line per delivery; Ctrl-C stops it. Exit 2 for bad flags, a sandbox it
// cannot reach or that refuses the token, or an http:// one off this machine (the token would go
// in clear) without --insecure-http; 0 once stopped. A sandbox that answers 429 or 503 at first
// (its rate limit, its database away, a load balancer with no process) is waited out and tried
// again, a line each time.
import { EVENT_TYPES } from "../../generated/event-types.ts";
import { parseFlags, refuse, type Command } from "../lib/cli.ts";
import { sendsInClear } from "./clear-text.ts";
import { listen, ListenRefused, type Listener } from "./listen.ts";

const command = {
  name: "payin-listen",
  synopsis: "--base-url URL --token TOKEN --forward-to URL [--events TYPE,…] [--insecure-http]",
  flags: {
    "base-url": { type: "string", value: "URL", description: "the sandbox (payin-sandbox, hosted or local)" },
    token: { type: "string", value: "TOKEN", description: "the bearer token of the account whose deliveries come here" },
    "forward-to": { type: "string", value: "URL", description: "the local endpoint each delivery is passed on to" },
    events: {
      type: "string",
      value: "TYPE,…",
      shownDefault: "all",
      description: "only these event types; the others are acknowledged unseen",
    },
    "insecure-http": {
      type: "boolean",
      default: false,
      description: "take an http:// --base-url that is not loopback, though the token crosses the network in clear",
    },
  },
  more: `events: ${EVENT_TYPES.join(", ")}`,
} as const satisfies Command<any>;

const { values } = parseFlags(command);
const url = (flag: "base-url" | "forward-to") => {
  const value = values[flag] ?? refuse(command, `--${flag} is required`);
  if (!URL.canParse(value) || !/^https?:$/.test(new URL(value).protocol))
    refuse(command, `--${flag} must be an http:// or https:// URL, not ${JSON.stringify(value)}`);
  return value;
};
const baseUrl = url("base-url");
const token = values.token ?? refuse(command, "--token is required");
const forwardTo = url("forward-to");
const events = values.events?.split(",").map((type) => type.trim());
const unknown = events?.filter((type) => !(EVENT_TYPES as readonly string[]).includes(type));
if (unknown?.length) refuse(command, `--events names no event type ${unknown.join(", ")}`);
const insecureHttp = values["insecure-http"];
if (sendsInClear(baseUrl) && !insecureHttp) {
  console.error(
    `payin-listen: --base-url ${baseUrl} is http:// to a host that is not loopback: the token would cross the network in clear; ` +
      "use https://, or --insecure-http to send it anyway",
  );
  process.exit(2);
}

// Ctrl-C stops it with exit 0 whenever it comes: while it still connects (a sandbox answering 503 is tried again), there
// is nothing to close.
let listener: Listener | undefined;
for (const signal of ["SIGINT", "SIGTERM"] as const) process.once(signal, () => (listener ? void listener.close() : process.exit(0)));
try {
  listener = await listen({ baseUrl, token, forwardTo, insecureHttp, ...(events ? { events } : {}) });
  await listener.done;
} catch (error) {
  if (!(error instanceof ListenRefused)) throw error;
  console.error(`payin-listen: ${error.message}`);
  process.exit(2);
}
