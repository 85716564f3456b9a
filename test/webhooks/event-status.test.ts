// Each event announces one state: its `data.status` is a `const` in the contract, so the
// generated union narrows on it and a signed event that contradicts its own type is refused.
import { describe, expect, expectTypeOf, it } from "vitest";
import { signWebhook, verifyWebhook, WebhookVerificationError, type PayinEvent, type PayinEventOf } from "../../src/webhooks/index.ts";
import { EXAMPLE_SECRET, exampleEvent } from "../support/events.ts";

const NOW = new Date("2026-11-21T10:24:42Z");

/** The state each event announces, as the source's flow describes it. */
const ANNOUNCED = {
  "session-created": "created",
  "session-completed": "completed",
  "session-expired": "expired",
  "transaction-created": "created",
  "transaction-completed": "completed",
  "transaction-settled": "settled",
  "transaction-failed": "failed",
} as const satisfies { [T in PayinEvent["type"]]: PayinEventOf<T>["data"]["status"] };

async function verifySigned(event: unknown) {
  const payload = JSON.stringify(event);
  const headers = await signWebhook({ id: (event as { id: string }).id, timestamp: NOW, payload, secret: EXAMPLE_SECRET });
  return verifyWebhook(payload, headers, EXAMPLE_SECRET, { now: NOW });
}

describe("each event pins its status", () => {
  it("narrows data.status by the event type", () => {
    expectTypeOf<PayinEventOf<"transaction-settled">["data"]["status"]>().toEqualTypeOf<"settled">();
    expectTypeOf<PayinEventOf<"transaction-failed">["data"]["status"]>().toEqualTypeOf<"failed">();
    expectTypeOf<PayinEventOf<"session-expired">["data"]["status"]>().toEqualTypeOf<"expired">();
  });

  it.each(Object.entries(ANNOUNCED))("accepts %s with status %s", async (type, status) => {
    const event = exampleEvent(type);
    expect(event.data.status).toBe(status);
    await expect(verifySigned(event)).resolves.toEqual(event);
  });

  it("refuses a signed transaction-settled event whose status is failed, naming data.status", async () => {
    const event = { ...exampleEvent("transaction-settled") };
    event.data = { ...event.data, status: "failed" };
    const error = await verifySigned(event).then(
      () => undefined,
      (e: unknown) => e,
    );
    expect(error).toBeInstanceOf(WebhookVerificationError);
    expect((error as WebhookVerificationError).code).toBe("invalid_event");
    expect(JSON.stringify((error as WebhookVerificationError).toProblem())).toContain("status");
  });

  it.each(Object.entries(ANNOUNCED))("refuses %s with any other transaction or session state", async (type, status) => {
    const others = (
      type.startsWith("transaction") ? ["created", "completed", "settled", "failed"] : ["created", "completed", "expired"]
    ).filter((s) => s !== status);
    for (const other of others) {
      const event = exampleEvent(type);
      event.data.status = other;
      await expect(verifySigned(event), `${type} with ${other}`).rejects.toBeInstanceOf(WebhookVerificationError);
    }
  });
});
