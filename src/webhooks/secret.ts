import { WebhookVerificationError } from "./errors.ts";
import { base64ToBytes } from "./hmac.ts";

const PREFIX = "whsec_";
let last: { secret: string; key: Uint8Array } | undefined;

/** The HMAC key of a Standard Webhooks secret (`whsec_` + base64; the prefix may be left off). */
export function secretKey(secret: string): Uint8Array {
  // A receiver verifies every delivery with the same secret: decode it once.
  if (last?.secret === secret) return last.key;
  const encoded = typeof secret === "string" && secret.startsWith(PREFIX) ? secret.slice(PREFIX.length) : secret;
  const key = typeof encoded === "string" ? base64ToBytes(encoded) : undefined;
  if (!key || key.length === 0)
    throw new WebhookVerificationError("invalid_secret", "The signing secret must be `whsec_` followed by base64, as POST /webhooks returns it.");
  last = { secret, key };
  return key;
}
