// A run as people and CI read it: a line per check as it ends, each failure with what was sent,
// what came and (for the receiver checks) the risk, then the summary, the count last; JUnit XML
// for CI to render.
import type { CheckResult } from "./check.ts";
import type { ReceiverReport } from "./run-receiver.ts";
import type { ConformanceReport } from "./run-service.ts";

const MARK = { passed: "✓", failed: "✗", warned: "!", skipped: "-" } as const;

/** The items by key, in the order the keys first come. */
function groupBy<T>(items: readonly T[], key: (item: T) => string): Map<string, T[]> {
  const groups = new Map<string, T[]>();
  for (const item of items) groups.set(key(item), [...(groups.get(key(item)) ?? []), item]);
  return groups;
}

/** One check's line, and a failure's details under it. */
export function resultLines(result: CheckResult): string[] {
  const time = result.outcome === "skipped" ? "skipped" : `${Math.round(result.durationMs)} ms`;
  const head = `${MARK[result.outcome]} ${result.id}  ${result.name} (${time})`;
  if (result.outcome === "passed") return [head];
  const risk = result.risk ? [`    risk: ${result.risk}`] : [];
  return [head, `    ${result.reason}`, ...risk, ...(result.details ?? []).map((line) => `    ${line}`)];
}

export function summaryLines(report: ConformanceReport): string[] {
  const width = Math.max(...report.coverage.map((c) => c.operationId.length));
  const byOperation = groupBy(report.coverage, (c) => c.operationId);
  return [
    "",
    `coverage: ${report.coveragePercent.toFixed(0)} % of the documented statuses a request can provoke ` +
      `and of the event types (seed ${report.seed})`,
    ...[...byOperation].map(
      ([operationId, rows]) => `  ${operationId.padEnd(width)}  ${rows.map((r) => `${r.status}${r.exercised ? "✓" : "·"}`).join(" ")}`,
    ),
    `  ${"events".padEnd(width)}  ${report.events.map((e) => `${e.type}${e.exercised ? "✓" : "·"}`).join(" ")}`,
    ...rateLimitLines(report.rateLimited),
    "",
    `${report.counts.passed} passed, ${report.counts.failed} failed, ${report.counts.skipped} skipped`,
  ];
}

/** How often the target's rate limit answered 429 and the kit waited it out: none when it never did. */
function rateLimitLines({ requests, waitedMs }: ConformanceReport["rateLimited"]): string[] {
  if (requests === 0) return [];
  return [
    "",
    `rate limit: ${requests} request${requests === 1 ? " was" : "s were"} answered 429 and sent again after their Retry-After, ` +
      `the run waiting ${(waitedMs / 1000).toFixed(1)} s in all`,
  ];
}

/** What the events were about, and what of it is in the account now. */
const ORIGIN = {
  created: "the events were about payments the checks made in the account at --base-url, deleted with their events as they ended",
  "made-up":
    "the events named made-up objects: an endpoint that fetches the transaction fails those events; " +
    "give --base-url and --token of the account it fetches from",
  "not-made":
    "the events named made-up objects: the account at --base-url has no sandbox control API to delete " +
    "what the checks would make there, so they made nothing there",
} as const;

/**
 * What to read first when every validly signed delivery was refused: the secret, not the
 * endpoint's checks, is most likely at fault. None otherwise.
 */
export function receiverSecretLines(report: Pick<ReceiverReport, "secretSuspected">): string[] {
  if (!report.secretSuspected) return [];
  return [
    "The endpoint refused every validly signed delivery with 4xx: " +
      "the secret given with --secret is most likely not the one it verifies with.",
    "Give --secret the endpoint's own signing secret (the signing_secret POST /webhooks returned for its URL); " +
      "the failures below follow from it.",
    "",
  ];
}

export function receiverSummaryLines(report: ReceiverReport): string[] {
  const { passed, failed, warned, skipped } = report.counts;
  return [
    "",
    `endpoint: ${report.url}`,
    report.leftover === undefined
      ? ORIGIN[report.payments]
      : `the events were about payments the checks made in the account at --base-url; left there: ${report.leftover}`,
    "",
    `${passed} passed, ${failed} failed, ${warned} warned (advisory), ${skipped} skipped`,
  ];
}

const xml = (text: string) => text.replace(/[<>&"]/g, (c) => ({ "<": "&lt;", ">": "&gt;", "&": "&amp;", '"': "&quot;" })[c]!);

/** JUnit XML: one testsuite per group of checks (the id's first part), one testcase per check; an advisory warning is the case's output. */
export function junit(report: { results: readonly CheckResult[] }): string {
  const groups = groupBy(report.results, (r) => r.id.split(".")[0]!);
  const suites = [...groups].map(([group, results]) => {
    const count = (outcome: CheckResult["outcome"]) => results.filter((r) => r.outcome === outcome).length;
    const time = (results.reduce((sum, r) => sum + r.durationMs, 0) / 1000).toFixed(3);
    const cases = results.map((r) => {
      const open =
        `    <testcase classname="payin-conformance.${xml(group)}" ` +
        `name="${xml(`${r.id}: ${r.name}`)}" time="${(r.durationMs / 1000).toFixed(3)}"`;
      if (r.outcome === "passed") return `${open}/>`;
      if (r.outcome === "skipped") return `${open}>\n      <skipped message="${xml(r.reason ?? "")}"/>\n    </testcase>`;
      const explained = [...(r.risk ? [`risk: ${r.risk}`] : []), ...(r.details ?? [])];
      if (r.outcome === "warned")
        return (
          `${open}>\n      <system-out>${xml([`warning (advisory): ${r.reason}`, ...explained].join("\n"))}</system-out>` +
          "\n    </testcase>"
        );
      return `${open}>\n      <failure message="${xml(r.reason ?? "")}">${xml(explained.join("\n"))}</failure>\n    </testcase>`;
    });
    return [
      `  <testsuite name="${xml(group)}" tests="${results.length}" ` +
        `failures="${count("failed")}" skipped="${count("skipped")}" time="${time}">`,
      ...cases,
      "  </testsuite>",
    ].join("\n");
  });
  const total = (outcome: CheckResult["outcome"]) => report.results.filter((r) => r.outcome === outcome).length;
  const head =
    `<testsuites name="payin-conformance" tests="${report.results.length}" ` +
    `failures="${total("failed")}" skipped="${total("skipped")}">`;
  return ['<?xml version="1.0" encoding="UTF-8"?>', head, ...suites, "</testsuites>", ""].join("\n");
}
