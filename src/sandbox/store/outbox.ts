// The outbox: every event the sandbox makes, written in the transaction of the state change it
// announces, and each delivery attempt made of it. The dispatcher (../delivery/dispatcher.ts) reads what is
// due from here and writes back what each attempt gave. An event row holds what it announces
// and about which session and transaction; its payload is made from those when it is sent.
import type { DatabaseSync } from "node:sqlite";
import type { PayinEvent } from "../../../generated/event-types.ts";
import { newId } from "../../lib/ids.ts";
import { prepareAll } from "./database.ts";
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
  url: string;
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
  url: string;
  secret: string;
  counterpartyId: string;
  request: string;
  failureReason: string | null;
}

const ATTEMPTS =
  "SELECT d.event_id, e.type, e.session_id, e.transaction_id, d.attempt, d.url, d.response_status, d.error, d.succeeded, " +
  `d.attempted_at_ms, d.duration_ms, d.next_attempt_at_ms, d.faults
   FROM delivery_attempts d JOIN events e ON e.account_id = d.account_id AND e.id = d.event_id`;
const ATTEMPTS_ORDER = "ORDER BY d.attempted_at_ms, e.seq, d.attempt";

export class Outbox {
  readonly #sql;
  /** Whether the transaction under way put events in, or made some due. */
  #written = false;
  readonly #listeners: Array<() => void> = [];

  constructor(db: DatabaseSync) {
    // An event waits (`waiting`) while its account has no webhook URL. Otherwise it is pending,
    // and due (`due_ms`) from the time it was made, unless an earlier event of its session is
    // still pending: the order rule lets a session's next event go only once the one before is
    // done with, and it is then due from the time it was made, as it would have been.
    const dueFromItsTime = `created_at_ms - ${clockOffsetOf("events.account_id")}`;
    this.#sql = prepareAll(db, {
      insert: `INSERT INTO events (account_id, id, type, session_id, transaction_id, created_at_ms, state, due_ms)
       SELECT :account, :id, :type, :session, :transaction, :at, CASE WHEN hooked THEN 'pending' ELSE 'waiting' END,
         CASE WHEN hooked AND NOT EXISTS (SELECT 1 FROM events WHERE account_id = :account AND session_id = :session AND state = 'pending')
           THEN :at - ${clockOffsetOf(":account")} END
       FROM (SELECT EXISTS (SELECT 1 FROM webhooks WHERE account_id = :account) AS hooked)`,
      waitingToPending: "UPDATE events SET state = 'pending' WHERE account_id = ? AND state = 'waiting'",
      firstOfEachSession: `UPDATE events SET due_ms = ${dueFromItsTime}
       WHERE seq IN (SELECT MIN(seq) FROM events WHERE account_id = ? AND state = 'pending' GROUP BY session_id) AND due_ms IS NULL`,
      dueForAll: "SELECT seq, account_id AS accountId, session_id AS sessionId FROM events WHERE due_ms <= ? ORDER BY due_ms LIMIT ?",
      dueForAccount:
        "SELECT seq, account_id AS accountId, session_id AS sessionId FROM events " +
        "WHERE account_id = ? AND due_ms <= ? ORDER BY due_ms LIMIT ?",
      countDueFor: "SELECT COUNT(*) AS due FROM events WHERE account_id = ? AND state = 'pending' AND (due_ms IS NULL OR due_ms <= ?)",
      // Only events of an account with a URL are pending; the joins give it, the secret, and what the payload tells.
      load:
        "SELECT e.seq, e.account_id AS accountId, e.id, e.type, e.session_id AS sessionId, " +
        `e.transaction_id AS transactionId, e.created_at_ms AS createdAtMs,
         e.attempts, w.url, w.signing_secret AS secret, s.counterparty_id AS counterpartyId, s.request, t.failure_reason AS failureReason
       FROM events e JOIN webhooks w ON w.account_id = e.account_id
         JOIN payment_sessions s ON s.account_id = e.account_id AND s.id = e.session_id
         LEFT JOIN transactions t ON t.account_id = e.account_id AND t.id = e.transaction_id
       WHERE e.seq = ? AND e.state = 'pending'`,
      insertAttempt:
        "INSERT INTO delivery_attempts (account_id, event_id, attempt, url, response_status, error, succeeded, " +
        `attempted_at_ms, duration_ms, next_attempt_at_ms, faults)
       VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
      countAttempts: "UPDATE events SET attempts = ? WHERE account_id = ? AND id = ?",
      // The shuffle fault's pick: the session's newest pending event whose time has come.
      newestPending: `SELECT seq, account_id AS accountId, session_id AS sessionId FROM events
       WHERE account_id = ? AND session_id = ? AND state = 'pending' AND (due_ms IS NULL OR due_ms <= ?) ORDER BY seq DESC LIMIT 1`,
      afterAttempt: "UPDATE events SET state = ?, attempts = ?, due_ms = ? WHERE account_id = ? AND id = ?",
      next: `UPDATE events SET due_ms = ${dueFromItsTime}
       WHERE seq = (SELECT MIN(seq) FROM events WHERE account_id = ? AND session_id = ? AND state = 'pending') AND due_ms IS NULL`,
      get:
        "SELECT seq, account_id AS accountId, session_id AS sessionId, id, type, state, attempts " +
        "FROM events WHERE account_id = ? AND id = ?",
      again: "UPDATE events SET state = 'pending', due_ms = ? WHERE account_id = ? AND id = ?",
      attempts: `${ATTEMPTS} WHERE d.account_id = ? ${ATTEMPTS_ORDER}`,
      recent: "SELECT id, type, session_id, transaction_id, state, created_at_ms FROM events WHERE account_id = ? ORDER BY id DESC LIMIT ?",
      sessionAttempts: `${ATTEMPTS} WHERE e.account_id = ? AND e.session_id = ? ${ATTEMPTS_ORDER}`,
    });
  }

  /** Puts an event in the outbox, made at `atMs` on the account's clock (its timestamp). Call inside the state change's transaction. */
  add(accountId: number, event: NewEvent, atMs: number) {
    this.#written = true;
    this.#sql.insert.run({
      account: accountId,
      id: newId("msg"),
      type: event.type,
      session: event.sessionId,
      transaction: event.transactionId ?? null,
      at: atMs,
    });
  }

  /** The account has a webhook URL now: the events that waited for one are pending, each session's first due. */
  release(accountId: number) {
    this.#written = true;
    this.#sql.waitingToPending.run(accountId);
    this.#sql.firstOfEachSession.run(accountId);
  }

  /** Events due by real time `nowMs`, whichever account they are of, soonest first. */
  due(nowMs: number, limit: number): DueKey[] {
    return this.#sql.dueForAll.all(nowMs, limit) as unknown as DueKey[];
  }

  /** One account's events due by real time `nowMs`, soonest first. */
  dueFor(accountId: number, nowMs: number, limit: number): DueKey[] {
    return this.#sql.dueForAccount.all(accountId, nowMs, limit) as unknown as DueKey[];
  }

  /** How many of an account's events are due by real time `nowMs`, those held behind an earlier one of their session included. */
  countDueFor(accountId: number, nowMs: number): number {
    return (this.#sql.countDueFor.get(accountId, nowMs) as { due: number }).due;
  }

  /** Calls `listener` after each commit that put events in the outbox or made some due: delivery listens. */
  onCommitted(listener: () => void) {
    this.#listeners.push(listener);
  }

  /** The store's transaction has committed: the listeners hear of what it wrote here, if anything. */
  announceWrites() {
    if (!this.#written) return;
    this.#written = false;
    for (const listener of this.#listeners) listener();
  }

  /** The store's transaction has ended without a commit, or after one: nothing it wrote is left to tell. */
  forgetWrites() {
    this.#written = false;
  }

  /** A due event, ready to send; undefined when it is no longer pending. */
  load(seq: number): DueEvent | undefined {
    const row = this.#sql.load.get(seq) as unknown as LoadedRow | undefined;
    return row && { ...row, request: JSON.parse(row.request) };
  }

  /**
   * Records an attempt and what follows it: delivered, another attempt at `nextDueMs`, or
   * failed; once the event is done with, the next of its session is due.
   */
  recordAttempt(a: Attempt) {
    this.#insertAttempt(a);
    const state = a.succeeded ? "delivered" : a.nextDueMs === null ? "failed" : "pending";
    this.#sql.afterAttempt.run(state, a.attempt, state === "pending" ? a.nextDueMs : null, a.accountId, a.eventId);
    if (state !== "pending") this.#sql.next.run(a.accountId, a.sessionId);
  }

  /** Records an attempt a fault added (a duplicate): the event stays as it was, its attempts counted. */
  recordExtraAttempt(a: Attempt) {
    this.#insertAttempt(a);
    this.#sql.countAttempts.run(a.attempt, a.accountId, a.eventId);
  }

  #insertAttempt(a: Attempt) {
    const faults = a.faults.length > 0 ? a.faults.join(",") : null;
    this.#sql.insertAttempt.run(
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
      faults,
    );
  }

  /** The session's newest pending event that is due by real time `nowMs` (held back by the order rule or not). */
  newestPending(key: DueKey, nowMs: number): DueKey {
    return (this.#sql.newestPending.get(key.accountId, key.sessionId, nowMs) as unknown as DueKey | undefined) ?? key;
  }

  get(accountId: number, id: string) {
    return this.#sql.get.get(accountId, id) as
      | (DueKey & { id: string; type: PayinEvent["type"]; state: string; attempts: number })
      | undefined;
  }

  /** Makes an event due again at real time `nowMs`, whatever became of it. */
  redeliver(accountId: number, id: string, nowMs: number) {
    this.#written = true;
    this.#sql.again.run(nowMs, accountId, id);
  }

  /** Every attempt of the account, in the order they were made. */
  /** The account's newest events, newest first, with what became of them (the dashboard's list). */
  recent(accountId: number, limit: number) {
    return this.#sql.recent.all(accountId, limit) as Array<{
      id: string;
      type: PayinEvent["type"];
      session_id: string;
      transaction_id: string | null;
      state: string;
      created_at_ms: number;
    }>;
  }

  /** The account's delivery attempts, oldest first; only those of one session's events when `sessionId` is given. */
  attempts(accountId: number, sessionId?: string): AttemptRow[] {
    const rows = sessionId === undefined ? this.#sql.attempts.all(accountId) : this.#sql.sessionAttempts.all(accountId, sessionId);
    return rows as unknown as AttemptRow[];
  }
}
