// One attempt of an event, whichever transport carries it: the envelope signed with the
// account's secret by the package's own signWebhook, anew for each attempt, sent, timed, and
// judged by the contract's rule (decision D14: a 2xx acknowledges, anything else fails). What
// was sent (its headers; the body is the event's payload on every attempt) and the answer's first
// bytes, where the transport kept them, go with it for the dashboard.
import { signWebhook } from "../../webhooks/sign.ts";
import { accountNow } from "../flow/clock.ts";
import type { Clock } from "../../lib/clock.ts";
import type { Account } from "../store/accounts.ts";
import type { Attempt, DueEvent } from "../store/outbox.ts";
import { payloadOf } from "./payload.ts";
import type { Transport, WebhookRequest } from "./transport.ts";

/** An attempt made: what the receiver answered, or why it did not, whether that acknowledges, and when on the account's clock. */
export type MadeAttempt = Omit<Attempt, "nextAttemptAtMs" | "nextDueMs" | "marks">;

/** The event as its receiver gets it, signed at the real time: the receiver checks the timestamp against its own clock. */
export async function signedRequest(event: DueEvent): Promise<WebhookRequest> {
  const body = payloadOf(event);
  const signature = await signWebhook({ id: event.id, timestamp: new Date(), payload: body, secret: event.secret });
  return {
    accountId: event.accountId,
    url: event.url,
    listening: event.listening,
    headers: { ...signature, "Content-Type": "application/json", "User-Agent": "payin-sandbox" },
    body,
  };
}

/**
 * Makes attempt number `attempt` of the event; undefined when `signal` aborted it (the sandbox closed meanwhile),
 * "nowhere" when the account has nowhere to send it now (neither a URL nor a listener, or a listener whose lease ran out).
 */
export async function makeAttempt(
  clock: Clock,
  transport: Transport,
  event: DueEvent,
  account: Account,
  attempt: number,
  signal: AbortSignal,
): Promise<MadeAttempt | "nowhere" | undefined> {
  const attemptedAtMs = accountNow(clock, account);
  const started = clock.now();
  const request = await signedRequest(event);
  const result = await transport.send(request, signal);
  if (signal.aborted) return undefined;
  if ("nowhere" in result) return "nowhere";
  const responseStatus = "status" in result ? result.status : null;
  // A transport never hands over a 1xx as the answer.
  const error = "error" in result ? result.error : responseStatus! > 299 ? `The receiver answered ${responseStatus}.` : null;
  const { accountId, id: eventId, seq: eventSeq, sessionId } = event;
  return {
    accountId,
    eventId,
    eventSeq,
    sessionId,
    attempt,
    url: result.to ?? event.url!,
    responseStatus,
    error,
    succeeded: error === null,
    attemptedAtMs,
    durationMs: clock.now() - started,
    requestHeaders: request.headers,
    responseFirstBytes: "firstBytes" in result ? (result.firstBytes ?? null) : null,
  };
}
