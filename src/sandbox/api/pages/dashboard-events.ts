// The events the dashboard lists, each with its delivery as it went: the body every attempt sent,
// rebuilt from the event's facts by the builder that made it (delivery/payload.ts: the facts never
// change, so the body is the one signed), and each attempt's request headers (its own timestamp
// and signature), the answer's status, time and first bytes. A hosted sandbox keeps no answer's
// bytes (decision D21), and shows none that an older run might have kept. Of an event sent again
// and again, only its newest attempts: the page costs the same however long its log.
import { isoTime } from "../../../lib/time.ts";
import { payloadOf } from "../../delivery/payload.ts";
import type { EventFilter, Outcome } from "../../store/event-log.ts";
import type { AttemptRow } from "../../store/outbox.ts";
import type { Store } from "../../store/index.ts";

/** The attempts shown of each event, its newest: the delivery log (GET /_sandbox/v1/deliveries) has every one. */
export const ATTEMPTS_SHOWN = 10;

export interface DashboardAttempt {
  attempt: number;
  succeeded: boolean;
  url: string;
  response_status: number | null;
  error: string | null;
  attempted_at: string;
  duration_ms: number;
  next_attempt_at: string | null;
  faults: string[];
  /** The request's headers as sent; null for an attempt an older sandbox recorded. */
  request_headers: Record<string, string> | null;
  /** The answer's first bytes as text; null where none are kept (hosted, a listener's answer, no answer). */
  response_first_bytes: string | null;
}

export interface DashboardEvent {
  id: string;
  type: string;
  session_id: string;
  transaction_id: string | null;
  /** waiting (nowhere to send it), pending (an attempt to come), delivered, or failed (none to come). */
  state: string;
  outcome: Outcome;
  created_at: string;
  /** The body every attempt sent. */
  body: string;
  /** Its newest attempts, at most ATTEMPTS_SHOWN, oldest first. */
  attempts: DashboardAttempt[];
  /** How many attempts were made of it. */
  attempt_count: number;
}

const attemptOf = (row: AttemptRow, hosted: boolean): DashboardAttempt => ({
  attempt: row.attempt,
  succeeded: row.succeeded === 1,
  url: row.url,
  response_status: row.response_status,
  error: row.error,
  attempted_at: isoTime(row.attempted_at_ms),
  duration_ms: row.duration_ms,
  next_attempt_at: row.next_attempt_at_ms === null ? null : isoTime(row.next_attempt_at_ms),
  faults: row.faults?.split(",") ?? [],
  request_headers: row.request_headers === null ? null : JSON.parse(row.request_headers),
  response_first_bytes: hosted ? null : row.response_first_bytes,
});

/** The account's newest events that match `filter`, at most `limit`, with their deliveries. */
export async function dashboardEvents(
  store: Store,
  accountId: number,
  filter: EventFilter,
  limit: number,
  hosted: boolean,
): Promise<DashboardEvent[]> {
  const events = await store.eventLog.list(accountId, filter, limit);
  const attempts = new Map<string, DashboardAttempt[]>();
  for (const row of await store.outbox.newestAttemptsOf(
    accountId,
    events.map((event) => event.id),
    ATTEMPTS_SHOWN,
  ))
    attempts.set(row.event_id, [...(attempts.get(row.event_id) ?? []), attemptOf(row, hosted)]);
  return events.map((event) => ({
    id: event.id,
    type: event.type,
    session_id: event.sessionId,
    transaction_id: event.transactionId,
    state: event.state,
    outcome: event.outcome,
    created_at: isoTime(event.createdAtMs),
    body: payloadOf(event),
    attempts: attempts.get(event.id) ?? [],
    attempt_count: event.attempts,
  }));
}
