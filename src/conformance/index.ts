// `payin-acceptance-contract/conformance`: checks any implementation of the Payin Acceptance
// Service against the contract, from the bundled documents. Node 22 or newer.
export { runConformance, serviceChecks, UnreachableTarget, type CheckResult, type ConformanceOptions, type ConformanceReport, type CoverageRow } from "./run.ts";
export { junit, resultLines, summaryLines } from "./report.ts";
export type { Check, CheckContext, Capability } from "./check.ts";
