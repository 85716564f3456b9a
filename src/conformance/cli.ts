#!/usr/bin/env node
// `payin-conformance service --base-url URL --token TOKEN [flags]`: checks an implementation of
// the service against the contract. Exit 0 when every check that ran passed and coverage
// reached --min-coverage, 1 when not, 2 for bad flags or a target that cannot be reached.
import { writeFileSync } from "node:fs";
import { parseFlags, portOf, refuse, type Command } from "../lib/cli.ts";
import { junit, resultLines, summaryLines } from "./report.ts";
import { runConformance, serviceChecks, UnreachableTarget } from "./run.ts";

const command = {
  name: "payin-conformance",
  synopsis: "service --base-url URL --token TOKEN [--control] [--receiver-host H] [--receiver-port N] [--public-url URL] [--junit FILE] [--min-coverage PERCENT] [--seed N] [--only ID,…]",
  positionals: true,
  flags: {
    "base-url": { type: "string", value: "URL", description: "the implementation under test; every request, the control API's too, goes there" },
    token: { type: "string", value: "TOKEN", description: "the bearer token of the account the checks use" },
    control: { type: "boolean", default: false, description: "the target also serves the sandbox's control API (simulate, clock/advance)" },
    "receiver-host": { type: "string", value: "H", default: "127.0.0.1", description: "interface of the kit's webhook receiver" },
    "receiver-port": { type: "string", value: "N", default: "0", description: "port of the kit's webhook receiver, 0 for a free one" },
    "public-url": { type: "string", value: "URL", description: "the URL the target delivers webhooks to, when it reaches the receiver through another address" },
    junit: { type: "string", value: "FILE", description: "also write the results as JUnit XML" },
    "min-coverage": { type: "string", value: "PERCENT", default: "0", description: "fail unless the checks exercised this share of the documented statuses" },
    seed: { type: "string", value: "N", shownDefault: "random", description: "the seed of generated inputs, to replay a run" },
    only: { type: "string", value: "ID,…", description: "only the checks with these ids" },
  },
  more: `checks:\n${serviceChecks.map((c) => `  ${c.id}  ${c.name}`).join("\n")}`,
} as const satisfies Command<any>;

const { values, positionals } = parseFlags(command);
if (positionals[0] !== "service" || positionals.length > 1) refuse(command, positionals.length === 0 ? "say what to check: service" : `unknown command ${JSON.stringify(positionals.join(" "))}`);
const baseUrl = values["base-url"] ?? refuse(command, "--base-url is required");
if (!URL.canParse(baseUrl)) refuse(command, `--base-url must be a URL, not ${JSON.stringify(baseUrl)}`);
const token = values.token ?? refuse(command, "--token is required");
const minCoverage = Number(values["min-coverage"]);
if (!(minCoverage >= 0 && minCoverage <= 100)) refuse(command, `--min-coverage must be a percentage, not ${JSON.stringify(values["min-coverage"])}`);
const seed = values.seed === undefined ? undefined : Number(values.seed);
if (seed !== undefined && !Number.isInteger(seed)) refuse(command, `--seed must be an integer, not ${JSON.stringify(values.seed)}`);
const only = values.only?.split(",").map((id) => id.trim());
const unknown = only?.filter((id) => !serviceChecks.some((c) => c.id === id));
if (unknown?.length) refuse(command, `no check has the id ${unknown.join(", ")}`);

try {
  const report = await runConformance({
    baseUrl,
    token,
    control: values.control,
    receiverHost: values["receiver-host"],
    receiverPort: portOf(command, values["receiver-port"]),
    publicUrl: values["public-url"],
    seed,
    only,
    onResult: (result) => console.log(resultLines(result).join("\n")),
  });
  console.log(summaryLines(report).join("\n"));
  if (values.junit) writeFileSync(values.junit, junit(report));
  const short = report.coveragePercent < minCoverage;
  if (short) console.log(`coverage ${report.coveragePercent.toFixed(0)} % is below --min-coverage ${minCoverage} %`);
  process.exit(report.counts.failed > 0 || short ? 1 : 0);
} catch (error) {
  if (!(error instanceof UnreachableTarget)) throw error;
  console.error(`payin-conformance: ${error.message}`);
  process.exit(2);
}
