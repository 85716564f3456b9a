// `payin-acceptance-contract/conformance`: checks any implementation of the Payin Acceptance
// Service against the contract (`runConformance`), and a merchant's webhook endpoint with good
// and bad deliveries (`runReceiverConformance`), from the bundled documents; and runs the payin
// flows, the Arazzo workflows, with Redocly's respect (`runFlows`).
export {
  runConformance,
  serviceChecks,
  UnreachableTarget,
  type ConformanceOptions,
  type ConformanceReport,
  type CoverageRow,
} from "./run-service.ts";
export { runReceiverConformance, SetupFailed, type ReceiverOptions, type ReceiverReport } from "./run-receiver.ts";
export { ARAZZO_FILE, RespectMissing, runFlows, type FlowsOptions, type FlowsReport } from "./run-flows.ts";
export { receiverChecks } from "./checks/receiver.ts";
export type { ReceiverContext } from "./checks/acknowledgement.ts";
export { junit, receiverSecretLines, receiverSummaryLines, resultLines, summaryLines } from "./report.ts";
export type { Check, CheckContext, CheckResult, Capability } from "./check.ts";
