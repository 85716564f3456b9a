// A consumer of the installed package: the client against the mock, then a webhook handler.
import { createPayinClient, type PaymentSession } from "payin-acceptance-contract";
import { EVENT_TYPES, signWebhook, verifyWebhook, type PayinEvent } from "payin-acceptance-contract/webhooks";

const payin = createPayinClient({ baseUrl: process.env.PAYIN_BASE_URL!, token: "consumer-token" });

const customer = await payin.POST("/api/v1/send/counterparties/", {
  body: {
    type: "INDIVIDUAL",
    payment_rail: "PAYIN",
    first_name: "Lucía",
    last_name: "García",
    email: "lucia@example.com",
    phone_number: "+34612345678",
  },
  params: { header: { "Idempotency-Key": crypto.randomUUID() } },
});
if (customer.error) throw new Error(customer.error.code);

const session = await payin.POST("/api/v1/earn/payment-sessions/", {
  body: { amount: 49.99, currency: "EUR", counterparty_id: customer.data.id, redirect_url: "https://shop.example.com/thanks" },
});
const link: PaymentSession["payment_link"] | undefined = session.data?.payment_link;

const invalid = await payin.POST("/api/v1/earn/payment-sessions/", {
  body: { amount: -1, currency: "EUR", counterparty_id: customer.data.id, redirect_url: "https://shop.example.com/thanks" },
});

const secret = "whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw";
const event = {
  id: "msg_consumer_1",
  type: "transaction-completed",
  timestamp: new Date().toISOString(),
  data: { transaction_id: "txn_1", session_id: "ps_1", counterparty_id: "cp_1", status: "completed", amount: 49.99, currency: "EUR" },
} satisfies PayinEvent;
const payload = JSON.stringify(event);
const headers = await signWebhook({ id: event.id, timestamp: new Date(), payload, secret });

function handle(received: PayinEvent): string {
  switch (received.type) {
    case "transaction-created":
    case "transaction-completed":
    case "transaction-settled":
    case "transaction-failed":
      return `fetch ${received.data.transaction_id}`;
    default:
      return `session ${received.data.session_id} is ${received.data.status}`;
  }
}

const verified = await verifyWebhook(new TextEncoder().encode(payload), new Headers(headers), secret);
const rejected = await verifyWebhook(payload.replace("49.99", "0.01"), headers, secret).then(
  () => "accepted",
  (error: { code: string }) => error.code,
);

console.log(
  JSON.stringify({
    counterparty: customer.data.id,
    link,
    invalidStatus: invalid.response.status,
    invalidFields: invalid.error?.errors?.map((e) => e.field),
    handled: handle(verified),
    rejected,
    eventTypes: EVENT_TYPES.length,
  }),
);
