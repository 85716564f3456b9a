// What the dispatcher asks of the way a delivery reaches its receiver: HTTP to the registered URL
// (http-transport.ts), or another, such as a listener connected to the sandbox that passes the
// request on to an endpoint of its own machine. The dispatcher decides what is sent, when, and
// what the answer means (the schedule, the order rule, the faults); a transport only carries one
// attempt and brings back what the receiver answered. It is handed a request signed already: the
// signature is part of what every receiver is sent, whichever way it goes, and is made at the
// moment of sending so that the receiver's timestamp check sees the time it was sent.

/** One attempt of an event as the receiver gets it: signed, with its JSON body. */
export interface WebhookRequest {
  /** The account whose event it is: a listener connected to it takes its deliveries (decision D23). */
  accountId: number;
  /** The URL registered for the account (POST /webhooks); null when it has none. */
  url: string | null;
  /** Whether a listener held the account's deliveries when the event was claimed (decision D23): without, none is looked for. */
  listening: boolean;
  /** The signature's headers (webhook-id, webhook-timestamp, webhook-signature), Content-Type and User-Agent. */
  headers: Readonly<Record<string, string>>;
  body: string;
}

/**
 * What became of one attempt: the receiver's final answer (never a 1xx), with its body's first
 * bytes where they are kept, or why there was none, with where it went when not to `url` (a
 * listener's endpoint); or that there was nowhere to send it now (no URL and no listener, or a
 * listener whose lease ran out, its holder yet to renew it), and no attempt was made.
 */
export type TransportResult = (({ status: number; firstBytes?: string } | { error: string }) & { to?: string }) | { nowhere: true };

/** The most of an answer's body an attempt keeps, as text: what a developer reads of it on the dashboard. */
export const FIRST_BYTES = 512;

export interface Transport {
  /** The longest an attempt may take before it counts as unanswered: another process takes over a claim only after it. */
  readonly timeoutMs: number;
  /** Sends the request, and resolves once the receiver answered or could not; `signal` aborts it when the sandbox closes. */
  send(request: WebhookRequest, signal: AbortSignal): Promise<TransportResult>;
}
