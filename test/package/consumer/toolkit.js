// The testing toolkit from the installed package, as a consumer's tests use it (plain
// JavaScript): the client retrying a 503 with one Idempotency-Key, the sandbox's typed control
// client, and event fixtures that verify once signed and are refused when bent.
import { createPayinClient, createSandboxClient } from "payin-acceptance-contract";
import { startSandbox } from "payin-acceptance-contract/sandbox";
import { buildEvent, refusedDeliveries, signedDelivery } from "payin-acceptance-contract/testing";
import { verifyWebhook } from "payin-acceptance-contract/webhooks";

const sandbox = await startSandbox({ port: 0 });
const options = { baseUrl: sandbox.url, token: "toolkit", retry: { baseDelayMs: 10 } };
const payin = createPayinClient(options);
const control = createSandboxClient(options);
await control.POST("/_sandbox/v1/faults", {
  body: { target: "request", operation_id: "createCounterparty", effect: "status", status: 503, retry_after_seconds: 0, times: 1 },
});
const created = await payin.POST("/api/v1/send/counterparties/", {
  body: {
    type: "INDIVIDUAL",
    payment_rail: "PAYIN",
    first_name: "Ana",
    last_name: "Li",
    email: "ana@example.com",
    phone_number: "+34600000001",
  },
});
const journal = (await control.GET("/_sandbox/v1/requests")).data.data;
await sandbox.close();

const secret = "whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw";
const event = buildEvent("transaction-failed", { data: { amount: 10 } });
const { headers, body } = await signedDelivery(event, secret);
const verified = await verifyWebhook(body, headers, secret);
const refused = [];
for (const [name, bad] of Object.entries(await refusedDeliveries(event, secret)))
  await verifyWebhook(bad.body, bad.headers, secret).then(
    () => {},
    (error) => refused.push(`${name}:${error.code}`),
  );
console.log(
  JSON.stringify({
    created: created.response.status,
    attempts: journal.map((r) => r.status),
    sameKey: new Set(journal.map((r) => r.idempotency_key)).size === 1,
    verified: verified.id === event.id && verified.data.amount === 10,
    refused: refused.length,
  }),
);
