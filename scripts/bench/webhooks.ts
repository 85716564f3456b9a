// verifyWebhook (signature, timestamp, JSON parse and schema validation) against the
// Standard Webhooks reference library's verify, on the same 1 KB event, alternating rounds.
import { Webhook } from "standardwebhooks";
import { EVENT_VALIDATORS } from "../../generated/event-types.ts";
import { signWebhook, verifyWebhook } from "../../src/webhooks/index.ts";
import { hmacSha256 } from "../../src/webhooks/hmac.ts";
import { secretKey } from "../../src/webhooks/secret.ts";
import { measureAlternating, printFigures, type Figure } from "./measure.ts";

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
    // The promise itself, which the measuring loop awaits, as a receiver awaits it once.
    "verifyWebhook (this package)": () => verifyWebhook(payload, headers, SECRET),
    "standardwebhooks Webhook.verify": () => {
      reference.verify(payload, headers);
    },
  });
  console.log(`webhook verification of a ${Buffer.byteLength(payload)}-byte event:`);
  return figures;
}

/**
 * Where verifyWebhook's time goes, each step alone on the same event: the HMAC, JSON.parse,
 * the schema validation, and the whole call; what the three leave is the call's own work
 * (secret, headers, timestamp, comparison, the promises).
 */
export async function benchWebhookSteps(durationMs: number): Promise<Figure[]> {
  const event = oneKilobyteEvent();
  const payload = JSON.stringify(event);
  const headers = await signWebhook({ id: event.id, timestamp: new Date(), payload, secret: SECRET });
  const key = secretKey(SECRET);
  const parsed = JSON.parse(payload);
  const validate = EVENT_VALIDATORS["transaction-completed"];
  if (!validate(parsed)) throw new Error("The benchmark's event breaks its schema.");
  const steps = await measureAlternating(durationMs, {
    "whole call": () => verifyWebhook(payload, headers, SECRET),
    "HMAC-SHA256": () => hmacSha256(key, [`${event.id}.${headers["webhook-timestamp"]}.`, payload]),
    "JSON.parse": () => JSON.parse(payload),
    "schema validation": () => validate(parsed),
  });
  const micro = steps.map((s) => ({ name: s.name, value: 1e6 / s.value, unit: "µs" }));
  const rest = micro[0]!.value - micro.slice(1).reduce((n, s) => n + s.value, 0);
  console.log("  where verifyWebhook's time goes (each step alone, µs per call):");
  printFigures([...micro, { name: "the call's own work", value: rest, unit: "µs" }].map((f) => ({ ...f, name: `  ${f.name}` })));
  return micro;
}
