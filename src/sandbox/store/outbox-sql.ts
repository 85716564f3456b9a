// The outbox's SQL that both engines' statements (sqlite-statements.ts, postgres-statements.ts)
// and the outbox itself are written from: new events and whether they go now, which events are due,
// what an attempt needs of one, and an attempt's record.
import { clockOffsetOf } from "./due.ts";
import { ANY_LISTENER, LIVE_LISTENER } from "./listeners.ts";
import type { Attempt, DueEvent } from "./outbox.ts";

/** An event claimed, as read: what DueEvent holds, before its account's object and faults are added. */
export type LoadedRow = Omit<DueEvent, "request" | "account" | "faults" | "shuffled" | "listening"> & {
  request: string;
  clockOffsetMs: number;
  deliveryFaults: number | boolean;
  listening: number | boolean;
};

/** The oldest event of its session not yet done with: the only one the order rule lets go. */
const FIRST_OF_SESSION = `NOT EXISTS (SELECT 1 FROM events b
  WHERE b.account_id = d.account_id AND b.session_id = d.session_id AND b.state IN ('pending', 'waiting') AND b.seq < d.seq)`;
/** Pending events due by real time `?` whose turn it is, claimed by no one (`?`: now), soonest first. */
export const DUE = `SELECT d.seq FROM events d
  WHERE d.due_ms <= ? AND d.state = 'pending' AND (d.claim_until_ms IS NULL OR d.claim_until_ms <= ?) AND ${FIRST_OF_SESSION}`;

/** What an attempt needs of an event, its account, webhook, session and transaction, and whether a listener holds the account. */
export const NEEDED = (e: string) =>
  `${e}.seq, ${e}.account_id AS "accountId", ${e}.id, ${e}.type, ${e}.session_id AS "sessionId", ` +
  `${e}.transaction_id AS "transactionId", ${e}.created_at_ms AS "createdAtMs", ${e}.attempts, w.url, w.signing_secret AS secret,
  s.counterparty_id AS "counterpartyId", s.request, a.clock_offset_ms AS "clockOffsetMs",
  (SELECT failure_reason FROM transactions t WHERE t.account_id = ${e}.account_id AND t.id = ${e}.transaction_id) AS "failureReason",
  EXISTS (SELECT 1 FROM faults f WHERE f.account_id = ${e}.account_id AND f.target = 'delivery') AS "deliveryFaults",
  EXISTS (SELECT 1 FROM listeners l WHERE l.account_id = ${e}.account_id) AS listening`;
export const JOINED = (e: string) =>
  `webhooks w, payment_sessions s, accounts a WHERE w.account_id = ${e}.account_id AND s.account_id = ${e}.account_id ` +
  `AND s.id = ${e}.session_id AND a.id = ${e}.account_id`;

/** The event `e` is pending, due by real time `?` and claimed by no one (`?`: now). */
export const TURN = (e: string) =>
  `${e}.state = 'pending' AND ${e}.due_ms <= ? AND (${e}.claim_until_ms IS NULL OR ${e}.claim_until_ms <= ?)`;

// An event waits (`waiting`) while its account has nowhere to send it (decision D23): no listener connected and no
// webhook URL, or a listener whose lease ran out, its holder yet to renew it (a listener still connected gets it then,
// not the URL). Otherwise it is pending, due from the time it was made. Its writers share the account's lock with
// release, which takes it whole: none is left waiting by a URL registered at the same moment.
/** Whether the account has somewhere to send its events now; parameters: account and now (a listener), account (a URL), account. */
export const HOOKED_NOW = `(${LIVE_LISTENER}
  OR (EXISTS (SELECT 1 FROM webhooks WHERE account_id = ? AND url IS NOT NULL) AND NOT ${ANY_LISTENER}))`;
export const hookedParameters = (accountId: number, nowMs: number) => [accountId, nowMs, accountId, accountId];
// One account's events, of one session or several, in their order. Parameters: account, account, then each row's (id,
// type, session, transaction, made at, its place, whether it is its session's first here), then HOOKED_NOW's.
export const NEW_EVENTS = (rows: number) => `SELECT CAST(? AS BIGINT) AS account_id, v.column1 AS id, v.column2 AS type,
    v.column3 AS session_id, v.column4 AS transaction_id, v.column5 AS created_at_ms,
    CASE WHEN hooked THEN 'pending' ELSE 'waiting' END AS state, CASE WHEN hooked THEN v.column5 - ${clockOffsetOf("?")} END AS due_ms,
    v.column6 AS place, v.column7 AS first
  FROM (VALUES ${Array(rows).fill("(?, ?, ?, ?, CAST(? AS BIGINT), CAST(? AS INTEGER), CAST(? AS INTEGER))").join(", ")}) AS v,
    (SELECT ${HOOKED_NOW} AS hooked) AS account`;
export const EVENT_COLUMNS = "account_id, id, type, session_id, transaction_id, created_at_ms, state, due_ms";
export const INSERT_EVENTS = (rows: number) =>
  `INSERT INTO events (${EVENT_COLUMNS}) SELECT ${EVENT_COLUMNS} FROM (${NEW_EVENTS(rows)}) AS n ORDER BY place`;

/** An event claimed, by its number: what its attempt needs. */
export const LOAD = `SELECT ${NEEDED("e")} FROM events e, ${JOINED("e")} AND e.seq = ? AND e.state = 'pending'`;

// Only a claim's holder records an attempt; a duplicate fault's extra attempt and a redelivery made at that moment can
// still share a number, and one record is kept.
export const ATTEMPT_COLUMNS =
  "account_id, event_id, attempt, url, response_status, error, succeeded, attempted_at_ms, duration_ms, next_attempt_at_ms, faults, " +
  "request_headers, response_first_bytes, event_seq";
export const INSERT_ATTEMPT = `INSERT INTO delivery_attempts (${ATTEMPT_COLUMNS})
  VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?) ON CONFLICT DO NOTHING`;
// What an attempt leaves, written only by the process whose claim it was: the event delivered, failed, or due again.
export const AFTER_ATTEMPT = "UPDATE events SET state = ?, attempts = ?, due_ms = ?, claim = NULL, claim_until_ms = NULL";

/** An attempt's values, in the order of ATTEMPT_COLUMNS. */
export const attemptValues = (a: Attempt) => [
  a.accountId,
  a.eventId,
  a.attempt,
  a.url,
  a.responseStatus,
  a.error,
  a.succeeded ? 1 : 0,
  a.attemptedAtMs,
  a.durationMs,
  a.nextAttemptAtMs,
  a.marks.length > 0 ? a.marks.join(",") : null,
  JSON.stringify(a.requestHeaders),
  a.responseFirstBytes,
  a.eventSeq,
];
