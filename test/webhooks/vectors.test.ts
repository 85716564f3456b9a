// The webhook test vectors that merchants run their own verifiers against (generated/webhook-vectors.json):
// valid against their schema, covering every hard case, and agreed with by verifyWebhook (the
// signature's verdict and the event's) and by a verifier written from the Standard Webhooks
// specification alone (the signature's).
import { readFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { generatedDir } from "../../scripts/lib/paths.ts";
import {
  EVENT_REASONS,
  SIGNATURE_REASONS,
  VECTORS_FILE,
  VECTORS_SCHEMA_FILE,
  type WebhookVector,
  type WebhookVectors,
} from "../../scripts/lib/webhook-vectors.ts";
import { EVENT_TYPES } from "../../src/webhooks/index.ts";
import { verifyWebhook, WebhookVerificationError } from "../../src/webhooks/index.ts";
import { createAjv } from "../support/ajv.ts";
import { specVerify } from "./spec-verifier.ts";

const read = (file: string) => JSON.parse(readFileSync(path.join(generatedDir, file), "utf8"));
const vectors: WebhookVectors = read(VECTORS_FILE);
const schema = read(VECTORS_SCHEMA_FILE);
const ids = vectors.cases.map((c) => c.id);
const body = (vector: WebhookVector) => new Uint8Array(Buffer.from(vector.body_base64, "base64"));

/** What verifyWebhook answers, in the vectors' terms. */
async function verdictOf(vector: WebhookVector, secrets: string | readonly string[] = vector.secrets) {
  try {
    const event = await verifyWebhook(body(vector), vector.headers, secrets, {
      now: vector.now,
      toleranceSeconds: vectors.tolerance_seconds,
    });
    return { signature: { valid: true }, event: { valid: true, type: event.type } };
  } catch (error) {
    if (!(error instanceof WebhookVerificationError)) throw error;
    if ((SIGNATURE_REASONS as readonly string[]).includes(error.code))
      return { signature: { valid: false, reason: error.code }, event: null };
    if ((EVENT_REASONS as readonly string[]).includes(error.code))
      return { signature: { valid: true }, event: { valid: false, reason: error.code } };
    throw error;
  }
}

/** The cases each hard case must have, by group. */
const REQUIRED: Record<string, string[]> = {
  "several signatures, one valid": ["several-signatures-valid-first", "several-signatures-valid-middle", "several-signatures-valid-last"],
  "a rotated secret": ["rotation-signed-with-old-secret", "rotation-signed-with-new-secret"],
  "v1a and unknown versions beside a valid v1": ["v1a-beside-valid-v1", "unknown-version-beside-valid-v1"],
  "a trailing comma, extra spaces": ["signature-trailing-comma", "signatures-extra-spaces"],
  "bytes that change but not the JSON": [
    "body-pretty-printed",
    "body-keys-reordered",
    "body-escaped-non-ascii",
    "body-spanish-text",
    "body-escaped-solidus",
    "body-cjk-text",
    "body-emoji",
  ],
  "signed over re-serialised JSON": ["reserialised-escapes", "reserialised-whitespace"],
  "a byte changed": ["body-one-byte-changed"],
  "timestamps at, inside and outside the tolerance": [
    "timestamp-past-at-tolerance",
    "timestamp-past-inside-tolerance",
    "timestamp-past-outside-tolerance",
    "timestamp-future-at-tolerance",
    "timestamp-future-inside-tolerance",
    "timestamp-future-outside-tolerance",
  ],
  "each header missing or empty": ["webhook-id", "webhook-timestamp", "webhook-signature"].flatMap((h) => [`missing-${h}`, `empty-${h}`]),
  "the signature header malformed": ["signature-no-comma", "signature-not-base64", "signature-empty-entries"],
  "a timestamp not digits, signed, too long": [
    "timestamp-not-digits",
    "timestamp-plus-sign",
    "timestamp-minus-sign",
    "timestamp-milliseconds",
  ],
  "a secret with and without whsec_, and a wrong one": ["event-transaction-completed", "secret-without-prefix", "wrong-secret"],
  "each event type": EVENT_TYPES.map((type) => `event-${type}`),
  "events the package refuses": ["body-not-json", "unknown-event-type", "event-missing-field", "event-id-differs-from-webhook-id"],
};

describe(`${VECTORS_FILE}`, () => {
  it("is valid against its schema, which it names", () => {
    const validate = createAjv().compile(schema);
    expect(validate(vectors), JSON.stringify(validate.errors, null, 2)).toBe(true);
    expect(vectors.$schema).toBe(`./${VECTORS_SCHEMA_FILE}`);
    expect(vectors.tolerance_seconds).toBe(300);
  });

  it("has a schema that refuses an event verdict where the signature fails, an unknown reason, a header of another name", () => {
    const validate = createAjv().compile(schema);
    const refused = vectors.cases.find((c) => !c.signature.valid)!;
    const valid = vectors.cases.find((c) => c.signature.valid && c.event?.valid)!;
    for (const broken of [
      { ...refused, event: { valid: true, type: "session-created" } },
      { ...valid, event: null },
      { ...refused, signature: { valid: false, reason: "expired" } },
      { ...valid, headers: { ...valid.headers, "Webhook-Id": "msg_1" } },
      { ...valid, id: "Not Kebab" },
      { ...valid, secrets: [] },
    ])
      expect(validate({ ...vectors, cases: [broken] }), JSON.stringify(broken)).toBe(false);
  });

  it("has at least 40 cases, each id once", () => {
    expect(vectors.cases.length).toBeGreaterThanOrEqual(40);
    expect(ids.filter((id, i) => ids.indexOf(id) !== i)).toEqual([]);
  });

  it.each(Object.entries(REQUIRED))("covers %s", (_, required) => {
    expect(required.filter((id) => !ids.includes(id))).toEqual([]);
  });

  it("gives both verdicts, valid and refused, and every reason at least once", () => {
    const reasons = new Set(
      vectors.cases.flatMap((c) => [c.signature, c.event ?? { valid: true }]).map((v) => ("reason" in v ? v.reason : "")),
    );
    expect([...SIGNATURE_REASONS, ...EVENT_REASONS].filter((reason) => !reasons.has(reason))).toEqual([]);
    expect(vectors.cases.some((c) => c.secrets.length > 1)).toBe(true);
    expect(vectors.cases.some((c) => c.secrets.some((s) => !s.startsWith("whsec_")))).toBe(true);
  });

  it.each(vectors.cases.map((c) => [c.id, c] as const))("verifyWebhook agrees with %s", async (_, vector) => {
    expect(await verdictOf(vector)).toEqual({ signature: vector.signature, event: vector.event });
    // One secret is the same as a list of it.
    if (vector.secrets.length === 1) expect(await verdictOf(vector, vector.secrets[0]!)).toEqual(await verdictOf(vector));
  });

  it.each(vectors.cases.map((c) => [c.id, c] as const))("a verifier written from the specification agrees with %s", (_, vector) => {
    const verdict = specVerify({
      headers: vector.headers as Record<string, string>,
      body: body(vector),
      secrets: vector.secrets,
      now: vector.now,
      toleranceSeconds: vectors.tolerance_seconds,
    });
    expect(verdict).toEqual(vector.signature);
  });

  it("the verifier written from the specification is no yes-sayer: a bit of a valid case's body changed, it refuses it", () => {
    expect(vectors.cases.filter((c) => !c.signature.valid).length).toBeGreaterThan(20);
    const valid = vectors.cases.find((c) => c.id === "event-transaction-completed")!;
    const bytes = body(valid);
    bytes[0] = bytes[0]! ^ 1;
    expect(
      specVerify({
        headers: valid.headers as Record<string, string>,
        body: bytes,
        secrets: valid.secrets,
        now: valid.now,
        toleranceSeconds: 300,
      }),
    ).toEqual({
      valid: false,
      reason: "invalid_signature",
    });
  });
});
