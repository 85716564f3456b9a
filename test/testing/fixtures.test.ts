// The testing entry's fixtures: each of the seven events is valid, verifies once signed and
// fails to when changed; overrides apply, or are refused naming the field; and each delivery a
// handler must refuse is refused by verifyWebhook for the reason it stands for.
import { describe, expect, it } from "vitest";
import { EVENT_TYPES } from "../../generated/event-types.ts";
import { newSigningSecret } from "../../src/lib/ids.ts";
import { buildEvent, refusedDeliveries, signedDelivery } from "../../src/testing/index.ts";
import { verifyWebhook, WebhookVerificationError } from "../../src/webhooks/index.ts";

const secret = newSigningSecret();
const refusal = (body: string, headers: Record<string, string>, key = secret) =>
  verifyWebhook(body, headers, key).then(
    () => "accepted",
    (error: unknown) => (error instanceof WebhookVerificationError ? error.code : String(error)),
  );

describe("buildEvent and signedDelivery", () => {
  it.each(EVENT_TYPES)("make a %s that verifies once signed, as itself, and not once changed", async (type) => {
    const event = buildEvent(type);
    expect(event.type).toBe(type);
    expect(event.id).toMatch(/^msg_/);
    expect(event.data.status).toBe(type.slice(type.indexOf("-") + 1));
    expect("transaction_id" in event.data).toBe(type.startsWith("transaction-"));
    expect("failure_reason" in event.data).toBe(type === "transaction-failed");
    const { headers, body } = await signedDelivery(event, secret);
    expect(headers["webhook-id"]).toBe(event.id);
    expect(await verifyWebhook(body, headers, secret)).toEqual(event);
    expect(await refusal(body.replace('"amount":49.99', '"amount":49.98'), headers)).toBe("invalid_signature");
    expect(await refusal(body, headers, newSigningSecret())).toBe("invalid_signature");
  });

  it("makes a new event each time", () => {
    const [a, b] = [buildEvent("session-created"), buildEvent("session-created")];
    expect(a.id).not.toBe(b.id);
    expect(a.data.session_id).not.toBe(b.data.session_id);
  });

  it("applies overrides, nested ones too, and keeps the rest", () => {
    const event = buildEvent("transaction-failed", { data: { amount: 10, failure_reason: "insufficient_funds" } });
    expect(event.data).toMatchObject({ amount: 10, failure_reason: "insufficient_funds", currency: "EUR", status: "failed" });
  });

  it("refuses overrides that make an event its schema refuses, naming the field", () => {
    expect(() => buildEvent("session-created", { data: { amount: -1 } })).toThrow(/buildEvent\("session-created"\).*data\.amount/);
    expect(() => buildEvent("transaction-settled", { data: { status: "failed" } as never })).toThrow(/data\.status/);
    expect(() => buildEvent("no-such-event" as never)).toThrow(/not an event type of the contract/);
  });

  it("signs with the timestamp and id asked for", async () => {
    const event = buildEvent("session-completed");
    const { headers } = await signedDelivery(event, secret, { timestamp: new Date(1_700_000_000_000), id: "msg_other" });
    expect(headers["webhook-timestamp"]).toBe("1700000000");
    expect(headers["webhook-id"]).toBe("msg_other");
  });
});

describe("refusedDeliveries", () => {
  it("are each refused by verifyWebhook, for the reason they stand for", async () => {
    const bad = await refusedDeliveries(buildEvent("transaction-completed"), secret);
    const codes = Object.fromEntries(
      await Promise.all(Object.entries(bad).map(async ([name, d]) => [name, await refusal(d.body, d.headers)])),
    );
    expect(codes).toEqual({
      staleTimestamp: "timestamp_too_old",
      futureTimestamp: "timestamp_too_new",
      otherSecret: "invalid_signature",
      changedByte: "invalid_signature",
      addedWhitespace: "invalid_signature",
      reserialised: "invalid_signature",
      missingWebhookId: "missing_header",
      missingWebhookTimestamp: "missing_header",
      missingWebhookSignature: "missing_header",
    });
  });
});
