// Checkout: the customer as a PAYIN counterparty, a payment session for the order, and the
// payment link to send the customer to. The order is pending until its events say otherwise.
//
// Run it: npm run checkout (PAYIN_BASE_URL, default http://127.0.0.1:4010; PAYIN_TOKEN, the
// same as the webhook endpoint's; MERCHANT_URL, default http://127.0.0.1:3000).
import { realpathSync } from "node:fs";
import { createPayinClient, type CounterpartyCreate, type PayinClient, type PaymentSession } from "payin-acceptance-contract";
import type { Orders } from "./orders.ts";

export interface CheckoutInput {
  orderId: string;
  amount: number;
  currency: string;
  customer: Pick<CounterpartyCreate, "first_name" | "last_name" | "email" | "phone_number">;
  /** The shop: source_url, and `${merchantUrl}/thanks` as redirect_url. */
  merchantUrl: string;
}

/** Creates the customer and the session, records the order as pending (when given `orders`), and returns the session. */
export async function checkout(payin: PayinClient, input: CheckoutInput, orders?: Orders): Promise<PaymentSession> {
  // The client retries a lost connection, a 429 and a 503 (after Retry-After), each POST with
  // one Idempotency-Key on all its attempts: a create whose answer was lost gets that answer.
  const created = await payin.POST("/api/v1/send/counterparties/", {
    body: { type: "INDIVIDUAL", payment_rail: "PAYIN", ...input.customer },
  });
  // A returning customer (same email and phone number) is answered 409 with the existing id.
  const counterpartyId = created.data?.id ?? (created.error?.code === "counterparty_exists" ? created.error.existing_id : undefined);
  if (!counterpartyId) throw new Error(`create counterparty: ${created.error?.status} ${created.error?.code}: ${created.error?.detail}`);

  const { data: session, error } = await payin.POST("/api/v1/earn/payment-sessions/", {
    body: {
      amount: input.amount,
      currency: input.currency,
      counterparty_id: counterpartyId,
      order_id: input.orderId,
      source_url: input.merchantUrl,
      redirect_url: `${input.merchantUrl}/thanks`,
    },
    // The order's own key: a checkout of the same order again (a reload) gets the same session.
    params: { header: { "Idempotency-Key": input.orderId } },
  });
  if (error) throw new Error(`create payment session: ${error.status} ${error.code}: ${error.detail}`);

  orders?.open({ order_id: input.orderId, session_id: session.id, amount: session.amount, currency: session.currency });
  return session;
}

// Run directly (npm run checkout), not imported.
if (process.argv[1] && realpathSync(process.argv[1]) === import.meta.filename) {
  const payin = createPayinClient({
    baseUrl: process.env.PAYIN_BASE_URL ?? "http://127.0.0.1:4010",
    token: process.env.PAYIN_TOKEN ?? "example-merchant",
  });
  const session = await checkout(payin, {
    orderId: `ORD-${Date.now()}`,
    amount: 49.99,
    currency: "EUR",
    customer: { first_name: "Lucía", last_name: "García", email: "lucia@example.com", phone_number: "+34612345678" },
    merchantUrl: process.env.MERCHANT_URL ?? "http://127.0.0.1:3000",
  });
  console.log(`order ${session.order_id}: pending, ${session.amount} ${session.currency}, session ${session.id}`);
  console.log(`payment link: ${session.payment_link}`);
}
