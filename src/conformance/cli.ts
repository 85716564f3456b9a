#!/usr/bin/env node
// `payin-conformance service …` checks an implementation of the service against the contract;
// `payin-conformance receiver …` checks a merchant's webhook endpoint with good and bad
// deliveries; `payin-conformance flows …` runs the payin flows (the Arazzo workflows) with
// Redocly's respect. Exit 0 when every required check passed (and, for service, coverage reached
// --min-coverage), 1 when not, 2 for bad flags or a target that cannot be reached.
import { writeFileSync } from "node:fs";
import { parseFlags, portOf, refuse, unknownFlag, usageOf, type Command } from "../lib/cli.ts";
import { PortTaken, portTakenLine } from "../lib/bind-port.ts";
import { DELIVERY_TIMEOUT_MS } from "../lib/contract-facts.ts";
import { secretFlagError } from "../webhooks/secret.ts";
import { receiverChecks } from "./checks/receiver.ts";
import type { CheckResult } from "./check.ts";
import { junit, receiverSecretLines, receiverSummaryLines, resultLines, summaryLines } from "./report.ts";
import { runReceiverConformance, SetupFailed } from "./run-receiver.ts";
import { flowWorkflows, RespectMissing, runFlows } from "./run-flows.ts";
import { runConformance, serviceChecks, UnreachableTarget } from "./run-service.ts";

const JUNIT = { type: "string", value: "FILE", description: "also write the results as JUnit XML" } as const;
const ONLY = { type: "string", value: "ID,…", description: "only the checks with these ids" } as const;
const listed = (checks: ReadonlyArray<{ id: string; name: string; advisory?: boolean }>) =>
  `checks:\n${checks.map((c) => `  ${c.id}  ${c.name}${c.advisory ? " (advisory)" : ""}`).join("\n")}`;

const service = {
  name: "payin-conformance service",
  synopsis:
    "--base-url URL --token TOKEN [--control] [--receiver-host H] [--receiver-port N] [--public-url URL] [--junit FILE] " +
    "[--min-coverage PERCENT] [--seed N] [--only ID,…]",
  flags: {
    "base-url": {
      type: "string",
      value: "URL",
      description: "the implementation under test; every request, the control API's too, goes there",
    },
    token: { type: "string", value: "TOKEN", description: "the bearer token of the account the checks use" },
    control: { type: "boolean", default: false, description: "the target also serves the sandbox's control API (simulate, clock/advance)" },
    "receiver-host": { type: "string", value: "H", default: "127.0.0.1", description: "interface of the kit's webhook receiver" },
    "receiver-port": { type: "string", value: "N", default: "0", description: "port of the kit's webhook receiver, 0 for a free one" },
    "public-url": {
      type: "string",
      value: "URL",
      description: "the URL the target delivers webhooks to, when it reaches the receiver through another address",
    },
    junit: JUNIT,
    "min-coverage": {
      type: "string",
      value: "PERCENT",
      default: "0",
      description: "fail unless the checks exercised this share of the documented statuses",
    },
    seed: { type: "string", value: "N", shownDefault: "random", description: "the seed of generated inputs, to replay a run" },
    only: ONLY,
  },
  more: listed(serviceChecks),
} as const satisfies Command<any>;

const receiver = {
  name: "payin-conformance receiver",
  synopsis: "--url URL --secret whsec_… [--base-url URL --token TOKEN] [--timeout-ms MS] [--junit FILE] [--only ID,…]",
  flags: {
    url: { type: "string", value: "URL", description: "the merchant's webhook endpoint" },
    secret: { type: "string", value: "whsec_…", description: "the endpoint's signing secret" },
    "base-url": {
      type: "string",
      value: "URL",
      description:
        "the sandbox the endpoint fetches transactions from: the events then name payments the checks make there, " +
        "and delete when they end",
    },
    token: { type: "string", value: "TOKEN", description: "the bearer token of that account, with --base-url" },
    "timeout-ms": {
      type: "string",
      value: "MS",
      default: String(DELIVERY_TIMEOUT_MS),
      description: "how long a delivery waits for its answer, as the service does",
    },
    junit: JUNIT,
    only: ONLY,
  },
  more: listed(receiverChecks),
} as const satisfies Command<any>;

const workflows = await flowWorkflows();

const flows = {
  name: "payin-conformance flows",
  synopsis:
    "--base-url URL --token TOKEN [--control] [--receiver-host H] [--receiver-port N] [--public-url URL] [--junit FILE] [--only ID,…]",
  flags: {
    "base-url": service.flags["base-url"],
    token: { type: "string", value: "TOKEN", description: "the bearer token of the account the workflows act in" },
    control: {
      type: "boolean",
      default: false,
      description: "the target also serves the sandbox's control API: run the workflows that pay, fail and expire sessions too",
    },
    "receiver-host": service.flags["receiver-host"],
    "receiver-port": service.flags["receiver-port"],
    "public-url": {
      type: "string",
      value: "URL",
      description: "the https:// URL the target delivers webhooks to, when it does not take the receiver's own loopback one",
    },
    junit: JUNIT,
    only: { type: "string", value: "ID,…", description: "only the workflows with these ids" },
  },
  more: `workflows (generated/payin.arazzo.yaml; Redocly's respect runs them, @redocly/cli must be installed):\n${workflows
    .map((w) => `  ${w.workflowId}  ${w.summary}`)
    .join("\n")}`,
} as const satisfies Command<any>;

const top = {
  name: "payin-conformance",
  synopsis: "service|receiver|flows [flags]   (payin-conformance service --help, … receiver --help, … flows --help)",
  flags: {},
  positionals: true,
  more: `${usageOf(service)}\n\n${usageOf(receiver)}\n\n${usageOf(flows)}`,
} as const satisfies Command<any>;

/** The --only ids, each known, or exits naming the first unknown. */
function onlyOf(command: Command<any>, value: string | undefined, checks: ReadonlyArray<{ id: string }>): string[] | undefined {
  const only = value?.split(",").map((id) => id.trim());
  const unknown = only?.filter((id) => !checks.some((c) => c.id === id));
  if (unknown?.length) refuse(command, `no check has the id ${unknown.join(", ")}`);
  return only;
}

const printResult = (result: CheckResult) => console.log(resultLines(result).join("\n"));

/**
 * Runs a check of something that may not be there: exit 2 when it cannot be reached or set up, or the kit's receiver
 * cannot listen where asked.
 */
async function orExit2(run: () => Promise<void>): Promise<void> {
  try {
    await run();
  } catch (error) {
    if (error instanceof PortTaken) {
      console.error(`payin-conformance: ${portTakenLine(error, (n) => `--receiver-port ${n}`)}`);
      process.exit(2);
    }
    if (!(error instanceof UnreachableTarget || error instanceof SetupFailed || error instanceof RespectMissing)) throw error;
    console.error(`payin-conformance: ${error.message}`);
    process.exit(2);
  }
}

async function checkService(args: string[]) {
  const { values } = parseFlags(service, args);
  const baseUrl = values["base-url"] ?? refuse(service, "--base-url is required");
  if (!URL.canParse(baseUrl)) refuse(service, `--base-url must be a URL, not ${JSON.stringify(baseUrl)}`);
  const token = values.token ?? refuse(service, "--token is required");
  const minCoverage = Number(values["min-coverage"]);
  if (!(minCoverage >= 0 && minCoverage <= 100))
    refuse(service, `--min-coverage must be a percentage, not ${JSON.stringify(values["min-coverage"])}`);
  const seed = values.seed === undefined ? undefined : Number(values.seed);
  if (seed !== undefined && !Number.isInteger(seed)) refuse(service, `--seed must be an integer, not ${JSON.stringify(values.seed)}`);
  const only = onlyOf(service, values.only, serviceChecks);
  await orExit2(async () => {
    const report = await runConformance({
      baseUrl,
      token,
      control: values.control,
      receiverHost: values["receiver-host"],
      receiverPort: portOf(service, values["receiver-port"]),
      publicUrl: values["public-url"],
      seed,
      only,
      onResult: printResult,
    });
    console.log(summaryLines(report).join("\n"));
    if (values.junit) writeFileSync(values.junit, junit(report));
    const short = report.coveragePercent < minCoverage;
    if (short) console.log(`coverage ${report.coveragePercent.toFixed(0)} % is below --min-coverage ${minCoverage} %`);
    process.exit(report.counts.failed > 0 || short ? 1 : 0);
  });
}

async function checkReceiver(args: string[]) {
  const { values } = parseFlags(receiver, args);
  const url = values.url ?? refuse(receiver, "--url is required");
  if (!URL.canParse(url) || !/^https?:$/.test(new URL(url).protocol))
    refuse(receiver, `--url must be an http:// or https:// URL, not ${JSON.stringify(url)}`);
  const secret = values.secret ?? refuse(receiver, "--secret is required");
  const secretError = secretFlagError(secret);
  if (secretError) refuse(receiver, secretError);
  const baseUrl = values["base-url"];
  if (baseUrl !== undefined && !URL.canParse(baseUrl)) refuse(receiver, `--base-url must be a URL, not ${JSON.stringify(baseUrl)}`);
  if ((baseUrl === undefined) !== (values.token === undefined)) refuse(receiver, "--base-url and --token go together");
  const timeoutMs = Number(values["timeout-ms"]);
  if (!Number.isInteger(timeoutMs) || timeoutMs < 1)
    refuse(receiver, `--timeout-ms must be a whole number of milliseconds, not ${JSON.stringify(values["timeout-ms"])}`);
  const only = onlyOf(receiver, values.only, receiverChecks);
  await orExit2(async () => {
    console.log(`checking ${url}`);
    // While every validly signed delivery is refused, the lines wait: if it stays so, that the
    // secret is probably wrong is the first thing to read, before the failures it causes.
    const held: CheckResult[] = [];
    const onResult = (result: CheckResult, { secretSuspected }: { secretSuspected: boolean }) => {
      held.push(result);
      if (!secretSuspected) held.splice(0).forEach(printResult);
    };
    // Ctrl-C stops the checks and deletes what they made in the account; a second one stops at once.
    const stopping = new AbortController();
    process.once("SIGINT", () => {
      console.log("stopping: the checks' payments are being deleted from the account (Ctrl-C again to leave them)");
      stopping.abort();
    });
    const report = await runReceiverConformance({
      url,
      secret,
      timeoutMs,
      baseUrl,
      token: values.token,
      only,
      onResult,
      onStart: (line) => console.log(line),
      signal: stopping.signal,
    });
    for (const line of receiverSecretLines(report)) console.log(line);
    held.forEach(printResult);
    console.log(receiverSummaryLines(report).join("\n"));
    if (values.junit) writeFileSync(values.junit, junit(report));
    process.exit(report.counts.failed > 0 ? 1 : 0);
  });
}

async function checkFlows(args: string[]) {
  const { values } = parseFlags(flows, args);
  const baseUrl = values["base-url"] ?? refuse(flows, "--base-url is required");
  if (!URL.canParse(baseUrl)) refuse(flows, `--base-url must be a URL, not ${JSON.stringify(baseUrl)}`);
  const token = values.token ?? refuse(flows, "--token is required");
  const only = values.only?.split(",").map((id) => id.trim());
  const unknown = only?.filter((id) => !workflows.some((w) => w.workflowId === id));
  if (unknown?.length) refuse(flows, `no workflow has the id ${unknown.join(", ")}`);
  await orExit2(async () => {
    const report = await runFlows({
      baseUrl,
      token,
      control: values.control,
      receiverHost: values["receiver-host"],
      receiverPort: portOf(flows, values["receiver-port"]),
      publicUrl: values["public-url"],
      only,
    });
    report.results.forEach(printResult);
    console.log(`\n${report.counts.passed} passed, ${report.counts.failed} failed, ${report.counts.skipped} skipped`);
    if (values.junit) writeFileSync(values.junit, junit(report));
    process.exit(report.counts.failed > 0 ? 1 : 0);
  });
}

const [which, ...args] = process.argv.slice(2);
if (which === "service") await checkService(args);
else if (which === "receiver") await checkReceiver(args);
else if (which === "flows") await checkFlows(args);
else if (which === "--help" || which === "-h" || which === "--version") parseFlags(top, [which]);
else if (which?.startsWith("-")) unknownFlag(top, which);
else refuse(top, which === undefined ? "say what to check: service, receiver or flows" : `unknown command ${JSON.stringify(which)}`);
