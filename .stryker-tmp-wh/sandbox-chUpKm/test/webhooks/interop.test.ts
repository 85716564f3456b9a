// @ts-nocheck
// Interoperability with the Standard Webhooks reference library, in both directions.
import { Webhook } from "standardwebhooks";
import { describe, expect, it } from "vitest";
import { signWebhook, verifyWebhook } from "../../src/webhooks/index.ts";
import { EXAMPLE_SECRET, exampleEvents } from "../support/events.ts";

const reference = new Webhook(EXAMPLE_SECRET);

describe("interoperability with standardwebhooks", () => {
  it.each(exampleEvents)("the reference library verifies what signWebhook signs (%s)", async (_, __, event) => {
    const payload = JSON.stringify(event);
    const headers = await signWebhook({ id: event.id, timestamp: new Date(), payload, secret: EXAMPLE_SECRET });
    expect(reference.verify(payload, headers)).toEqual(event);
  });

  it.each(exampleEvents)("verifyWebhook verifies what the reference library signs (%s)", async (_, __, event) => {
    const payload = JSON.stringify(event);
    const now = new Date();
    const headers = {
      "webhook-id": event.id,
      "webhook-timestamp": String(Math.floor(now.getTime() / 1000)),
      "webhook-signature": reference.sign(event.id, now, payload),
    };
    await expect(verifyWebhook(payload, headers, EXAMPLE_SECRET)).resolves.toEqual(event);
  });

  it("both produce the same signature for the same delivery", async () => {
    const at = new Date("2026-11-21T10:20:00Z");
    const ours = await signWebhook({ id: "msg_1", timestamp: at, payload: '{"a":1}', secret: EXAMPLE_SECRET });
    expect(ours["webhook-signature"]).toBe(reference.sign("msg_1", at, '{"a":1}'));
  });
});
