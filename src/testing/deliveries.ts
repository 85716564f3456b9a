// What a webhook handler receives, without a server: an event's raw body and the three Standard
// Webhooks headers, signed as the service signs them; and the deliveries a handler must refuse,
// the ones `payin-conformance receiver` sends it (its checks build them here).
import type { PayinEvent } from "../../generated/event-types.ts";
import { TIMESTAMP_TOLERANCE_SECONDS } from "../lib/contract-facts.ts";
import { newSigningSecret } from "../lib/ids.ts";
import { signWebhook } from "../webhooks/index.ts";

/** A delivery as a handler receives it: the headers, lower-case, and the raw body. */
export interface Delivery {
  headers: Record<string, string>;
  body: string;
}

export interface SignOptions {
  /** When it was signed (`webhook-timestamp`). Default now. */
  timestamp?: Date;
  /** The `webhook-id`. Default the event's id, as the service sends it. */
  id?: string;
}

/** The event as the service delivers it: its JSON body, signed with `secret`. */
export async function signedDelivery(
  event: PayinEvent,
  secret: string,
  { timestamp = new Date(), id = event.id }: SignOptions = {},
): Promise<Delivery> {
  const body = JSON.stringify(event);
  const headers = await signWebhook({ id, timestamp, payload: body, secret });
  return { headers: { "content-type": "application/json", ...headers }, body };
}

/** How far off a refused timestamp is: past the contract's tolerance, with a minute to spare for clocks apart. */
export const SKEW_MINUTES = TIMESTAMP_TOLERANCE_SECONDS / 60 + 1;

/** One byte changed: the amount's first digit, so that the body stays a valid event that says something else. */
export function changedByte(body: string): string {
  return body.replace(/"amount":(\d)/, (_, digit: string) => `"amount":${digit === "9" ? "1" : "9"}`);
}

/** A space after the opening brace: the same JSON, one byte more. */
export const addedWhitespace = (body: string): string => body.replace("{", "{ ");

/** The body parsed and written again, pretty-printed: what a framework's JSON parser gives back. */
export const reserialised = (body: string): string => JSON.stringify(JSON.parse(body), null, 2);

/** What a handler must refuse, each about `event` and made for the account's `secret`. */
export async function refusedDeliveries(event: PayinEvent, secret: string): Promise<Record<string, Delivery>> {
  const signed = await signedDelivery(event, secret);
  const skewed = (sign: number) => new Date(Date.now() + sign * SKEW_MINUTES * 60_000);
  const without = (header: string) => ({
    body: signed.body,
    headers: Object.fromEntries(Object.entries(signed.headers).filter(([name]) => name !== header)),
  });
  return {
    /** Signed 6 minutes ago: a replay of a recorded delivery. */
    staleTimestamp: await signedDelivery(event, secret, { timestamp: skewed(-1) }),
    /** Signed 6 minutes ahead. */
    futureTimestamp: await signedDelivery(event, secret, { timestamp: skewed(1) }),
    /** Signed with a secret that is not the account's: a forgery. */
    otherSecret: await signedDelivery(event, newSigningSecret()),
    /** Changed after it was signed. */
    changedByte: { ...signed, body: changedByte(signed.body) },
    addedWhitespace: { ...signed, body: addedWhitespace(signed.body) },
    reserialised: { ...signed, body: reserialised(signed.body) },
    missingWebhookId: without("webhook-id"),
    missingWebhookTimestamp: without("webhook-timestamp"),
    missingWebhookSignature: without("webhook-signature"),
  };
}
