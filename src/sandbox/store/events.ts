// The outbox: every event the sandbox makes, written in the transaction of the state change it
// announces, and each delivery attempt made of it. The dispatcher (../delivery.ts) reads what is
// due from here and writes back what each attempt gave.
import type { DatabaseSync } from "node:sqlite";
import type { PayinEvent } from "../../../generated/events.ts";

/** Which event is due: enough to choose what to send, without its payload. */
export interface DueKey {
  seq: number;
  accountId: number;
  sessionId: string;
}

/** An event to send, with where and how. */
export interface DueEvent {
  seq: number;
  accountId: number;
  id: string;
  type: PayinEvent["type"];
  sessionId: string;
  payload: string;
  attempts: number;
  url: string;
  secret: string;
}

export interface Attempt {
  accountId: number;
  eventId: string;
  attempt: number;
  url: string;
  responseStatus: number | null;
  error: string | null;
  succeeded: boolean;
  attemptedAtMs: number;
  durationMs: number;
  /** When the next attempt is due on the account's clock; null when none will be made. */
  nextAttemptAtMs: number | null;
}

export interface AttemptRow {
  event_id: string;
  type: PayinEvent["type"];
  attempt: number;
  url: string;
  response_status: number | null;
  error: string | null;
  succeeded: number;
  attempted_at_ms: number;
  duration_ms: number;
  next_attempt_at_ms: number | null;
}

export class Events {
  /** Told after an event that can be delivered is added, so that delivery starts without waiting for a tick. */
  onAdded: () => void = () => {};
  readonly #insert;
  readonly #release;
  readonly #dueForAll;
  readonly #dueForAccount;
  readonly #countDueFor;
  readonly #load;
  readonly #insertAttempt;
  readonly #afterAttempt;
  readonly #get;
  readonly #again;
  readonly #attempts;

  constructor(db: DatabaseSync) {
    // An event of an account with no webhook URL waits (`waiting`) until one is registered,
    // outside the index range the dispatcher reads, however many pile up.
    this.#insert = db.prepare(
      `INSERT INTO events (account_id, id, type, session_id, payload, created_at_ms, state, next_attempt_at_ms)
       VALUES (?1, ?2, ?3, ?4, ?5, ?6, CASE WHEN EXISTS (SELECT 1 FROM webhooks WHERE account_id = ?1) THEN 'pending' ELSE 'waiting' END, ?6)
       RETURNING state`,
    );
    this.#release = db.prepare("UPDATE events SET state = 'pending' WHERE account_id = ? AND state = 'waiting'");
    // The order rule: an event goes out only once every earlier event of its session has been
    // acknowledged or has failed for good, so a receiver sees each session's events in order.
    const firstOfSession = `NOT EXISTS (SELECT 1 FROM events AS earlier
      WHERE earlier.account_id = events.account_id AND earlier.session_id = events.session_id AND earlier.state = 'pending' AND earlier.seq < events.seq)`;
    this.#dueForAll = db.prepare(
      `SELECT seq, account_id AS accountId, session_id AS sessionId FROM events
       WHERE state = 'pending' AND next_attempt_at_ms <= ?1 + (SELECT MAX(clock_offset_ms) FROM accounts)
         AND next_attempt_at_ms <= ?1 + (SELECT clock_offset_ms FROM accounts WHERE accounts.id = account_id)
         AND ${firstOfSession}
       ORDER BY seq LIMIT ?2`,
    );
    this.#dueForAccount = db.prepare(
      `SELECT seq, account_id AS accountId, session_id AS sessionId FROM events
       WHERE state = 'pending' AND next_attempt_at_ms <= ?2 AND account_id = ?1 AND ${firstOfSession} ORDER BY seq LIMIT ?3`,
    );
    this.#countDueFor = db.prepare("SELECT COUNT(*) AS due FROM events WHERE account_id = ? AND state = 'pending' AND next_attempt_at_ms <= ?");
    // Only events of an account with a URL are pending; the join gives it and the secret.
    this.#load = db.prepare(
      `SELECT e.seq, e.account_id AS accountId, e.id, e.type, e.session_id AS sessionId, e.payload, e.attempts, w.url, w.signing_secret AS secret
       FROM events e JOIN webhooks w ON w.account_id = e.account_id WHERE e.seq = ? AND e.state = 'pending'`,
    );
    this.#insertAttempt = db.prepare(
      `INSERT INTO delivery_attempts (account_id, event_id, attempt, url, response_status, error, succeeded, attempted_at_ms, duration_ms, next_attempt_at_ms)
       VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
    );
    this.#afterAttempt = db.prepare("UPDATE events SET state = ?, attempts = ?, next_attempt_at_ms = ? WHERE account_id = ? AND id = ?");
    this.#get = db.prepare("SELECT seq, account_id AS accountId, session_id AS sessionId, id, type, state, attempts FROM events WHERE account_id = ? AND id = ?");
    this.#again = db.prepare("UPDATE events SET state = 'pending', next_attempt_at_ms = ? WHERE account_id = ? AND id = ?");
    this.#attempts = db.prepare(
      `SELECT d.event_id, e.type, d.attempt, d.url, d.response_status, d.error, d.succeeded, d.attempted_at_ms, d.duration_ms, d.next_attempt_at_ms
       FROM delivery_attempts d JOIN events e ON e.account_id = d.account_id AND e.id = d.event_id
       WHERE d.account_id = ? ORDER BY d.attempted_at_ms, e.seq, d.attempt`,
    );
  }

  /** Puts an event in the outbox, due at once. Call inside the state change's transaction. */
  add(accountId: number, event: PayinEvent, atMs: number) {
    const { state } = this.#insert.get(accountId, event.id, event.type, event.data.session_id, JSON.stringify(event), atMs) as { state: string };
    if (state === "pending") this.onAdded();
  }

  /** The account has a webhook URL now: the events that waited for one are due. */
  release(accountId: number) {
    this.#release.run(accountId);
  }

  /** Events due by each account's own clock, real time being `nowMs`, oldest first. */
  due(nowMs: number, limit: number): DueKey[] {
    return this.#dueForAll.all(nowMs, limit) as unknown as DueKey[];
  }

  /** One account's events due by its clock's time `nowMs`, oldest first. */
  dueFor(accountId: number, nowMs: number, limit: number): DueKey[] {
    return this.#dueForAccount.all(accountId, nowMs, limit) as unknown as DueKey[];
  }

  /** How many of an account's events are due by its clock's time `nowMs`, those held behind an earlier one of their session included. */
  countDueFor(accountId: number, nowMs: number): number {
    return (this.#countDueFor.get(accountId, nowMs) as { due: number }).due;
  }

  /** A due event, ready to send; undefined when it is no longer pending. */
  load(seq: number): DueEvent | undefined {
    return this.#load.get(seq) as unknown as DueEvent | undefined;
  }

  /** Records an attempt and what follows it: delivered, another attempt at `nextAttemptAtMs`, or failed. */
  recordAttempt(a: Attempt) {
    this.#insertAttempt.run(a.accountId, a.eventId, a.attempt, a.url, a.responseStatus, a.error, a.succeeded ? 1 : 0, a.attemptedAtMs, a.durationMs, a.nextAttemptAtMs);
    const state = a.succeeded ? "delivered" : a.nextAttemptAtMs === null ? "failed" : "pending";
    this.#afterAttempt.run(state, a.attempt, a.nextAttemptAtMs ?? a.attemptedAtMs, a.accountId, a.eventId);
  }

  get(accountId: number, id: string) {
    return this.#get.get(accountId, id) as (DueKey & { id: string; type: PayinEvent["type"]; state: string; attempts: number }) | undefined;
  }

  /** Makes an event due again now, whatever became of it. */
  redeliver(accountId: number, id: string, nowMs: number) {
    this.#again.run(nowMs, accountId, id);
  }

  /** Every attempt of the account, in the order they were made. */
  attempts(accountId: number): AttemptRow[] {
    return this.#attempts.all(accountId) as unknown as AttemptRow[];
  }
}
