import { WebhookVerificationError } from "./errors.ts";
import { base64ToBytes } from "./base64.ts";

const PREFIX = "whsec_";

/**
 * What a signing secret is, as every refusal of one says it: Standard Webhooks' form, whose
 * prefix its reference library also lets a secret leave off.
 */
export const SECRET_FORM = "whsec_ followed by base64, as POST /webhooks returns it (the whsec_ prefix may be left off)";

/**
 * The HMAC key of a Standard Webhooks secret: `whsec_` + base64, the prefix optional. The one
 * parser of secrets: verifyWebhook, signWebhook, payin-trigger and payin-conformance all take
 * a secret through it.
 */
export function secretKey(secret: string): Uint8Array {
  if (typeof secret !== "string")
    throw new WebhookVerificationError(
      "invalid_secret",
      `The signing secret is ${secret === null ? "null" : typeof secret}, not a string: is it configured?`,
    );
  const key = base64ToBytes(secret.startsWith(PREFIX) ? secret.slice(PREFIX.length) : secret);
  if (!key?.length) throw new WebhookVerificationError("invalid_secret", `The signing secret must be ${SECRET_FORM}.`);
  return key;
}

/**
 * The HMAC keys of one secret, or of several while a secret is rotated (the new one and the
 * old): each parsed by `secretKey`. An empty list would refuse every delivery without saying
 * why, so it is a misconfiguration like a missing secret.
 */
export function secretKeys(secrets: string | readonly string[]): Uint8Array[] {
  if (!Array.isArray(secrets)) return [secretKey(secrets as string)];
  if (secrets.length === 0)
    throw new WebhookVerificationError("invalid_secret", "The list of signing secrets is empty: give at least one.");
  return secrets.map(secretKey);
}

/** For a command's --secret: undefined when `secret` is one, else the line that says what it must be. */
export function secretFlagError(secret: string): string | undefined {
  try {
    secretKey(secret);
    return undefined;
  } catch {
    return `--secret must be the endpoint's signing secret: ${SECRET_FORM}`;
  }
}
