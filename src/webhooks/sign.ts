import { hmacSha256 } from "./hmac.ts";
import { secretKey } from "./secret.ts";

export interface SignWebhookInput {
  /** The event id, sent as `webhook-id`. */
  id: string;
  /** When the delivery is signed: a Date, or seconds since the Unix epoch. */
  timestamp: Date | number;
  /** The exact body that will be sent. */
  payload: string | Uint8Array;
  /** The `whsec_` signing secret. */
  secret: string;
}

// A type alias, not an interface, so that it fits `WebhookHeaders` (a string-keyed record).
export type SignedWebhookHeaders = {
  "webhook-id": string;
  "webhook-timestamp": string;
  "webhook-signature": string;
};

export const unixSeconds = (time: Date | number) => (typeof time === "number" ? Math.floor(time) : Math.floor(time.getTime() / 1000));

/** The Standard Webhooks signature (`v1,<base64>`) of one delivery. */
export async function signature(id: string, timestamp: string, payload: string | Uint8Array, key: Uint8Array): Promise<string> {
  return `v1,${await hmacSha256(key, [`${id}.${timestamp}.`, payload])}`;
}

/** Signs a delivery as the service does, returning the three headers to send with it. */
export async function signWebhook({ id, timestamp, payload, secret }: SignWebhookInput): Promise<SignedWebhookHeaders> {
  const seconds = String(unixSeconds(timestamp));
  return {
    "webhook-id": id,
    "webhook-timestamp": seconds,
    "webhook-signature": await signature(id, seconds, payload, secretKey(secret)),
  };
}
