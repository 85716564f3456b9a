import { describe, expect, it } from "vitest";
import { EVENT_VALIDATORS } from "../../generated/event-types.ts";
import type { EventValidator } from "../../generated/event-validators.js";
import { signWebhook, verifyWebhook, WebhookVerificationError, type WebhookVerificationErrorCode } from "../../src/webhooks/index.ts";
import { secretFlagError, SECRET_FORM } from "../../src/webhooks/secret.ts";
import { EXAMPLE_SECRET, exampleEvent, exampleEvents } from "../support/events.ts";
import { RUNTIMES } from "./runtime.ts";

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

const rejects = async (promise: Promise<unknown>, code: WebhookVerificationErrorCode) => expect((await rejection(promise)).code).toBe(code);

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
      // A header sent twice, as Node's IncomingMessage hands it over: the valid one first or last.
      [payload, { ...headers, "webhook-signature": ["v1,bm90IHRoaXMgb25l", headers["webhook-signature"]!] }],
      [payload, { ...headers, "webhook-signature": [headers["webhook-signature"]!, "v1,bm90IHRoaXMgb25l"] }],
      // A lower-case name wins over another spelling of it.
      [payload, { ...headers, "Webhook-Id": "msg_other" }],
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

  // Each of these has a length that is a multiple of four, so only the check it names rejects it.
  it.each([
    ["a character outside base64", "whsec_abc!"],
    ["a space", "whsec_ab c"],
    ["padding in the middle", "whsec_a=bc"],
    ["nothing after the prefix", "whsec_"],
    ["nothing at all", ""],
  ])("rejects a secret with %s (%j) as invalid_secret", async (_, secret) => {
    const { payload, headers } = await signed();
    const error = await rejection(verifyWebhook(payload, headers, secret, { now: NOW }));
    expect(error.code).toBe("invalid_secret");
    expect(error.message).toBe(
      "The signing secret must be whsec_ followed by base64, as POST /webhooks returns it (the whsec_ prefix may be left off).",
    );
  });

  it("signs under the same rule: the whsec_ prefix optional, and anything but base64 after it refused naming the form", async () => {
    const event = exampleEvent("transaction-completed");
    const payload = JSON.stringify(event);
    const sign = (secret: string) => signWebhook({ id: event.id, timestamp: NOW, payload, secret });
    expect(await sign(EXAMPLE_SECRET.slice("whsec_".length))).toEqual(await sign(EXAMPLE_SECRET));
    for (const secret of ["whsec_abc!", "abc!", "whsec_", ""])
      await expect(sign(secret), secret).rejects.toMatchObject({
        code: "invalid_secret",
        message: `The signing secret must be ${SECRET_FORM}.`,
      });
  });

  it("words a command's --secret refusal from the same rule, and takes what verifyWebhook takes", () => {
    expect(SECRET_FORM).toBe("whsec_ followed by base64, as POST /webhooks returns it (the whsec_ prefix may be left off)");
    for (const secret of [EXAMPLE_SECRET, EXAMPLE_SECRET.slice("whsec_".length)]) expect(secretFlagError(secret), secret).toBeUndefined();
    for (const secret of ["plain", "whsec_abc!", "whsec_", "whsec_ABCD "])
      expect(secretFlagError(secret), secret).toBe(
        "--secret must be the endpoint's signing secret: whsec_ followed by base64, " +
          "as POST /webhooks returns it (the whsec_ prefix may be left off)",
      );
  });

  it("answers each call by its own secret: a valid secret after an invalid one, and the reverse", async () => {
    const { payload, headers } = await signed();
    await rejects(verifyWebhook(payload, headers, "whsec_", { now: NOW }), "invalid_secret");
    await expect(verifyWebhook(payload, headers, EXAMPLE_SECRET, { now: NOW })).resolves.toBeDefined();
    await rejects(verifyWebhook(payload, headers, OTHER_SECRET, { now: NOW }), "invalid_signature");
    await rejects(verifyWebhook(payload, headers, "whsec_", { now: NOW }), "invalid_secret");
    await expect(verifyWebhook(payload, headers, EXAMPLE_SECRET, { now: NOW })).resolves.toBeDefined();
  });

  it.each([undefined, null, 42])("rejects a secret that is %s as invalid_secret", async (secret) => {
    const { payload, headers } = await signed();
    const error = await rejection(verifyWebhook(payload, headers, secret as unknown as string, { now: NOW }));
    expect(error).toMatchObject({
      code: "invalid_secret",
      message: `The signing secret is ${secret === null ? "null" : typeof secret}, not a string: is it configured?`,
    });
  });

  it("rejects stale and future timestamps beyond the tolerance, and accepts them within it", async () => {
    const { payload, headers } = await signed();
    const at = (seconds: number) => new Date(NOW.getTime() + seconds * 1000);
    await rejects(verifyWebhook(payload, headers, EXAMPLE_SECRET, { now: at(301) }), "timestamp_too_old");
    await rejects(verifyWebhook(payload, headers, EXAMPLE_SECRET, { now: at(-301) }), "timestamp_too_new");
    await expect(verifyWebhook(payload, headers, EXAMPLE_SECRET, { now: at(300) })).resolves.toBeDefined();
    await expect(verifyWebhook(payload, headers, EXAMPLE_SECRET, { now: at(-300) })).resolves.toBeDefined();
    await rejects(verifyWebhook(payload, headers, EXAMPLE_SECRET, { now: at(31), toleranceSeconds: 30 }), "timestamp_too_old");
    await expect(
      verifyWebhook(payload, headers, EXAMPLE_SECRET, { now: NOW.getTime() / 1000 + 30, toleranceSeconds: 30 }),
    ).resolves.toBeDefined();
    await expect(
      verifyWebhook(payload, headers, EXAMPLE_SECRET, { now: NOW.getTime() / 1000 + 30.9, toleranceSeconds: 30 }),
    ).resolves.toBeDefined();
  });

  it("with toleranceSeconds 0, accepts only the signing second itself", async () => {
    const { payload, headers } = await signed();
    const at = (seconds: number) => new Date(NOW.getTime() + seconds * 1000);
    await expect(verifyWebhook(payload, headers, EXAMPLE_SECRET, { now: NOW, toleranceSeconds: 0 })).resolves.toBeDefined();
    const old = await rejection(verifyWebhook(payload, headers, EXAMPLE_SECRET, { now: at(1), toleranceSeconds: 0 }));
    expect(old).toMatchObject({ code: "timestamp_too_old", message: "The delivery was signed 1 s ago, more than the 0 s tolerance." });
    const future = await rejection(verifyWebhook(payload, headers, EXAMPLE_SECRET, { now: at(-1), toleranceSeconds: 0 }));
    expect(future).toMatchObject({
      code: "timestamp_too_new",
      message: "The delivery is signed 1 s in the future, more than the 0 s tolerance.",
    });
  });

  it("checks the timestamp against the real clock by default", async () => {
    const { payload, headers } = await signed();
    await rejects(verifyWebhook(payload, headers, EXAMPLE_SECRET), "timestamp_too_old");
    const fresh = await signed(undefined, EXAMPLE_SECRET, new Date());
    await expect(verifyWebhook(fresh.payload, fresh.headers, EXAMPLE_SECRET)).resolves.toBeDefined();
  });

  it("rejects a timestamp that is not Unix seconds", async () => {
    const { payload, headers } = await signed();
    for (const bad of ["2026-11-21T10:24:42Z", "-5", "1.5", "1795256682x", " 1795256682", "1795256682000"]) {
      const error = await rejection(verifyWebhook(payload, { ...headers, "webhook-timestamp": bad }, EXAMPLE_SECRET, { now: NOW }));
      expect(error).toMatchObject({
        code: "invalid_timestamp",
        message: `The webhook-timestamp header is not a Unix time in seconds: ${JSON.stringify(bad)}.`,
      });
    }
    // Twelve digits are still seconds (until the year 33658); one is too.
    await rejects(
      verifyWebhook(payload, { ...headers, "webhook-timestamp": "179525668200" }, EXAMPLE_SECRET, { now: NOW }),
      "timestamp_too_new",
    );
    await rejects(verifyWebhook(payload, { ...headers, "webhook-timestamp": "1" }, EXAMPLE_SECRET, { now: NOW }), "timestamp_too_old");
  });

  it.each(["webhook-id", "webhook-timestamp", "webhook-signature"])("rejects a delivery without %s, naming it", async (name) => {
    const { payload, headers } = await signed();
    delete headers[name];
    const error = await rejection(verifyWebhook(payload, headers, EXAMPLE_SECRET, { now: NOW }));
    expect(error.code).toBe("missing_header");
    expect(error.message).toBe(`The ${name} header is missing.`);
    // An empty value is as good as none.
    const empty = await rejection(verifyWebhook(payload, { ...headers, [name]: "" }, EXAMPLE_SECRET, { now: NOW }));
    expect(empty).toMatchObject({ code: "missing_header", message: `The ${name} header is missing.` });
  });

  it.each([
    ["nothing but the version", "v1"],
    ["the version and a comma", "v1,"],
    ["the first character of the right signature", "first"],
    ["the right signature less its last character", "all but last"],
    ["the right signature with one more character", "one more"],
  ])("rejects a signature that is %s, on Node and on runtimes without node:crypto", async (_, kind) => {
    const { payload, headers } = await signed();
    const right = headers["webhook-signature"]!;
    const value =
      kind === "first" ? right.slice(0, 4) : kind === "all but last" ? right.slice(0, -1) : kind === "one more" ? `${right}A` : kind;
    for (const [runtime, run] of RUNTIMES) {
      const error = await rejection(
        run(() => verifyWebhook(payload, { ...headers, "webhook-signature": value }, EXAMPLE_SECRET, { now: NOW })),
      );
      expect(error, runtime).toMatchObject({
        code: "invalid_signature",
        message: "No v1 signature in webhook-signature matches the body under this secret.",
      });
    }
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

  it("takes several secrets while one is rotated: a delivery signed under any of them, in any place of the list", async () => {
    const event = exampleEvent("transaction-settled");
    const payload = JSON.stringify(event);
    for (const secret of [EXAMPLE_SECRET, OTHER_SECRET]) {
      const headers = await signWebhook({ id: event.id, timestamp: NOW, payload, secret });
      for (const secrets of [
        [EXAMPLE_SECRET, OTHER_SECRET],
        [OTHER_SECRET, EXAMPLE_SECRET],
        [secret],
        [secret.slice("whsec_".length), "whsec_AAAAAAAAAAAAAAAAAAAAAAAA"],
      ])
        await expect(verifyWebhook(payload, headers, secrets, { now: NOW }), secrets.join(" ")).resolves.toEqual(event);
    }
  });

  it("with several secrets, compares every signature of the header under each: one signed under each secret, in any order", async () => {
    const event = exampleEvent("session-completed");
    const payload = JSON.stringify(event);
    const sign = async (secret: string) => (await signWebhook({ id: event.id, timestamp: NOW, payload, secret }))["webhook-signature"];
    const [current, other] = [await sign(EXAMPLE_SECRET), await sign(OTHER_SECRET)];
    const headers = (signatures: string) => ({
      "webhook-id": event.id,
      "webhook-timestamp": String(NOW.getTime() / 1000),
      "webhook-signature": signatures,
    });
    for (const signatures of [`${current} ${other}`, `${other} ${current}`, `v1,bm90IHRoaXMgb25l ${other}`])
      for (const secrets of [[EXAMPLE_SECRET, OTHER_SECRET], [OTHER_SECRET, EXAMPLE_SECRET], [OTHER_SECRET]])
        await expect(verifyWebhook(payload, headers(signatures), secrets, { now: NOW })).resolves.toEqual(event);
  });

  it("refuses a delivery that none of several secrets signed, saying how many it tried", async () => {
    const { payload, headers } = await signed(undefined, "whsec_AAAAAAAAAAAAAAAAAAAAAAAA");
    const error = await rejection(verifyWebhook(payload, headers, [EXAMPLE_SECRET, OTHER_SECRET], { now: NOW }));
    expect(error).toMatchObject({
      code: "invalid_signature",
      message: "No v1 signature in webhook-signature matches the body under any of these 2 secrets.",
    });
    // One secret in a list is said as one.
    const one = await rejection(verifyWebhook(payload, headers, [EXAMPLE_SECRET], { now: NOW }));
    expect(one.message).toBe("No v1 signature in webhook-signature matches the body under this secret.");
  });

  it("refuses an empty list of secrets, and a list with one that is not a secret, as invalid_secret", async () => {
    const { payload, headers } = await signed();
    const empty = await rejection(verifyWebhook(payload, headers, [], { now: NOW }));
    expect(empty).toMatchObject({ code: "invalid_secret", message: "The list of signing secrets is empty: give at least one." });
    for (const secrets of [
      [EXAMPLE_SECRET, "whsec_"],
      ["plain!", EXAMPLE_SECRET],
    ]) {
      const error = await rejection(verifyWebhook(payload, headers, secrets, { now: NOW }));
      expect(error, secrets.join(" ")).toMatchObject({ code: "invalid_secret", message: `The signing secret must be ${SECRET_FORM}.` });
    }
    const unset = await rejection(verifyWebhook(payload, headers, [EXAMPLE_SECRET, undefined as unknown as string], { now: NOW }));
    expect(unset).toMatchObject({ code: "invalid_secret", message: "The signing secret is undefined, not a string: is it configured?" });
  });

  it("rejects a signed event that breaks its schema, naming the field", async () => {
    const event = exampleEvent("transaction-completed");
    delete event.data.transaction_id;
    const { payload, headers } = await signed(event);
    const error = await rejection(verifyWebhook(payload, headers, EXAMPLE_SECRET, { now: NOW }));
    expect(error.code).toBe("invalid_event");
    expect(error.errors).toContainEqual({ field: "data.transaction_id", message: "is required" });
  });

  // Names every object has through its prototype: looked up carelessly, `constructor` finds
  // Object, which "validates" anything. Each is a type this version does not know (D22).
  it.each(["transaction-refunded", "session.created", "constructor", "toString", "__proto__", "hasOwnProperty", "valueOf", ""])(
    "rejects a signed event of type %j, which is not one this version knows, as unknown_event_type without validating it",
    async (type) => {
      const event = { ...exampleEvent("session-created") };
      Object.defineProperty(event, "type", { value: type, enumerable: true });
      const error = await rejection(verifyWebhook(...(await args(event))));
      expect(error).toMatchObject({
        code: "unknown_event_type",
        message: `The event type ${JSON.stringify(type)} is not one this version knows: acknowledge it with 2xx and ignore it.`,
        errors: [],
      });
    },
  );

  it("checks the signature before it looks at an unknown type: a forged one is invalid_signature", async () => {
    const event = { ...exampleEvent("session-created"), type: "transaction-refunded" };
    const { payload, headers } = await signed(event);
    await rejects(verifyWebhook(payload, headers, OTHER_SECRET, { now: NOW }), "invalid_signature");
  });

  it.each([
    ["no type", {}],
    ["a type that is not a string", { type: 7 }],
    ["null", null],
    ["an array", []],
  ])("rejects a signed body with %s as invalid_event", async (_, body) => {
    const payload = JSON.stringify(body);
    const headers = await signWebhook({ id: "msg_1", timestamp: NOW, payload, secret: EXAMPLE_SECRET });
    const error = await rejection(verifyWebhook(payload, headers, EXAMPLE_SECRET, { now: NOW }));
    expect(error).toMatchObject({
      code: "invalid_event",
      message: "The body has no event type: it is not an event.",
      errors: [{ field: "type", message: "must be one of the event types" }],
    });
  });

  it("rejects a signed event whose id is not the webhook-id", async () => {
    const event = exampleEvent("session-created");
    const payload = JSON.stringify(event);
    const headers = await signWebhook({ id: "msg_other", timestamp: NOW, payload, secret: EXAMPLE_SECRET });
    const error = await rejection(verifyWebhook(payload, headers, EXAMPLE_SECRET, { now: NOW }));
    expect(error).toMatchObject({
      code: "invalid_event",
      message: `The event id ${event.id} differs from the webhook-id header msg_other.`,
      errors: [{ field: "id", message: "must equal the webhook-id header" }],
    });
  });

  it("rejects a signed body that is not JSON", async () => {
    const headers = await signWebhook({ id: "msg_1", timestamp: NOW, payload: "not json", secret: EXAMPLE_SECRET });
    const error = await rejection(verifyWebhook("not json", headers, EXAMPLE_SECRET, { now: NOW }));
    expect(error.code).toBe("invalid_payload");
    expect(error.message).toMatch(/^The body is not UTF-8 JSON: Unexpected token/);
  });

  it("rejects a signed valid event whose bytes are not UTF-8, instead of reading them as U+FFFD", async () => {
    // A valid event in every other way: only the decoder can reject it.
    const event = exampleEvent("transaction-completed");
    event.data.order_id = "ORD-\u0000";
    const text = JSON.stringify(event).replace("\\u0000", "\u0000");
    const bytes = new TextEncoder().encode(text);
    bytes[bytes.indexOf(0)] = 0xff;
    const headers = await signWebhook({ id: event.id, timestamp: NOW, payload: bytes, secret: EXAMPLE_SECRET });
    const error = await rejection(verifyWebhook(bytes, headers, EXAMPLE_SECRET, { now: NOW }));
    expect(error.code).toBe("invalid_payload");
    expect(error.message).toMatch(/^The body is not UTF-8 JSON: .*encoded data was not valid/);
  });

  it.each([
    ["an object", { type: "session-created" }],
    ["null", null],
    ["a number", 42],
    ["a Node Buffer's JSON", { type: "Buffer", data: [123, 125] }],
  ])("rejects a body that is %s (a parsed body, not the raw one) before anything else", async (_, body) => {
    const error = await rejection(verifyWebhook(body as unknown as string, {}, EXAMPLE_SECRET, { now: NOW }));
    expect(error).toMatchObject({ code: "invalid_payload", message: "The body must be the raw request body, as a string or bytes." });
  });

  it.each(RUNTIMES)("signs and verifies on %s", async (_, run) => {
    const event = exampleEvent("transaction-completed");
    const payload = JSON.stringify(event);
    const headers = await run(() => signWebhook({ id: event.id, timestamp: NOW, payload, secret: EXAMPLE_SECRET }));
    // The same signature as on Node, which the reference library's tests (interop) hold.
    expect(headers).toEqual(await signWebhook({ id: event.id, timestamp: NOW, payload, secret: EXAMPLE_SECRET }));
    await expect(run(() => verifyWebhook(payload, headers, EXAMPLE_SECRET, { now: NOW }))).resolves.toEqual(event);
    const bytes = new TextEncoder().encode(payload);
    await expect(run(() => verifyWebhook(bytes, headers, EXAMPLE_SECRET, { now: NOW }))).resolves.toEqual(event);
    await rejects(
      run(() => verifyWebhook(payload, headers, OTHER_SECRET, { now: NOW })),
      "invalid_signature",
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
    const tolerance = (t: number) => verifyWebhook(payload, headers, EXAMPLE_SECRET, { now: NOW, toleranceSeconds: t });
    await expect(tolerance(Number(undefined))).rejects.toThrow(new TypeError("toleranceSeconds must be a number of seconds ≥ 0, not NaN"));
    await expect(tolerance(Infinity)).rejects.toThrow(new TypeError("toleranceSeconds must be a number of seconds ≥ 0, not Infinity"));
    await expect(tolerance(-1)).rejects.toThrow(new TypeError("toleranceSeconds must be a number of seconds ≥ 0, not -1"));
    for (const now of [new Date("not a date"), NaN, Infinity])
      await expect(verifyWebhook(payload, headers, EXAMPLE_SECRET, { now })).rejects.toThrow(
        new TypeError("now must be a valid Date or a number of seconds"),
      );
  });

  // Every code maps to its status and title; only a schema failure carries errors[].
  it.each([
    ["invalid_secret", 500, "Webhook receiver misconfigured"],
    ["missing_header", 401, "Webhook verification failed"],
    ["invalid_timestamp", 401, "Webhook verification failed"],
    ["timestamp_too_old", 401, "Webhook verification failed"],
    ["timestamp_too_new", 401, "Webhook verification failed"],
    ["invalid_signature", 401, "Webhook verification failed"],
    ["invalid_payload", 400, "Invalid webhook event"],
    ["invalid_event", 400, "Invalid webhook event"],
    ["unknown_event_type", 400, "Invalid webhook event"],
  ] as const)("turns %s into the contract's problem details: %i %s", (code, status, title) => {
    const problem = new WebhookVerificationError(code, "What went wrong.").toProblem();
    expect(problem).toEqual({
      type: `https://docs.payin.example.com/problems/webhook_${code}`,
      title,
      status,
      detail: "What went wrong.",
      code: `webhook_${code}`,
    });
    const errors = [{ field: "data", message: "must have required property 'x'" }];
    expect(new WebhookVerificationError(code, "What went wrong.", errors).toProblem()).toEqual({ ...problem, errors });
  });

  it("is an Error named WebhookVerificationError, with no errors unless given", () => {
    const error = new WebhookVerificationError("invalid_event", "Bad.");
    expect(error).toBeInstanceOf(Error);
    expect(error.name).toBe("WebhookVerificationError");
    expect(error.errors).toEqual([]);
    expect(error.message).toBe("Bad.");
  });

  it("names a missing top-level field by its own name", async () => {
    const event = exampleEvent("session-expired");
    delete event.timestamp;
    const { payload, headers } = await signed(event);
    const error = await rejection(verifyWebhook(payload, headers, EXAMPLE_SECRET, { now: NOW }));
    expect(error.errors).toEqual([{ field: "timestamp", message: "is required" }]);
  });

  it("names the whole body (body) when an error is about the body itself", async () => {
    // No event schema checks the body as a whole today (a body with a known type is an object),
    // so a validator that does stands in for one.
    const validators = EVENT_VALIDATORS as Record<string, EventValidator>;
    const original = validators["session-expired"]!;
    const error = {
      instancePath: "",
      schemaPath: "#/minProperties",
      keyword: "minProperties",
      params: { limit: 99 },
      message: "must NOT have fewer than 99 properties",
    };
    validators["session-expired"] = Object.assign(() => false, { errors: [error] });
    try {
      const rejected = await rejection(verifyWebhook(...(await args(exampleEvent("session-expired")))));
      expect(rejected.errors).toEqual([{ field: "(body)", message: "must NOT have fewer than 99 properties" }]);
      expect(rejected.message).toBe("The session-expired event breaks its schema: (body) must NOT have fewer than 99 properties.");
    } finally {
      validators["session-expired"] = original;
    }
  });

  it("names every field that breaks the schema in its message and errors[]", async () => {
    const event = exampleEvent("transaction-completed");
    delete event.data.transaction_id;
    event.data.currency = "euro";
    const { payload, headers } = await signed(event);
    const error = await rejection(verifyWebhook(payload, headers, EXAMPLE_SECRET, { now: NOW }));
    expect(error.errors).toEqual([
      { field: "data.transaction_id", message: "is required" },
      { field: "data.currency", message: 'must match pattern "^[A-Z]{3}$"' },
    ]);
    expect(error.message).toBe(
      'The transaction-completed event breaks its schema: data.transaction_id is required; data.currency must match pattern "^[A-Z]{3}$".',
    );
  });

  it("tells a status no session has only its event's one, once; a field that breaks two rules, both", async () => {
    for (const status of ["bogus", "completed"]) {
      const event = exampleEvent("session-created");
      event.data.status = status;
      const error = await rejection(verifyWebhook(...(await args(event))));
      expect([status, error.errors]).toEqual([status, [{ field: "data.status", message: 'must be "created"' }]]);
      expect(error.message).toBe('The session-created event breaks its schema: data.status must be "created".');
    }
    const event = exampleEvent("session-created");
    event.data.order_id = "\u0001".repeat(129);
    const error = await rejection(verifyWebhook(...(await args(event))));
    expect(error.errors).toEqual([
      { field: "data.order_id", message: String.raw`must match pattern "^[^\x00-\x1F\x7F-\x9F]*$"` },
      { field: "data.order_id", message: "must NOT have more than 128 characters" },
    ]);
  });
});

async function args(event: any): Promise<Parameters<typeof verifyWebhook>> {
  const { payload, headers } = await signed(event);
  return [payload, headers, EXAMPLE_SECRET, { now: NOW }];
}
