// A verifier of Standard Webhooks signatures written from the specification alone
// (https://www.standardwebhooks.com, "Verifying webhooks"), with node:crypto and nothing of the
// package: the second opinion on the test vectors, so that they do not merely repeat what
// verifyWebhook does. What the specification leaves to the receiver is the vectors' own rule,
// given by their format: an empty header is missing, a timestamp is 1 to 12 ASCII digits, the
// checks run in the order of the reasons.
import { createHmac, timingSafeEqual } from "node:crypto";

export type SpecVerdict =
  | { valid: true }
  | { valid: false; reason: "missing_header" | "invalid_timestamp" | "timestamp_too_old" | "timestamp_too_new" | "invalid_signature" };

export interface SpecDelivery {
  headers: Readonly<Record<string, string>>;
  body: Uint8Array;
  /** `whsec_` and the base64 key; the prefix may be left off. */
  secrets: readonly string[];
  /** Unix seconds. */
  now: number;
  toleranceSeconds: number;
}

/** Whether two strings are the same, compared in constant time (as the specification asks). */
function same(a: string, b: string): boolean {
  const [x, y] = [Buffer.from(a), Buffer.from(b)];
  return x.length === y.length && timingSafeEqual(x, y);
}

export function specVerify({ headers, body, secrets, now, toleranceSeconds }: SpecDelivery): SpecVerdict {
  const id = headers["webhook-id"];
  const timestamp = headers["webhook-timestamp"];
  const signatures = headers["webhook-signature"];
  if (!id || !timestamp || !signatures) return { valid: false, reason: "missing_header" };
  // "webhook-timestamp: integer unix timestamp (seconds since epoch)".
  if (!/^[0-9]{1,12}$/.test(timestamp)) return { valid: false, reason: "invalid_timestamp" };
  const seconds = Number.parseInt(timestamp, 10);
  if (now - seconds > toleranceSeconds) return { valid: false, reason: "timestamp_too_old" };
  if (seconds - now > toleranceSeconds) return { valid: false, reason: "timestamp_too_new" };
  // "The content to sign is composed by concatenating the id, timestamp and payload, separated by
  // the full-stop character": the payload as the raw bytes received.
  const content = Buffer.concat([Buffer.from(`${id}.${timestamp}.`), body]);
  // The secret is base64 after its whsec_ prefix; the HMAC-SHA256 is sent in base64.
  const expected = secrets.map((secret) =>
    createHmac("sha256", Buffer.from(secret.replace(/^whsec_/, ""), "base64"))
      .update(content)
      .digest("base64"),
  );
  // "A list of space delimited signatures and their corresponding version identifiers": each
  // `<version>,<signature>`, read as the specification's reference library reads it (split at
  // the commas, version then signature); only v1 is an HMAC.
  const passed = signatures
    .split(" ")
    .map((entry) => entry.split(","))
    .filter(([version, value]) => version === "v1" && value !== undefined)
    .map(([, value]) => value!);
  const matches = expected.flatMap((mine) => passed.map((theirs) => same(theirs, mine)));
  return matches.includes(true) ? { valid: true } : { valid: false, reason: "invalid_signature" };
}
