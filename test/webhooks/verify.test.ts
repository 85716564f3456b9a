import { describe, expect, it } from "vitest";
import { signWebhook, verifyWebhook, WebhookVerificationError, type WebhookVerificationErrorCode } from "../../src/webhooks/index.ts";
import { webCryptoHmac } from "../../src/webhooks/hmac-webcrypto.ts";
import { EXAMPLE_SECRET, exampleEvent, exampleEvents } from "../support/events.ts";

const OTHER_SECRET = "whsec_C2FVsBQIhrscChlQIMV+b5sSYspob7oD";
const NOW = new Date("2026-11-21T10:24:42Z");

async function signed(event: any = exampleEvent("transaction-completed"), secret = EXAMPLE_SECRET, timestamp: Date | number = NOW) {
  const payload = JSON.stringify(event);
  const headers = await signWebhook({ id: event.id, timestamp, payload, secret });
  return { payload, headers: { ...headers } as Record<string, string> };
}

async function rejection(promise: Promise<unknown>): Promise<WebhookVerificationError> {
  const error = await promise.then(
    () => undefined,
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(WebhookVerificationError);
  return error as WebhookVerificationError;
}

const rejects = async (promise: Promise<unknown>, code: WebhookVerificationErrorCode) =>
  expect((await rejection(promise)).code).toBe(code);

describe("verifyWebhook", () => {
  it.each(exampleEvents)("accepts the %s example (%s) once signed, and returns it", async (_, __, event) => {
    const { payload, headers } = await signed(event);
    await expect(verifyWebhook(payload, headers, EXAMPLE_SECRET, { now: NOW })).resolves.toEqual(event);
  });

  it("accepts bytes, an ArrayBuffer, WHATWG Headers and header names in any case", async () => {
    const { payload, headers } = await signed();
    const bytes = new TextEncoder().encode(payload);
    const upper = Object.fromEntries(Object.entries(headers).map(([k, v]) => [k.toUpperCase(), v]));
    for (const [body, hdrs] of [
      [bytes, headers],
      [bytes.buffer, new Headers(headers)],
      [payload, upper],
      [payload, { ...headers, "webhook-signature": [headers["webhook-signature"]!] }],
    ] as const) {
      await expect(verifyWebhook(body, hdrs, EXAMPLE_SECRET, { now: NOW })).resolves.toMatchObject({ type: "transaction-completed" });
    }
  });

  it("accepts the secret with or without its whsec_ prefix", async () => {
    const { payload, headers } = await signed();
    await expect(verifyWebhook(payload, headers, EXAMPLE_SECRET.slice(6), { now: NOW })).resolves.toBeDefined();
  });

  it("rejects a tampered body", async () => {
    const { payload, headers } = await signed();
    await rejects(verifyWebhook(payload.replace("49.99", "4999"), headers, EXAMPLE_SECRET, { now: NOW }), "invalid_signature");
  });

  it("rejects a tampered id or timestamp header", async () => {
    const { payload, headers } = await signed();
    await rejects(verifyWebhook(payload, { ...headers, "webhook-id": "msg_other" }, EXAMPLE_SECRET, { now: NOW }), "invalid_signature");
    const later = String(Number(headers["webhook-timestamp"]) + 1);
    await rejects(verifyWebhook(payload, { ...headers, "webhook-timestamp": later }, EXAMPLE_SECRET, { now: NOW }), "invalid_signature");
  });

  it("rejects the wrong secret", async () => {
    const { payload, headers } = await signed();
    await rejects(verifyWebhook(payload, headers, OTHER_SECRET, { now: NOW }), "invalid_signature");
  });

  it("rejects a secret that is not base64", async () => {
    const { payload, headers } = await signed();
    await rejects(verifyWebhook(payload, headers, "whsec_not base64!", { now: NOW }), "invalid_secret");
    await rejects(verifyWebhook(payload, headers, "", { now: NOW }), "invalid_secret");
  });

  it("rejects stale and future timestamps beyond the tolerance, and accepts them within it", async () => {
    const { payload, headers } = await signed();
    const at = (seconds: number) => new Date(NOW.getTime() + seconds * 1000);
    await rejects(verifyWebhook(payload, headers, EXAMPLE_SECRET, { now: at(301) }), "timestamp_too_old");
    await rejects(verifyWebhook(payload, headers, EXAMPLE_SECRET, { now: at(-301) }), "timestamp_too_new");
    await expect(verifyWebhook(payload, headers, EXAMPLE_SECRET, { now: at(300) })).resolves.toBeDefined();
    await expect(verifyWebhook(payload, headers, EXAMPLE_SECRET, { now: at(-300) })).resolves.toBeDefined();
    await rejects(verifyWebhook(payload, headers, EXAMPLE_SECRET, { now: at(31), toleranceSeconds: 30 }), "timestamp_too_old");
    await expect(verifyWebhook(payload, headers, EXAMPLE_SECRET, { now: NOW.getTime() / 1000 + 30, toleranceSeconds: 30 })).resolves.toBeDefined();
  });

  it("checks the timestamp against the real clock by default", async () => {
    const { payload, headers } = await signed();
    await rejects(verifyWebhook(payload, headers, EXAMPLE_SECRET), "timestamp_too_old");
    const fresh = await signed(undefined, EXAMPLE_SECRET, new Date());
    await expect(verifyWebhook(fresh.payload, fresh.headers, EXAMPLE_SECRET)).resolves.toBeDefined();
  });

  it("rejects a timestamp that is not Unix seconds", async () => {
    const { payload, headers } = await signed();
    for (const bad of ["2026-11-21T10:24:42Z", "-5", "1.5", "17952566820000"])
      await rejects(verifyWebhook(payload, { ...headers, "webhook-timestamp": bad }, EXAMPLE_SECRET, { now: NOW }), "invalid_timestamp");
  });

  it.each(["webhook-id", "webhook-timestamp", "webhook-signature"])("rejects a delivery without %s, naming it", async (name) => {
    const { payload, headers } = await signed();
    delete headers[name];
    const error = await rejection(verifyWebhook(payload, headers, EXAMPLE_SECRET, { now: NOW }));
    expect(error.code).toBe("missing_header");
    expect(error.message).toContain(name);
  });

  it("accepts any valid signature among several, for secret rotation", async () => {
    const event = exampleEvent("session-created");
    const payload = JSON.stringify(event);
    const old = await signWebhook({ id: event.id, timestamp: NOW, payload, secret: OTHER_SECRET });
    const current = await signWebhook({ id: event.id, timestamp: NOW, payload, secret: EXAMPLE_SECRET });
    const both = { ...current, "webhook-signature": `${old["webhook-signature"]} v1a,ignored ${current["webhook-signature"]}` };
    await expect(verifyWebhook(payload, both, EXAMPLE_SECRET, { now: NOW })).resolves.toEqual(event);
    await expect(verifyWebhook(payload, both, OTHER_SECRET, { now: NOW })).resolves.toEqual(event);
    await rejects(verifyWebhook(payload, both, "whsec_AAAAAAAAAAAAAAAAAAAAAAAA", { now: NOW }), "invalid_signature");
  });

  it("rejects a signed event that breaks its schema, naming the field", async () => {
    const event = exampleEvent("transaction-completed");
    delete event.data.transaction_id;
    const { payload, headers } = await signed(event);
    const error = await rejection(verifyWebhook(payload, headers, EXAMPLE_SECRET, { now: NOW }));
    expect(error.code).toBe("invalid_event");
    expect(error.errors).toContainEqual({ field: "data", message: "must have required property 'transaction_id'" });
  });

  it("rejects a signed event of an unknown type, and one whose id is not the webhook-id", async () => {
    await rejects(verifyWebhook(...(await args({ ...exampleEvent("session-created"), type: "session.created" }))), "invalid_event");
    const event = exampleEvent("session-created");
    const payload = JSON.stringify(event);
    const headers = await signWebhook({ id: "msg_other", timestamp: NOW, payload, secret: EXAMPLE_SECRET });
    const error = await rejection(verifyWebhook(payload, headers, EXAMPLE_SECRET, { now: NOW }));
    expect(error).toMatchObject({ code: "invalid_event", errors: [{ field: "id", message: "must equal the webhook-id header" }] });
  });

  it("rejects a signed body that is not JSON or not UTF-8", async () => {
    for (const payload of ["not json", new Uint8Array([0x7b, 0xff, 0x7d])]) {
      const headers = await signWebhook({ id: "msg_1", timestamp: NOW, payload, secret: EXAMPLE_SECRET });
      await rejects(verifyWebhook(payload, headers, EXAMPLE_SECRET, { now: NOW }), "invalid_payload");
    }
  });

  it("gives the same answers through WebCrypto, for runtimes without node:crypto", async () => {
    const { payload, headers } = await signed();
    const options = { now: NOW, hmac: webCryptoHmac };
    await expect(verifyWebhook(payload, headers, EXAMPLE_SECRET, options)).resolves.toMatchObject({ type: "transaction-completed" });
    await rejects(verifyWebhook(payload, headers, OTHER_SECRET, options), "invalid_signature");
    expect(await webCryptoHmac.sign(new Uint8Array([1, 2, 3]), ["a.", new Uint8Array([98])])).toBe(
      (await import("node:crypto")).createHmac("sha256", Buffer.from([1, 2, 3])).update("a.b").digest("base64"),
    );
  });

  it("accepts signatures from a header repeated by a proxy (joined with a comma)", async () => {
    const event = exampleEvent("session-created");
    const payload = JSON.stringify(event);
    const old = await signWebhook({ id: event.id, timestamp: NOW, payload, secret: OTHER_SECRET });
    const current = await signWebhook({ id: event.id, timestamp: NOW, payload, secret: EXAMPLE_SECRET });
    const joined = new Headers(current);
    joined.append("webhook-signature", old["webhook-signature"]);
    expect(joined.get("webhook-signature")).toContain(", ");
    await expect(verifyWebhook(payload, joined, EXAMPLE_SECRET, { now: NOW })).resolves.toEqual(event);
    await expect(verifyWebhook(payload, joined, OTHER_SECRET, { now: NOW })).resolves.toEqual(event);
  });

  it("refuses options that would switch the timestamp check off", async () => {
    const { payload, headers } = await signed();
    await expect(verifyWebhook(payload, headers, EXAMPLE_SECRET, { now: NOW, toleranceSeconds: Number(undefined) })).rejects.toThrow(TypeError);
    await expect(verifyWebhook(payload, headers, EXAMPLE_SECRET, { now: new Date("not a date") })).rejects.toThrow(TypeError);
    await expect(verifyWebhook(payload, headers, EXAMPLE_SECRET, { now: NOW, toleranceSeconds: -1 })).rejects.toThrow(TypeError);
  });

  it("turns a rejection into the contract's problem details", async () => {
    const { payload, headers } = await signed();
    const error = await rejection(verifyWebhook(payload, headers, OTHER_SECRET, { now: NOW }));
    expect(error.toProblem()).toMatchObject({ status: 401, code: "webhook_invalid_signature", detail: error.message });
    const misconfigured = await rejection(verifyWebhook(payload, headers, "whsec_!", { now: NOW }));
    expect(misconfigured.toProblem()).toMatchObject({ status: 500, code: "webhook_invalid_secret" });
  });
});

async function args(event: any): Promise<Parameters<typeof verifyWebhook>> {
  const { payload, headers } = await signed(event);
  return [payload, headers, EXAMPLE_SECRET, { now: NOW }];
}
