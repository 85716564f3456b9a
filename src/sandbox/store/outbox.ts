// The outbox: every event the sandbox makes, written in the transaction of the state change it
// announces, and each delivery attempt made of it. The dispatcher (../delivery/dispatcher.ts) reads what is
// due from here and writes back what each attempt gave. An event row holds what it announces
// and about which session and transaction; its payload is made from those when it is sent.
import type { PayinEvent } from "../../../generated/event-types.ts";
import { newId } from "../../lib/ids.ts";
import type { Clock } from "../../lib/clock.ts";
import type { Database } from "./database.ts";
import { clockOffsetOf } from "./due.ts";

/** Which event is due: enough to choose what to send, without its payload. */
export interface DueKey {
  seq: number;
  accountId: number;
  sessionId: string;
}

/** An event to send, with what it tells (its session's and transaction's facts), where and how. */
export interface DueEvent {
  seq: number;
  accountId: number;
  id: string;
  type: PayinEvent["type"];
  sessionId: string;
  transactionId: string | null;
  /** When it happened, on its account's clock. */
  createdAtMs: number;
  counterpartyId: string;
  /** The session's request fields: what is charged, and for which order. */
  request: { order_id?: string; amount: number; currency: string };
  failureReason: string | null;
  attempts: number;
  /** The registered URL; null when the account has only a listener (decision D23). */
  url: string | null;
  secret: string;
}

/** What an event announces, by type; the rest of its payload comes from its session and transaction. */
export interface NewEvent {
  type: PayinEvent["type"];
  sessionId: string;
  transactionId?: string;
}

export interface Attempt {
  accountId: number;
  eventId: string;
  sessionId: string;
  attempt: number;
  url: string;
  responseStatus: number | null;
  error: string | null;
  succeeded: boolean;
  attemptedAtMs: number;
  durationMs: number;
  /** When the next attempt is due on the account's clock; null when none will be made. */
  nextAttemptAtMs: number | null;
  /** The same in real time. */
  nextDueMs: number | null;
  /** What delivery faults did to it on purpose. */
  faults: readonly string[];
  /** The request's headers as sent: its signature's, which are this attempt's own, Content-Type and User-Agent. */
  requestHeaders: Readonly<Record<string, string>>;
  /** The answer's first bytes as text; null where none came or they are not kept (a hosted sandbox, a listener's answer). */
  responseFirstBytes: string | null;
}

export interface AttemptRow {
  event_id: string;
  type: PayinEvent["type"];
  session_id: string;
  transaction_id: string | null;
  attempt: number;
  url: string;
  response_status: number | null;
  error: string | null;
  succeeded: number;
  attempted_at_ms: number;
  duration_ms: number;
  next_attempt_at_ms: number | null;
  faults: string | null;
  /** The request's headers as JSON; null for an attempt an older sandbox recorded. */
  request_headers: string | null;
  response_first_bytes: string | null;
}

interface LoadedRow {
  seq: number;
  accountId: number;
  id: string;
  type: PayinEvent["type"];
  sessionId: string;
  transactionId: string | null;
  createdAtMs: number;
  attempts: number;
  url: string | null;
  secret: string;
  counterpartyId: string;
  request: string;
  failureReason: string | null;
}

// An event waits (`waiting`) while its account has neither a webhook URL nor a listener connected
// (decision D23). Otherwise it is pending,
// and due (`due_ms`) from the time it was made, unless an earlier event of its session is
// still pending, or waiting (its target left as it was sent): the order rule lets a session's next event go only once the one before is
// done with, and it is then due from the time it was made, as it would have been.
const DUE_FROM_ITS_TIME = `created_at_ms - ${clockOffsetOf("events.account_id")}`;
// Parameters: account, id, type, session, transaction, at, then account and session (an earlier
// one pending), at and account (its due time), then account (a URL), account and now (a listener).
const INSERT = `INSERT INTO events (account_id, id, type, session_id, transaction_id, created_at_ms, state, due_ms)
  SELECT CAST(? AS BIGINT), ?, ?, ?, ?, CAST(? AS BIGINT), CASE WHEN hooked THEN 'pending' ELSE 'waiting' END,
    CASE WHEN hooked AND NOT EXISTS (SELECT 1 FROM events WHERE account_id = ? AND session_id = ? AND state IN ('pending', 'waiting'))
      THEN CAST(? AS BIGINT) - ${clockOffsetOf("?")} END
  FROM (SELECT EXISTS (SELECT 1 FROM webhooks WHERE account_id = ? AND url IS NOT NULL)
    OR EXISTS (SELECT 1 FROM listeners WHERE account_id = ? AND until_ms > ?) AS hooked) AS account
  RETURNING due_ms`;
const WAITING_TO_PENDING = "UPDATE events SET state = 'pending' WHERE account_id = ? AND state = 'waiting'";
const FIRST_OF_EACH_SESSION = `UPDATE events SET due_ms = ${DUE_FROM_ITS_TIME}
  WHERE seq IN (SELECT MIN(seq) FROM events WHERE account_id = ? AND state = 'pending' GROUP BY session_id) AND due_ms IS NULL`;
/** Due and not claimed by a process (the parameter: now, in real time). */
const UNCLAIMED = "(claim_until_ms IS NULL OR claim_until_ms <= ?)";
const KEY = 'seq, account_id AS "accountId", session_id AS "sessionId"';
const DUE_FOR_ALL = `SELECT ${KEY} FROM events WHERE due_ms <= ? AND ${UNCLAIMED} ORDER BY due_ms LIMIT ?`;
const DUE_FOR_ACCOUNT = `SELECT ${KEY} FROM events WHERE account_id = ? AND due_ms <= ? AND ${UNCLAIMED} ORDER BY due_ms LIMIT ?`;
const CLAIMED_FOR_ACCOUNT = "SELECT seq FROM events WHERE account_id = ? AND state = 'pending' AND due_ms <= ? AND claim_until_ms > ?";
const COUNT_DUE_FOR = "SELECT COUNT(*) AS due FROM events WHERE account_id = ? AND state = 'pending' AND (due_ms IS NULL OR due_ms <= ?)";
// Still due: between the read that found it and this claim, another process may have attempted it and set its retry later.
// (A session's event held behind an earlier one has no due time: a shuffle fault's pick.)
const CLAIM = `UPDATE events SET claim = ?, claim_until_ms = ?
  WHERE seq = ? AND state = 'pending' AND (due_ms IS NULL OR due_ms <= ?) AND ${UNCLAIMED}`;
// Only events of an account with a URL or a listener are pending; the joins give the URL (none for a listener's only),
// the secret, and what the payload tells.
const LOAD =
  'SELECT e.seq, e.account_id AS "accountId", e.id, e.type, e.session_id AS "sessionId", ' +
  `e.transaction_id AS "transactionId", e.created_at_ms AS "createdAtMs", e.attempts, w.url, w.signing_secret AS secret,
    s.counterparty_id AS "counterpartyId", s.request, t.failure_reason AS "failureReason"
  FROM events e JOIN webhooks w ON w.account_id = e.account_id
    JOIN payment_sessions s ON s.account_id = e.account_id AND s.id = e.session_id
    LEFT JOIN transactions t ON t.account_id = e.account_id AND t.id = e.transaction_id
  WHERE e.seq = ? AND e.state = 'pending'`;
// Only a claim's holder records an attempt; a duplicate fault's extra attempt and a redelivery made at that moment can
// still share a number, and one record is kept.
const INSERT_ATTEMPT =
  "INSERT INTO delivery_attempts (account_id, event_id, attempt, url, response_status, error, succeeded, " +
  "attempted_at_ms, duration_ms, next_attempt_at_ms, faults, request_headers, response_first_bytes) " +
  "VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?) ON CONFLICT DO NOTHING";
const COUNT_ATTEMPTS = "UPDATE events SET attempts = ? WHERE account_id = ? AND id = ?";
// The shuffle fault's pick: the session's newest pending event whose time has come.
const NEWEST_PENDING = `SELECT ${KEY} FROM events
  WHERE account_id = ? AND session_id = ? AND state = 'pending' AND (due_ms IS NULL OR due_ms <= ?) ORDER BY seq DESC LIMIT 1`;
// Gone with its target (the listener left, and no URL is registered): the event waits again, its session's later ones
// behind it, until one connects or a URL is registered (release), written only by the process whose claim it was.
const WAIT = "UPDATE events SET state = 'waiting', due_ms = NULL, claim = NULL, claim_until_ms = NULL WHERE seq = ? AND claim = ?";
// ... unless, by the time it is written, the account has one again (a listener connected as the attempt found none):
// then it is due again at once.
const HOOKED =
  "SELECT EXISTS (SELECT 1 FROM webhooks WHERE account_id = ? AND url IS NOT NULL) " +
  "OR EXISTS (SELECT 1 FROM listeners WHERE account_id = ? AND until_ms > ?) AS hooked";
const DUE_AGAIN = `UPDATE events SET due_ms = ${DUE_FROM_ITS_TIME}, claim = NULL, claim_until_ms = NULL WHERE seq = ? AND claim = ?`;
// What an attempt leaves, written only by the process whose claim it was.
const AFTER_ATTEMPT =
  "UPDATE events SET state = ?, attempts = ?, due_ms = ?, claim = NULL, claim_until_ms = NULL " +
  "WHERE account_id = ? AND id = ? AND claim = ?";
const NEXT = `UPDATE events SET due_ms = ${DUE_FROM_ITS_TIME}
  WHERE seq = (SELECT MIN(seq) FROM events WHERE account_id = ? AND session_id = ? AND state = 'pending') AND due_ms IS NULL`;
const RELEASE_CLAIMS = "UPDATE events SET claim = NULL, claim_until_ms = NULL WHERE claim = ?";
const GET = `SELECT ${KEY}, id, type, state, attempts FROM events WHERE account_id = ? AND id = ?`;
// Free of any claim: the attempt another process has under way is no longer recorded, so that the one asked for is made.
const AGAIN =
  "UPDATE events SET state = 'pending', due_ms = ?, claim = NULL, claim_until_ms = NULL WHERE account_id = ? AND id = ? RETURNING attempts";

const ATTEMPTS =
  "SELECT d.event_id, e.type, e.session_id, e.transaction_id, d.attempt, d.url, d.response_status, d.error, d.succeeded, " +
  `d.attempted_at_ms, d.duration_ms, d.next_attempt_at_ms, d.faults, d.request_headers, d.response_first_bytes
   FROM delivery_attempts d JOIN events e ON e.account_id = d.account_id AND e.id = d.event_id`;
const ATTEMPTS_ORDER = "ORDER BY d.attempted_at_ms, e.seq, d.attempt";
const ACCOUNT_ATTEMPTS = `${ATTEMPTS} WHERE d.account_id = ? ${ATTEMPTS_ORDER}`;
const SESSION_ATTEMPTS = `${ATTEMPTS} WHERE e.account_id = ? AND e.session_id = ? ${ATTEMPTS_ORDER}`;
const EVENTS_ATTEMPTS = (count: number) =>
  `${ATTEMPTS} WHERE d.account_id = ? AND d.event_id IN (${Array(count).fill("?").join(", ")}) ${ATTEMPTS_ORDER}`;

export class Outbox {
  readonly #db: Database;
  readonly #clock: Clock;
  readonly #listeners: Array<() => void> = [];
  /** Tells the listeners; given to the database once per transaction that put events in, or made some due. */
  readonly #announce = () => {
    for (const listener of this.#listeners) listener();
  };

  constructor(db: Database, clock: Clock) {
    this.#db = db;
    this.#clock = clock;
  }

  /** Puts an event in the outbox, made at `atMs` on the account's clock (its timestamp). Call inside the state change's transaction. */
  async add(accountId: number, event: NewEvent, atMs: number) {
    const { type, sessionId } = event;
    // Whether it is due depends on its session's other events, and on the account's webhook: their writers wait.
    await this.#db.lock(accountId, sessionId);
    const transactionId = event.transactionId ?? null;
    const row = await this.#db.get<{ due_ms: number | null }>(
      INSERT,
      ...[accountId, newId("msg"), type, sessionId, transactionId, atMs, accountId, sessionId, atMs, accountId, accountId],
      ...[accountId, this.#clock.now()],
    );
    // An event that waits (for a URL, or behind its session's earlier one) gives delivery nothing to do yet.
    if (row!.due_ms !== null) this.#db.afterCommit(this.#announce);
  }

  /** The account has a webhook URL now: the events that waited for one are pending, each session's first due. */
  async release(accountId: number) {
    this.#db.afterCommit(this.#announce);
    await this.#db.lock(accountId);
    await this.#db.run(WAITING_TO_PENDING, accountId);
    await this.#db.run(FIRST_OF_EACH_SESSION, accountId);
  }

  /** Events due by real time `nowMs` and claimed by no process, whichever account they are of, soonest first. */
  due(nowMs: number, limit: number): Promise<DueKey[]> {
    return this.#db.all<DueKey>(DUE_FOR_ALL, nowMs, nowMs, limit);
  }

  /** One account's events due by real time `nowMs` and claimed by no process, soonest first. */
  dueFor(accountId: number, nowMs: number, limit: number): Promise<DueKey[]> {
    return this.#db.all<DueKey>(DUE_FOR_ACCOUNT, accountId, nowMs, this.#clock.now(), limit);
  }

  /** The seqs of one account's events due by real time `nowMs` that a process holds a live claim on. */
  async claimedFor(accountId: number, nowMs: number): Promise<number[]> {
    return (await this.#db.all<{ seq: number }>(CLAIMED_FOR_ACCOUNT, accountId, nowMs, this.#clock.now())).map((row) => row.seq);
  }

  /** How many of an account's events are due by real time `nowMs`, those held behind an earlier one of their session included. */
  async countDueFor(accountId: number, nowMs: number): Promise<number> {
    return (await this.#db.get<{ due: number }>(COUNT_DUE_FOR, accountId, nowMs))!.due;
  }

  /**
   * Claims a pending event due by real time `dueByMs` for one attempt until real time `untilMs`,
   * under `claim`; false when another process holds it or it is no longer due. A claim whose
   * holder died runs out, and another process takes it.
   */
  async claim(seq: number, claim: string, untilMs: number, dueByMs: number): Promise<boolean> {
    return (await this.#db.run(CLAIM, claim, untilMs, seq, dueByMs, this.#clock.now())) === 1;
  }

  /** Gives up the claims made under `claim` (a process that closes): another process may take the events at once. */
  async releaseClaims(claim: string) {
    await this.#db.run(RELEASE_CLAIMS, claim);
  }

  /** Calls `listener` after each commit that put events in the outbox or made some due: delivery listens. */
  onCommitted(listener: () => void) {
    this.#listeners.push(listener);
  }

  /** A due event, ready to send; undefined when it is no longer pending. */
  async load(seq: number): Promise<DueEvent | undefined> {
    const row = await this.#db.get<LoadedRow>(LOAD, seq);
    return row && { ...row, request: JSON.parse(row.request) };
  }

  /**
   * Records an attempt made under `claim` and what follows it: delivered, another attempt at
   * `nextDueMs`, or failed; once the event is done with, the next of its session is due. Nothing
   * is recorded when the claim was no longer this attempt's (its lease ran out, and another
   * process took the event); false then.
   */
  async recordAttempt(a: Attempt, claim: string): Promise<boolean> {
    const state = a.succeeded ? "delivered" : a.nextDueMs === null ? "failed" : "pending";
    const nextDue = state === "pending" ? a.nextDueMs : null;
    await this.#db.lock(a.accountId, a.sessionId);
    if ((await this.#db.run(AFTER_ATTEMPT, state, a.attempt, nextDue, a.accountId, a.eventId, claim)) === 0) return false;
    this.#db.afterCommit(this.#announce);
    await this.#insertAttempt(a);
    if (state !== "pending") await this.#db.run(NEXT, a.accountId, a.sessionId);
    return true;
  }

  /**
   * The event claimed under `claim` found nowhere to go: it waits, unattempted, for a URL or a
   * listener. Under the account's lock, which a release takes too: a listener that connected
   * meanwhile (and released what waited) finds it due again, not waiting for the next one.
   */
  async wait(accountId: number, seq: number, claim: string) {
    await this.#db.transaction(async () => {
      await this.#db.lock(accountId);
      const { hooked } = (await this.#db.get<{ hooked: number | boolean }>(HOOKED, accountId, accountId, this.#clock.now()))!;
      if (hooked) {
        this.#db.afterCommit(this.#announce);
        await this.#db.run(DUE_AGAIN, seq, claim);
      } else await this.#db.run(WAIT, seq, claim);
    });
  }

  /** Records an attempt a fault added (a duplicate): the event stays as it was, its attempts counted. */
  async recordExtraAttempt(a: Attempt) {
    await this.#insertAttempt(a);
    await this.#db.run(COUNT_ATTEMPTS, a.attempt, a.accountId, a.eventId);
  }

  async #insertAttempt(a: Attempt) {
    const faults = a.faults.length > 0 ? a.faults.join(",") : null;
    const { accountId, eventId, attempt, url, responseStatus, error, attemptedAtMs, durationMs, nextAttemptAtMs } = a;
    const succeeded = a.succeeded ? 1 : 0;
    await this.#db.run(
      INSERT_ATTEMPT,
      ...[accountId, eventId, attempt, url, responseStatus, error, succeeded, attemptedAtMs, durationMs, nextAttemptAtMs, faults],
      ...[JSON.stringify(a.requestHeaders), a.responseFirstBytes],
    );
  }

  /** The session's newest pending event that is due by real time `nowMs` (held back by the order rule or not). */
  async newestPending(key: DueKey, nowMs: number): Promise<DueKey> {
    return (await this.#db.get<DueKey>(NEWEST_PENDING, key.accountId, key.sessionId, nowMs)) ?? key;
  }

  get(accountId: number, id: string) {
    return this.#db.get<DueKey & { id: string; type: PayinEvent["type"]; state: string; attempts: number }>(GET, accountId, id);
  }

  /** Makes an event due again at real time `nowMs`, whatever became of it; its attempts so far, or undefined when there is none. */
  async redeliver(accountId: number, id: string, nowMs: number): Promise<number | undefined> {
    this.#db.afterCommit(this.#announce);
    const event = await this.get(accountId, id);
    if (!event) return undefined;
    await this.#db.lock(accountId, event.sessionId);
    return (await this.#db.get<{ attempts: number }>(AGAIN, nowMs, accountId, id))?.attempts;
  }

  /** The account's delivery attempts, oldest first; only those of one session's events when `sessionId` is given. */
  attempts(accountId: number, sessionId?: string): Promise<AttemptRow[]> {
    return sessionId === undefined
      ? this.#db.all<AttemptRow>(ACCOUNT_ATTEMPTS, accountId)
      : this.#db.all<AttemptRow>(SESSION_ATTEMPTS, accountId, sessionId);
  }

  /** The attempts of the account's events `eventIds` (the dashboard's page of them), oldest first. */
  async attemptsOf(accountId: number, eventIds: readonly string[]): Promise<AttemptRow[]> {
    return eventIds.length === 0 ? [] : this.#db.all<AttemptRow>(EVENTS_ATTEMPTS(eventIds.length), accountId, ...eventIds);
  }
}
