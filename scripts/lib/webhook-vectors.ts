// The webhook test vectors (generated/webhook-vectors.json): deliveries signed by the package's
// own signer on a fixed clock, each with the verdict the package's verifier gives, so that a
// merchant's verifier in any language can be held to the same answers on the hard cases. The
// verdicts are written here as what each case is made to show; test/webhooks/vectors.test.ts
// holds verifyWebhook, and a verifier written from the Standard Webhooks specification alone, to
// every one of them.
import { EVENT_TYPES, type PayinEventType } from "../../generated/event-types.ts";
import { TIMESTAMP_TOLERANCE_SECONDS } from "../../src/lib/contract-facts.ts";
import { eventPayload } from "../../src/lib/event-payload.ts";
import { secretKey } from "../../src/webhooks/secret.ts";
import { signature } from "../../src/webhooks/sign.ts";

/** Why a delivery's signature does not hold, in the order the checks run. */
export const SIGNATURE_REASONS = [
  "missing_header",
  "invalid_timestamp",
  "timestamp_too_old",
  "timestamp_too_new",
  "invalid_signature",
] as const;
/** Why a delivery whose signature holds is not an event this version accepts. */
export const EVENT_REASONS = ["invalid_payload", "invalid_event", "unknown_event_type"] as const;
export const HEADER_NAMES = ["webhook-id", "webhook-timestamp", "webhook-signature"] as const;

export type SignatureVerdict = { valid: true } | { valid: false; reason: (typeof SIGNATURE_REASONS)[number] };
export type EventVerdict = { valid: true; type: PayinEventType } | { valid: false; reason: (typeof EVENT_REASONS)[number] } | null;

export interface WebhookVector {
  id: string;
  description: string;
  secrets: string[];
  headers: Partial<Record<(typeof HEADER_NAMES)[number], string>>;
  body_base64: string;
  now: number;
  signature: SignatureVerdict;
  event: EventVerdict;
}

export interface WebhookVectors {
  $schema: string;
  version: 1;
  description: string;
  tolerance_seconds: number;
  cases: WebhookVector[];
}

/** Where the build writes them, beside their schema (both exported by the package). */
export const VECTORS_FILE = "webhook-vectors.json";
export const VECTORS_SCHEMA_FILE = "webhook-vectors.schema.json";

/** The verifier's clock in every case: 2026-01-01T00:00:00Z. */
const NOW = 1767225600;
// Secrets of this file only, made once at random: no account has them.
const SECRET = "whsec_k0aAsOxz859n41x3bQtZRDcHiRJv5eXs";
const OLD_SECRET = "whsec_W7QRx7krTAbyczQK0b3p4zZkYMgbxEbx";
const OTHER_SECRET = "whsec_L/T4WAY4tZ5L7bYxGyjtw5QiDQZF/MKX";
/** 32 key bytes, where the others have 24: its base64 ends in padding. */
const PADDED_SECRET = "whsec_3PM5Dosk0pZpWDfdS4kZ9zcQis2vuS0ZzvKBOirUkpo=";
const withoutPrefix = (secret: string) => secret.slice("whsec_".length);

const utf8 = (text: string) => new TextEncoder().encode(text);
const VALID: SignatureVerdict = { valid: true };
const refused = (reason: (typeof SIGNATURE_REASONS)[number]): SignatureVerdict => ({ valid: false, reason });
const eventRefused = (reason: (typeof EVENT_REASONS)[number]): EventVerdict => ({ valid: false, reason });

/** An event of `type` as the service sends it (eventPayload), with fixed ids and the fixed clock. */
function event(type: PayinEventType, id: string, orderId = "ORD-2026-000731"): Record<string, any> {
  return JSON.parse(
    eventPayload({
      id,
      type,
      timestamp: new Date(NOW * 1000).toISOString(),
      sessionId: "ps_3Nf8Kd1WzQ6v",
      counterpartyId: "cp_7Hq2Lx9RbT4m",
      request: { order_id: orderId, amount: 49.99, currency: "EUR" },
      transactionId: "txn_9Vb5Mc2XpL8s",
      failureReason: "card_declined",
    }),
  );
}

/** The `v1,<base64>` signature of a delivery under one secret. */
const sign = (id: string, timestamp: string, body: Uint8Array, secret: string) => signature(id, timestamp, body, secretKey(secret));

interface Delivery {
  id: string;
  timestamp: string;
  body: Uint8Array;
  /** Its one signature under SECRET, `v1,…`. */
  signature: string;
}

/** A delivery signed under SECRET: the event's compact JSON unless `body` is given, at `timestamp` (default now). */
async function delivery(id: string, { body, timestamp = String(NOW) }: { body?: string | Uint8Array; timestamp?: string } = {}) {
  const bytes = typeof body === "string" ? utf8(body) : (body ?? utf8(JSON.stringify(event("transaction-completed", id))));
  return { id, timestamp, body: bytes, signature: await sign(id, timestamp, bytes, SECRET) } satisfies Delivery;
}

/** A signature's MAC alone, without its `v1,`. */
const mac = (signed: string) => signed.slice("v1,".length);
/** Another v1 signature that matches nothing: the MAC of other bytes under a secret of no one's. */
const stranger = async (label: string) => sign(label, String(NOW), utf8(label), OTHER_SECRET);

interface CaseInput {
  description: string;
  delivery: Delivery;
  /** The headers as sent; default the delivery's own three. */
  headers?: WebhookVector["headers"];
  secrets?: string[];
  signature: SignatureVerdict;
  /** What the body is once the signature holds; default the valid event the body is. */
  event?: EventVerdict;
}

const base64 = (bytes: Uint8Array) => Buffer.from(bytes).toString("base64");

function vector(id: string, input: CaseInput): WebhookVector {
  const { delivery: sent, signature: verdict } = input;
  const headers = input.headers ?? {
    "webhook-id": sent.id,
    "webhook-timestamp": sent.timestamp,
    "webhook-signature": sent.signature,
  };
  let event = input.event;
  if (event === undefined) event = { valid: true, type: JSON.parse(new TextDecoder().decode(sent.body)).type };
  return {
    id,
    description: input.description,
    secrets: input.secrets ?? [SECRET],
    headers,
    body_base64: base64(sent.body),
    now: NOW,
    signature: verdict,
    event: verdict.valid ? event : null,
  };
}

/** The headers of a delivery with one changed (`undefined` leaves it out). */
const headersWith = (sent: Delivery, name: (typeof HEADER_NAMES)[number], value: string | undefined): WebhookVector["headers"] => {
  const headers: WebhookVector["headers"] = {
    "webhook-id": sent.id,
    "webhook-timestamp": sent.timestamp,
    "webhook-signature": sent.signature,
  };
  if (value === undefined) delete headers[name];
  else headers[name] = value;
  return headers;
};

/** Every case, in groups: what the signature holds to, then what the body is once it does. */
async function cases(): Promise<WebhookVector[]> {
  const all: WebhookVector[] = [];
  const add = (id: string, input: CaseInput) => all.push(vector(id, input));

  // Each event type, as the service sends it.
  for (const type of EVENT_TYPES) {
    const id = `msg_vectors_${type.replaceAll("-", "_")}`;
    const body = JSON.stringify(event(type, id));
    add(`event-${type}`, {
      description: `A ${type} event as the service sends it, signed with the secret.`,
      delivery: await delivery(id, { body }),
      signature: VALID,
    });
  }

  // Secrets: the prefix, the key's length, the wrong one, a rotation.
  const plain = await delivery("msg_vectors_secrets");
  add("secret-without-prefix", {
    description: "The secret given without its whsec_ prefix: the rest is the same base64 key.",
    delivery: plain,
    secrets: [withoutPrefix(SECRET)],
    signature: VALID,
  });
  const padded = await delivery("msg_vectors_padded_secret");
  add("secret-with-padding", {
    description: "A secret of 32 key bytes, whose base64 ends in '=': decoded whole, padding included.",
    delivery: { ...padded, signature: await sign(padded.id, padded.timestamp, padded.body, PADDED_SECRET) },
    secrets: [PADDED_SECRET],
    signature: VALID,
  });
  add("wrong-secret", {
    description: "Signed with a secret that is not the endpoint's: a forgery.",
    delivery: plain,
    secrets: [OTHER_SECRET],
    signature: refused("invalid_signature"),
  });
  const rotated = await delivery("msg_vectors_rotation");
  const underOld = await sign(rotated.id, rotated.timestamp, rotated.body, OLD_SECRET);
  add("rotation-signed-with-old-secret", {
    description: "During a rotation the endpoint holds the new and the old secret; the delivery is signed with the old one.",
    delivery: { ...rotated, signature: underOld },
    secrets: [SECRET, OLD_SECRET],
    signature: VALID,
  });
  add("rotation-signed-with-new-secret", {
    description: "During a rotation the endpoint holds the new and the old secret; the delivery is signed with the new one.",
    delivery: rotated,
    secrets: [SECRET, OLD_SECRET],
    signature: VALID,
  });
  add("rotation-old-secret-without-prefix", {
    description: "During a rotation, the old secret given without its whsec_ prefix still verifies what it signed.",
    delivery: { ...rotated, signature: underOld },
    secrets: [SECRET, withoutPrefix(OLD_SECRET)],
    signature: VALID,
  });
  add("rotation-signed-with-both", {
    description: "The sender signs with both secrets during a rotation; the endpoint holds only the old one.",
    delivery: { ...rotated, signature: `${rotated.signature} ${underOld}` },
    secrets: [OLD_SECRET],
    signature: VALID,
  });
  add("rotation-signed-with-neither", {
    description: "The endpoint holds two secrets and the delivery is signed with a third.",
    delivery: { ...rotated, signature: await sign(rotated.id, rotated.timestamp, rotated.body, OTHER_SECRET) },
    secrets: [SECRET, OLD_SECRET],
    signature: refused("invalid_signature"),
  });

  // Several signatures in one header, and versions other than v1.
  const several = await delivery("msg_vectors_several");
  const [a, b] = [await stranger("a"), await stranger("b")];
  for (const [place, list] of [
    ["first", [several.signature, a, b]],
    ["middle", [a, several.signature, b]],
    ["last", [a, b, several.signature]],
  ] as const)
    add(`several-signatures-valid-${place}`, {
      description: `Three v1 signatures separated by spaces, the valid one ${place}.`,
      delivery: { ...several, signature: list.join(" ") },
      signature: VALID,
    });
  add("several-signatures-none-valid", {
    description: "Three v1 signatures separated by spaces, none of them valid.",
    delivery: { ...several, signature: [a, b, await stranger("c")].join(" ") },
    signature: refused("invalid_signature"),
  });
  add("v1a-beside-valid-v1", {
    description: "A v1a (asymmetric) signature, which an HMAC verifier skips, before a valid v1 one.",
    delivery: { ...several, signature: `v1a,${base64(new Uint8Array(64).fill(7))} ${several.signature}` },
    signature: VALID,
  });
  add("unknown-version-beside-valid-v1", {
    description: "A signature of a version this verifier does not know (v2), skipped, before a valid v1 one.",
    delivery: { ...several, signature: `v2,${mac(a)} ${several.signature}` },
    signature: VALID,
  });
  add("v1a-with-the-v1-mac", {
    description: "The right HMAC labelled v1a: only a v1 entry may carry an HMAC, so nothing matches.",
    delivery: { ...several, signature: `v1a,${mac(several.signature)}` },
    signature: refused("invalid_signature"),
  });
  add("unknown-version-with-the-v1-mac", {
    description: "The right HMAC labelled v2, a version this verifier does not know: nothing matches.",
    delivery: { ...several, signature: `v2,${mac(several.signature)}` },
    signature: refused("invalid_signature"),
  });
  add("signature-trailing-comma", {
    description: "The valid signature followed by a comma, as a proxy leaves it when it joins a repeated header: the comma is dropped.",
    delivery: { ...several, signature: `${several.signature},` },
    signature: VALID,
  });
  add("signatures-joined-by-proxy", {
    description: "Two signature headers joined by a proxy with ', ' (RFC 9110), the valid one second.",
    delivery: { ...several, signature: `${a}, ${several.signature}` },
    signature: VALID,
  });
  add("signatures-extra-spaces", {
    description: "Two spaces between the entries: the empty entry between them matches nothing, the valid one still does.",
    delivery: { ...several, signature: `${a}  ${several.signature}` },
    signature: VALID,
  });

  // The signature header malformed.
  const malformed = await delivery("msg_vectors_malformed");
  const good = mac(malformed.signature);
  const badHeader = (id: string, description: string, value: string) =>
    add(id, { description, delivery: { ...malformed, signature: value }, signature: refused("invalid_signature") });
  badHeader("signature-no-comma", "The version and the MAC with no comma between them.", `v1${good}`);
  badHeader("signature-without-version", "The right MAC alone, without its v1, prefix.", good);
  badHeader("signature-version-only", "An entry of the version and the comma, with no MAC after it.", "v1,");
  badHeader("signature-empty-entries", "Entries with nothing in them, then a version with no MAC.", ", , v1,");
  badHeader("signature-not-base64", "A v1 entry whose MAC is not base64 at all.", "v1,this is not base64!");
  badHeader("signature-uppercase-version", "The right MAC under V1, in capitals: versions are compared exactly.", `V1,${good}`);
  badHeader(
    "signature-without-padding",
    "The right MAC with its base64 padding removed: signatures are compared as sent, not decoded.",
    `v1,${good.replace(/=+$/, "")}`,
  );
  let urlSafe = malformed;
  for (let n = 0; !/[+/]/.test(mac(urlSafe.signature)); n++) urlSafe = await delivery(`msg_vectors_base64url_${n}`);
  add("signature-base64url", {
    description: "The right MAC in the URL-safe base64 alphabet (- and _ for + and /): not the standard base64 the signature is.",
    delivery: { ...urlSafe, signature: `v1,${mac(urlSafe.signature).replaceAll("+", "-").replaceAll("/", "_")}` },
    signature: refused("invalid_signature"),
  });

  // Changed after signing.
  const changed = await delivery("msg_vectors_changed");
  const text = new TextDecoder().decode(changed.body);
  add("body-one-byte-changed", {
    description: "One byte of the body changed after signing (49.99 became 19.99).",
    delivery: { ...changed, body: utf8(text.replace("49.99", "19.99")) },
    signature: refused("invalid_signature"),
  });
  add("webhook-id-changed", {
    description: "The webhook-id header is not the id the signature was made over.",
    delivery: changed,
    headers: headersWith(changed, "webhook-id", "msg_vectors_other"),
    signature: refused("invalid_signature"),
  });
  add("timestamp-changed", {
    description: "The webhook-timestamp header one second later than the one signed, still within the tolerance.",
    delivery: changed,
    headers: headersWith(changed, "webhook-timestamp", String(NOW + 1)),
    signature: refused("invalid_signature"),
  });

  // Bytes that differ while the JSON is the same: each body is signed over its own bytes.
  const same = (id: string, description: string, body: string) => ({ id, description, body });
  const compact = (id: string, orderId?: string) => JSON.stringify(event("transaction-completed", id, orderId));
  const reordered = (id: string) => {
    const { data, timestamp, type, id: eventId } = event("transaction-completed", id);
    return JSON.stringify({ data, timestamp, type, id: eventId });
  };
  for (const { id, description, body } of [
    same(
      "body-pretty-printed",
      "The event pretty-printed with two-space indents and newlines.",
      JSON.stringify(event("transaction-completed", "msg_vectors_pretty"), null, 2),
    ),
    same(
      "body-crlf-line-endings",
      "The event pretty-printed with CRLF line endings and a final CRLF.",
      `${JSON.stringify(event("transaction-completed", "msg_vectors_crlf"), null, 2).replaceAll("\n", "\r\n")}\r\n`,
    ),
    same("body-keys-reordered", "The event's keys in another order (data first).", reordered("msg_vectors_reordered")),
    same(
      "body-escaped-non-ascii",
      "An order id with é written as the escape \\u00e9 (ASCII bytes).",
      compact("msg_vectors_escaped", "Caf\u00e9-0731").replace("é", "\\u00e9"),
    ),
    same(
      "body-spanish-text",
      "An order id in Spanish, its accents as UTF-8 bytes.",
      compact("msg_vectors_spanish", "Pedido-Ñandú-José-Peña"),
    ),
    same(
      "body-cjk-text",
      "An order id in Japanese, as UTF-8 bytes (three bytes a character).",
      compact("msg_vectors_cjk", "注文-二〇二六-〇七三一"),
    ),
    same("body-emoji", "An order id with an emoji, as UTF-8 bytes (four bytes).", compact("msg_vectors_emoji", "ORD-🎉-0731")),
    same(
      "body-emoji-escaped",
      "An order id with an emoji written as the surrogate pair \\ud83c\\udf89 (ASCII bytes).",
      compact("msg_vectors_emoji_escaped", "ORD-🎉-0731").replace("🎉", "\\ud83c\\udf89"),
    ),
    same(
      "body-escaped-solidus",
      "An order id with slashes written as \\/, which JSON allows.",
      compact("msg_vectors_solidus", "ORD/2026/0731").replaceAll("/", "\\/"),
    ),
    same("body-trailing-newline", "The compact event followed by a newline.", `${compact("msg_vectors_newline")}\n`),
  ])
    add(id, {
      description: `${description} Signed over these exact bytes.`,
      delivery: await delivery(JSON.parse(body).id, { body }),
      signature: VALID,
    });

  // Signed over the JSON as a framework gives it back, sent as it was: the bytes differ.
  for (const [id, description, body] of [
    [
      "reserialised-escapes",
      "The signature was made over the body parsed and written again (\\u00e9 became é), but the body is sent with \\u00e9.",
      compact("msg_vectors_reserialised_escapes", "Caf\u00e9-0731").replace("é", "\\u00e9"),
    ],
    [
      "reserialised-whitespace",
      "The signature was made over the compact JSON, but the body is sent pretty-printed.",
      JSON.stringify(event("transaction-completed", "msg_vectors_reserialised_whitespace"), null, 2),
    ],
  ] as const) {
    const sent = await delivery(JSON.parse(body).id, { body });
    const reserialised = await sign(sent.id, sent.timestamp, utf8(JSON.stringify(JSON.parse(body))), SECRET);
    add(id, { description, delivery: { ...sent, signature: reserialised }, signature: refused("invalid_signature") });
  }

  // The timestamp against the tolerance, either way: at it, a second inside, a second outside.
  const tolerance = TIMESTAMP_TOLERANCE_SECONDS;
  for (const [id, offset, verdict, description] of [
    ["timestamp-past-at-tolerance", -tolerance, VALID, `Signed exactly ${tolerance} s before now: at the tolerance, accepted.`],
    ["timestamp-past-inside-tolerance", -(tolerance - 1), VALID, `Signed ${tolerance - 1} s before now: a second inside the tolerance.`],
    [
      "timestamp-past-outside-tolerance",
      -(tolerance + 1),
      refused("timestamp_too_old"),
      `Signed ${tolerance + 1} s before now: a second too old.`,
    ],
    ["timestamp-future-at-tolerance", tolerance, VALID, `Signed ${tolerance} s after now (a clock ahead): at the tolerance, accepted.`],
    ["timestamp-future-inside-tolerance", tolerance - 1, VALID, `Signed ${tolerance - 1} s after now: a second inside the tolerance.`],
    [
      "timestamp-future-outside-tolerance",
      tolerance + 1,
      refused("timestamp_too_new"),
      `Signed ${tolerance + 1} s after now: a second too far ahead.`,
    ],
  ] as const)
    add(id, {
      description,
      delivery: await delivery(`msg_vectors_${id.replaceAll("-", "_")}`, { timestamp: String(NOW + offset) }),
      signature: verdict,
    });

  // Timestamps that are not Unix seconds: each signed over the header as sent, so only its form refuses it.
  for (const [id, timestamp, verdict, description] of [
    ["timestamp-not-digits", "2026-01-01T00:00:00Z", refused("invalid_timestamp"), "An RFC 3339 time where Unix seconds belong."],
    ["timestamp-plus-sign", `+${NOW}`, refused("invalid_timestamp"), "Unix seconds with a + sign: only digits are allowed."],
    ["timestamp-minus-sign", `-${NOW}`, refused("invalid_timestamp"), "Unix seconds with a - sign: only digits are allowed."],
    ["timestamp-decimal", `${NOW}.0`, refused("invalid_timestamp"), "Unix seconds with a fraction: only digits are allowed."],
    ["timestamp-milliseconds", `${NOW}000`, refused("invalid_timestamp"), "Unix milliseconds: 13 digits, more than the 12 allowed."],
    ["timestamp-twelve-digits", "999999999999", refused("timestamp_too_new"), "Twelve digits, the most allowed: a time far in the future."],
    ["timestamp-leading-zero", `0${NOW}`, VALID, "The time with a leading zero (11 digits): still decimal seconds, the same time."],
  ] as const)
    add(id, { description, delivery: await delivery(`msg_vectors_${id.replaceAll("-", "_")}`, { timestamp }), signature: verdict });

  // Each header missing, then empty.
  const headersOf = await delivery("msg_vectors_headers");
  for (const name of HEADER_NAMES) {
    add(`missing-${name}`, {
      description: `No ${name} header.`,
      delivery: headersOf,
      headers: headersWith(headersOf, name, undefined),
      signature: refused("missing_header"),
    });
    add(`empty-${name}`, {
      description: `The ${name} header present but empty, which counts as missing.`,
      delivery: headersOf,
      headers: headersWith(headersOf, name, ""),
      signature: refused("missing_header"),
    });
  }

  // The checks' order: the first that fails names the reason.
  const stale = await delivery("msg_vectors_order_stale", { timestamp: String(NOW - 3600) });
  add("order-stale-and-forged", {
    description: "Signed an hour ago with another secret: the timestamp is checked before the signature.",
    delivery: { ...stale, signature: await sign(stale.id, stale.timestamp, stale.body, OTHER_SECRET) },
    signature: refused("timestamp_too_old"),
  });
  add("order-missing-header-and-bad-timestamp", {
    description: "No webhook-signature header and a timestamp that is not digits: missing headers are checked first.",
    delivery: headersOf,
    headers: { "webhook-id": headersOf.id, "webhook-timestamp": "yesterday" },
    signature: refused("missing_header"),
  });

  // Correctly signed bodies that are not an event this version accepts.
  const notJson = await delivery("msg_vectors_not_json", { body: "event=transaction-completed&id=msg_vectors_not_json" });
  add("body-not-json", {
    description: "A correctly signed body that is not JSON.",
    delivery: notJson,
    signature: VALID,
    event: eventRefused("invalid_payload"),
  });
  add("body-empty", {
    description: "A correctly signed empty body.",
    delivery: await delivery("msg_vectors_empty", { body: "" }),
    signature: VALID,
    event: eventRefused("invalid_payload"),
  });
  // Latin-1 writes every other character of it as UTF-8 would: only the é differs.
  const notUtf8 = Uint8Array.from(Buffer.from(compact("msg_vectors_not_utf8", "Caf\u00e9-0731"), "latin1"));
  add("body-not-utf8", {
    description: "A correctly signed event whose é is the Latin-1 byte E9, which is not UTF-8: JSON must be UTF-8.",
    delivery: await delivery("msg_vectors_not_utf8", { body: notUtf8 }),
    signature: VALID,
    event: eventRefused("invalid_payload"),
  });
  const unknown = event("transaction-completed", "msg_vectors_unknown_type");
  unknown.type = "transaction-refunded";
  add("unknown-event-type", {
    description: "A correctly signed event of a type this version does not know: acknowledge it with 2xx and ignore it (D22).",
    delivery: await delivery(unknown.id, { body: JSON.stringify(unknown) }),
    signature: VALID,
    event: eventRefused("unknown_event_type"),
  });
  const missingField = event("transaction-completed", "msg_vectors_missing_field");
  delete missingField.data.transaction_id;
  add("event-missing-field", {
    description: "A correctly signed transaction-completed event without its data.transaction_id.",
    delivery: await delivery(missingField.id, { body: JSON.stringify(missingField) }),
    signature: VALID,
    event: eventRefused("invalid_event"),
  });
  const wrongType = event("transaction-settled", "msg_vectors_wrong_field_type");
  wrongType.data.amount = "49.99";
  add("event-field-of-wrong-type", {
    description: "A correctly signed transaction-settled event whose amount is a string, not a number.",
    delivery: await delivery(wrongType.id, { body: JSON.stringify(wrongType) }),
    signature: VALID,
    event: eventRefused("invalid_event"),
  });
  add("event-without-type", {
    description: "A correctly signed JSON object with no type: not an event.",
    delivery: await delivery("msg_vectors_no_type", { body: JSON.stringify({ id: "msg_vectors_no_type", data: {} }) }),
    signature: VALID,
    event: eventRefused("invalid_event"),
  });
  const otherId = event("session-created", "msg_vectors_event_id");
  add("event-id-differs-from-webhook-id", {
    description: "A correctly signed event whose id is not the webhook-id it was delivered under.",
    delivery: await delivery("msg_vectors_delivery_id", { body: JSON.stringify(otherId) }),
    signature: VALID,
    event: eventRefused("invalid_event"),
  });
  return all;
}

/** The vectors document, as the build writes it. */
export async function webhookVectors(): Promise<WebhookVectors> {
  return {
    $schema: `./${VECTORS_SCHEMA_FILE}`,
    version: 1,
    description:
      "Webhook deliveries of the Payin Acceptance Service (Standard Webhooks signatures), for testing a verifier in any " +
      "language. For each case, give your verifier the headers (a header absent here is absent; an empty one counts as " +
      "missing), the body's exact bytes (body_base64, standard base64), the secrets (any may verify; with or without " +
      "whsec_) and now (Unix seconds), with tolerance_seconds either way; it must answer `signature` (the reason of the " +
      "first check that fails: missing_header, invalid_timestamp, timestamp_too_old, timestamp_too_new, invalid_signature) " +
      "and, once the signature holds, `event` (null when it does not). Made by `npm run build` with the package's own " +
      "signer; the algorithm: the guide 'Verify webhooks in any language'.",
    tolerance_seconds: TIMESTAMP_TOLERANCE_SECONDS,
    cases: await cases(),
  };
}
