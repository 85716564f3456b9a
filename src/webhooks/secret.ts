import { WebhookVerificationError } from "./errors.ts";
import { base64ToBytes } from "./base64.ts";

const PREFIX = "whsec_";

/** The HMAC key of a Standard Webhooks secret (`whsec_` + base64; the prefix may be left off). */
export function secretKey(secret: string): Uint8Array {
  if (typeof secret !== "string")
    throw new WebhookVerificationError("invalid_secret", `The signing secret is ${secret === null ? "null" : typeof secret}, not a string: is it configured?`);
  const key = base64ToBytes(secret.startsWith(PREFIX) ? secret.slice(PREFIX.length) : secret);
  if (!key?.length)
    throw new WebhookVerificationError("invalid_secret", "The signing secret must be `whsec_` followed by base64, as POST /webhooks returns it.");
  return key;
}
