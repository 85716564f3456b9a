// check_webhook_endpoint: the conformance kit's receiver checks (`payin-conformance receiver`)
// run against the developer's endpoint, with the sandbox account it fetches from, so that an
// agent writing a handler proves it and fixes it in one loop: each failure says what the
// endpoint did, what the check expects of it, and what the flaw lets happen. The payments the
// checks make in that account are deleted when they end, and an answer's body is shown only from
// an endpoint that refused an unsigned delivery: pointed at another service, it reads nothing back.
import { DELIVERY_TIMEOUT_MS } from "../../lib/contract-facts.ts";
import { receiverChecks, runReceiverConformance, SetupFailed, UnreachableTarget, type CheckResult } from "../../conformance/index.ts";
import { answer, clientsOf, echoed, failure, INTEGER, inputShape, needsService, OBJECT, shape, STRING, type Tool } from "../tool.ts";

/** A check that did not hold, as the agent reads it. */
function finding(result: CheckResult) {
  const came = result.details?.find((line) => line.startsWith("came: "))?.slice("came: ".length);
  return {
    check: result.id,
    outcome: result.outcome,
    did: result.reason ?? "",
    expected: result.name,
    ...(result.risk ? { risk: result.risk } : {}),
    ...(came ? { came } : {}),
  };
}

export const checkWebhookEndpoint: Tool = {
  name: "check_webhook_endpoint",
  description:
    `On a sandbox: the kit's ${receiverChecks.length} receiver checks of your webhook endpoint, each failure with what it did ` +
    "and what is expected; the payments they make are deleted at the end.",
  inputSchema: inputShape(
    {
      url: { type: "string", format: "uri" },
      secret: STRING,
      timeout_ms: { type: "integer", minimum: 100, maximum: DELIVERY_TIMEOUT_MS },
    },
    ["timeout_ms"],
  ),
  outputSchema: shape({ passed: INTEGER, failed: INTEGER, findings: { type: "array", items: OBJECT } }),
  annotations: { destructiveHint: false },
  async run({ url, secret, timeout_ms }, { target }) {
    const api = clientsOf(target);
    if (!api) return needsService();
    let report: Awaited<ReturnType<typeof runReceiverConformance>>;
    try {
      report = await runReceiverConformance({ url, secret, baseUrl: target.baseUrl, token: target.token, timeoutMs: timeout_ms });
    } catch (error) {
      // The message names the URL given: said back short.
      if (error instanceof UnreachableTarget || error instanceof SetupFailed)
        return failure(`check_webhook_endpoint: ${echoed(error.message, 500)}`);
      throw error;
    }
    const findings = report.results.filter((r) => r.outcome === "failed" || r.outcome === "warned").map(finding);
    const { passed, failed, warned, skipped } = report.counts;
    const secretLine = report.secretSuspected
      ? " It refused every validly signed delivery: the secret given is most likely not the one it verifies with."
      : "";
    const first = findings.find((f) => f.outcome === "failed");
    // What the checks made in the account is deleted as they end; should that fail, the agent is told what is left, and how.
    const leftLine = report.leftover ? ` Left in the account: ${report.leftover}.` : "";
    return answer(
      `${passed} passed, ${failed} failed, ${warned} warned, ${skipped} skipped.` +
        `${first ? ` First failure: ${first.check}.` : ""}${secretLine}${leftLine}`,
      { passed, failed, warned, skipped, findings, ...(report.leftover ? { leftover: report.leftover } : {}) },
    );
  },
};
