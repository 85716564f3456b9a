// The receiver checks against the example merchant (examples/merchant/), on a sandbox account of
// its own: every check, required and advisory, passes, and the deliveries were what the
// service sends (the merchant verified them with the package's own verifyWebhook).
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startMerchant, type RunningMerchant } from "../../examples/merchant/src/server.ts";
import { receiverChecks, runReceiverConformance, type ReceiverReport } from "../../src/conformance/index.ts";
import { startSandbox, type RunningSandbox } from "../../src/sandbox/index.ts";

let sandbox: RunningSandbox;
let merchant: RunningMerchant;
let report: ReceiverReport;
const token = `receiver-${crypto.randomUUID()}`;
const logs: string[] = [];

beforeAll(async () => {
  sandbox = await startSandbox({ port: 0 });
  merchant = await startMerchant({ baseUrl: sandbox.url, token, log: (line) => logs.push(line) });
  report = await runReceiverConformance({ url: `${merchant.url}/webhooks/payin`, secret: merchant.signingSecret, baseUrl: sandbox.url, token });
}, 60_000);
afterAll(async () => {
  await merchant?.close();
  await sandbox?.close();
});

describe("the receiver checks against the example merchant", () => {
  it("pass, every one of them, on events about a paid and a failed payment created in its account", () => {
    console.log(report.results.filter((r) => r.outcome !== "passed"), logs);
    expect(report.results.filter((r) => r.outcome !== "passed")).toEqual([]);
    expect(report.results.map((r) => r.id)).toEqual(receiverChecks.map((c) => c.id));
    expect(report.payments).toBe("created");
  });
});
