import { WebhookVerificationError } from "./errors.ts";
import { base64ToBytes } from "./base64.ts";

const PREFIX = "whsec_";
let last: { secret: string; key: Uint8Array } | undefined;

/** The HMAC key of a Standard Webhooks secret (`whsec_` + base64; the prefix may be left off). */
export function secretKey(secret: string): Uint8Array {
  // Checked first: an unset secret (`process.env.X` is undefined) would otherwise equal the
  // cached secret of a process that has verified nothing yet.
  if (typeof secret !== "string")
    throw new WebhookVerificationError("invalid_secret", `The signing secret is ${secret === null ? "null" : typeof secret}, not a string: is it configured?`);
  // A receiver verifies every delivery with the same secret: decode it once.
  // Stryker disable next-line ConditionalExpression: as `false`, the secret is decoded again, the same; the cache only saves time (`true` fails the first call).
  if (last?.secret === secret) return last.key;
  const key = base64ToBytes(secret.startsWith(PREFIX) ? secret.slice(PREFIX.length) : secret);
  if (!key?.length)
    throw new WebhookVerificationError("invalid_secret", "The signing secret must be `whsec_` followed by base64, as POST /webhooks returns it.");
  last = { secret, key };
  return key;
}
