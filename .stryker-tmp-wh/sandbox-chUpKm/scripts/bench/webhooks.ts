// @ts-nocheck
// verifyWebhook (signature, timestamp, JSON parse and schema validation) against the
// Standard Webhooks reference library's verify, on the same 1 KB event, alternating rounds.
import { Webhook } from "standardwebhooks";
import { signWebhook, verifyWebhook } from "../../src/webhooks/index.ts";
import { measureAlternating, type Figure } from "./measure.ts";

const SECRET = "whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw";

function oneKilobyteEvent() {
  const event = {
    id: "msg_2KWPCGm8pQa7Lw2Xs5DfE9uYhRk",
    type: "transaction-completed",
    timestamp: new Date().toISOString(),
    data: {
      transaction_id: "txn_9Vb5Mc2XpL8s",
      session_id: "ps_3Nf8Kd1WzQ6v",
      counterparty_id: "cp_7Hq2Lx9RbT4m",
      order_id: "ORD-2026-000731",
      status: "completed",
      amount: 49.99,
      currency: "EUR",
      // Event schemas are open; a field the receiver does not know pads the body to 1 KB.
      note: "",
    },
  };
  const base = JSON.stringify(event).length;
  event.data.note = "x".repeat(1024 - base);
  return event;
}

export async function benchWebhooks(durationMs: number): Promise<Figure[]> {
  const event = oneKilobyteEvent();
  const payload = JSON.stringify(event);
  const headers = await signWebhook({ id: event.id, timestamp: new Date(), payload, secret: SECRET });
  const reference = new Webhook(SECRET);
  // Both must accept the delivery, or the race means nothing.
  await verifyWebhook(payload, headers, SECRET);
  reference.verify(payload, headers);

  const figures = await measureAlternating(durationMs, {
    "verifyWebhook (this package)": async () => {
      await verifyWebhook(payload, headers, SECRET);
    },
    "standardwebhooks Webhook.verify": () => {
      reference.verify(payload, headers);
    },
  });
  console.log(`webhook verification of a ${Buffer.byteLength(payload)}-byte event:`);
  return figures;
}
