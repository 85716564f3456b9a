// The outbox: every event the sandbox makes, written in the transaction of the state change it
// announces, and each delivery attempt made of it. The dispatcher (../delivery/dispatcher.ts)
// claims what is due from here, many events with one statement that reads with them all an
// attempt needs, and writes back what each attempt gave with one more, which claims the next
// event of its session when that one is due; where the engine can, a new event whose turn has come
// is claimed as it is written. An event row holds what it announces and about which session and
// transaction; its payload is made from those when it is sent.
//
// The order rule (a session's events go one at a time, in the order they were made) is the
// claim's: an event is due from its own time (made, or retried), and only the oldest of its
// session that is neither delivered nor failed may be claimed. No write has to find the next one.
import type { PayinEvent } from "../../../generated/event-types.ts";
import type { Clock } from "../../lib/clock.ts";
import { newId } from "../../lib/ids.ts";
import { Buckets } from "../../lib/token-buckets.ts";
import type { Account, Accounts } from "./accounts.ts";
import { reportUnlessUnavailable, type Database, type Parameter } from "./database.ts";
import { clockOffsetOf } from "./due.ts";
import type { FaultRow, Faults } from "./faults.ts";
import { attemptValues, HOOKED_NOW, hookedParameters, INSERT_ATTEMPT, LOAD, type LoadedRow } from "./outbox-sql.ts";

/** Which event is due: enough to choose what to send, without its payload. */
export interface DueKey {
  seq: number;
  accountId: number;
  sessionId: string;
}

/** An event claimed to send, with what it tells (its session's and transaction's facts), where and how, and its account's. */
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
  /** Its account, its clock as the claim read it (unless this process moved it since). */
  account: Account;
  /** The delivery faults armed on its account, which act on its attempt (none for most accounts). */
  faults: readonly FaultRow[];
  /** Whether an armed shuffle chose it, the newest of its session, in place of the one whose turn it was. */
  shuffled: boolean;
  /** Whether a listener holds its account's deliveries (decision D23), as the claim saw. */
  listening: boolean;
}

/** An event a state change announces, by type; the rest of its payload comes from its session and transaction. */
export interface NewEvent {
  type: PayinEvent["type"];
  transactionId?: string;
}

export interface Attempt {
  accountId: number;
  eventId: string;
  /** Its event's number: the delivery log's order after the attempt's time. */
  eventSeq: number;
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
  /** What the account's delivery faults did to it on purpose, by effect. */
  marks: readonly string[];
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
  event_seq: number;
}

/** Where a page of the delivery log starts: after this attempt, in the log's order (its time, its event's number, its own). */
export interface LogPosition {
  attemptedAtMs: number;
  eventSeq: number;
  attempt: number;
}

/** What a claim holds: this process's name for its claims, until when, and the real time events must be due by. */
export interface ClaimTerms {
  claim: string;
  untilMs: number;
  dueByMs: number;
}

/** Claimed by no live process (the parameter: now, in real time). */
const UNCLAIMED = "(claim_until_ms IS NULL OR claim_until_ms <= ?)";
const KEY = 'seq, account_id AS "accountId", session_id AS "sessionId"';

/** Which due events a pass may take: any, or one account's. */
export type Scope = { accountId?: number };
/** One session of one account. */
export interface SessionKey {
  accountId: number;
  sessionId: string;
}
/**
 * The accounts with events due by real time `?` and claimed by no one (`?`: now), the longest waiting first, at most `?`:
 * a pass shares its batch among them, so that no account's backlog, however long, holds another's events back. Read
 * from the range of due rows (the unary plus keeps SQLite from walking every row of the account index for the grouping).
 */
const ACCOUNTS_DUE = `SELECT +d.account_id AS "accountId" FROM events d
  WHERE d.due_ms <= ? AND d.state = 'pending' AND (d.claim_until_ms IS NULL OR d.claim_until_ms <= ?)
  GROUP BY +d.account_id ORDER BY MIN(d.due_ms) LIMIT ?`;
// A named event, whatever its session's order (a redelivery, a shuffle fault's pick). Parameters: claim, until, seq, due by, now.
const CLAIM_ONE = `UPDATE events SET claim = ?, claim_until_ms = ?
  WHERE seq = ? AND state = 'pending' AND due_ms <= ? AND ${UNCLAIMED}`;
const EXTEND = "UPDATE events SET claim_until_ms = ? WHERE seq = ? AND claim = ?";
const RELEASE_CLAIM = "UPDATE events SET claim = NULL, claim_until_ms = NULL WHERE seq = ? AND claim = ?";
// Every claimed event is due: found among the due rows.
const RELEASE_CLAIMS = "UPDATE events SET claim = NULL, claim_until_ms = NULL WHERE due_ms IS NOT NULL AND claim = ?";

const DUE_FROM_ITS_TIME = `created_at_ms - ${clockOffsetOf("events.account_id")}`;
const WAITING_TO_PENDING = `UPDATE events SET state = 'pending', due_ms = ${DUE_FROM_ITS_TIME} WHERE account_id = ? AND state = 'waiting'`;
const CLAIMED_FOR_ACCOUNT = "SELECT seq FROM events WHERE account_id = ? AND state = 'pending' AND due_ms <= ? AND claim_until_ms > ?";
const COUNT_DUE_FOR = "SELECT COUNT(*) AS due FROM events WHERE account_id = ? AND state = 'pending' AND due_ms <= ?";
const COUNT_ATTEMPTS = "UPDATE events SET attempts = ? WHERE account_id = ? AND id = ?";
// Gone with its target (the listener left, and no URL is registered): the event waits again, its session's later ones
// behind it, until one connects or a URL is registered (release), written only by the process whose claim it was.
const WAIT = "UPDATE events SET state = 'waiting', due_ms = NULL, claim = NULL, claim_until_ms = NULL WHERE seq = ? AND claim = ?";
// ... unless, by the time it is written, the account has one again (a listener connected as the attempt found none):
// then it is due again at once.
const HOOKED = `SELECT ${HOOKED_NOW} AS hooked`;
const DUE_AGAIN = `UPDATE events SET due_ms = ${DUE_FROM_ITS_TIME}, claim = NULL, claim_until_ms = NULL WHERE seq = ? AND claim = ?`;
// The shuffle fault's pick: the session's newest pending event whose time has come.
const NEWEST_PENDING = `SELECT ${KEY} FROM events
  WHERE account_id = ? AND session_id = ? AND state = 'pending' AND due_ms <= ? ORDER BY seq DESC LIMIT 1`;
const GET = `SELECT ${KEY}, id, type, state, attempts FROM events WHERE account_id = ? AND id = ?`;
// Free of any claim: the attempt another process has under way is no longer recorded, so that the one asked for is made.
const AGAIN =
  "UPDATE events SET state = 'pending', due_ms = ?, claim = NULL, claim_until_ms = NULL WHERE account_id = ? AND id = ? RETURNING attempts";

const ATTEMPT_FIELDS =
  "d.event_id, e.type, e.session_id, e.transaction_id, d.attempt, d.url, d.response_status, d.error, d.succeeded, " +
  "d.attempted_at_ms, d.duration_ms, d.next_attempt_at_ms, d.faults, d.request_headers, d.response_first_bytes, d.event_seq";
const WITH_EVENT = "JOIN events e ON e.account_id = d.account_id AND e.id = d.event_id";
const ATTEMPTS = `SELECT ${ATTEMPT_FIELDS} FROM delivery_attempts d ${WITH_EVENT}`;
// The log's order, which the account's index (delivery_attempts_by_account) holds: a page is read from it from where the
// page before ended, never skipped to by OFFSET, so that no page of a long log costs more than its own length.
const LOG_ORDER = "ORDER BY d.attempted_at_ms, d.event_seq, d.attempt";
const AFTER = " AND (d.attempted_at_ms, d.event_seq, d.attempt) > (?, ?, ?)";
/** A page of the account's log; parameters: account, the position's three when `after`, limit. */
const ACCOUNT_PAGE = (after: boolean) => `${ATTEMPTS} WHERE d.account_id = ?${after ? AFTER : ""} ${LOG_ORDER} LIMIT ?`;
/** A page of one session's: its events found by the session's index, their attempts by key; parameters: account, session, then as above. */
const SESSION_PAGE = (after: boolean) =>
  `${ATTEMPTS} WHERE e.account_id = ? AND e.session_id = ?${after ? AFTER : ""} ${LOG_ORDER} LIMIT ?`;
/**
 * The newest attempts of each of `count` events, at most `?` each, read backwards by key before the join (which would
 * have them sorted); parameters: account, event, how many, for each.
 */
const NEWEST_OF_EVENTS = (count: number) => {
  const newest = (i: number) =>
    `SELECT * FROM (SELECT * FROM delivery_attempts WHERE account_id = ? AND event_id = ? ORDER BY attempt DESC LIMIT ?) AS event${i}`;
  const each = Array.from({ length: count }, (_, i) => newest(i)).join(" UNION ALL ");
  return `SELECT ${ATTEMPT_FIELDS} FROM (${each}) AS d ${WITH_EVENT} ${LOG_ORDER}`;
};

export class Outbox {
  readonly #db: Database;
  readonly #clock: Clock;
  readonly #listeners: Array<(session?: SessionKey) => void> = [];
  /**
   * Tells the listeners, of the session whose events a commit put in when it is one, so that they look at that
   * session's only; given to the database once per transaction that put events in, or made some due.
   */
  readonly #announce = (session?: SessionKey) => {
    for (const listener of this.#listeners) listener(session);
  };
  readonly #announceAll = () => this.#announce();

  /**
   * Each account's delivery budget, when there is one: attempts a second that this process may claim for it, with a
   * burst of as many (a hosted sandbox's --rate-limit), so that one tenant's flood of events cannot take the deliveries'
   * time from the others; beyond, its events wait, unclaimed, for its budget to refill.
   */
  readonly #budgets: Buckets | undefined;

  readonly #accounts: Accounts;
  readonly #faults: Faults;
  #claimAsAdded: { terms(): ClaimTerms | undefined; start(events: DueEvent[]): void } | undefined;

  /**
   * `accounts`: whose objects a claim hands over with its events; `faults`: what acts on their attempts;
   * `deliveriesPerSecond`: each account's delivery budget, none by default.
   */
  constructor(db: Database, clock: Clock, accounts: Accounts, faults: Faults, deliveriesPerSecond?: number) {
    this.#db = db;
    this.#clock = clock;
    this.#accounts = accounts;
    this.#faults = faults;
    this.#budgets = deliveriesPerSecond ? new Buckets(clock, deliveriesPerSecond, deliveriesPerSecond) : undefined;
  }

  /** How many attempts the account's budget has left now. */
  #allowance(accountId: number): number {
    return this.#budgets ? this.#budgets.available(String(accountId)) : Number.POSITIVE_INFINITY;
  }

  #spend(accountId: number) {
    this.#budgets?.take(String(accountId), 1);
  }

  /**
   * Puts a session's events in the outbox, in their order, made at `atMs` on the account's clock
   * (their timestamp). Call inside the state change's transaction.
   */
  add(accountId: number, sessionId: string, events: readonly NewEvent[], atMs: number) {
    return this.addAll(accountId, [{ sessionId, events, atMs }]);
  }

  /** `add` for several sessions of one account at once (what came due together), in one statement. */
  async addAll(accountId: number, batches: ReadonlyArray<{ sessionId: string; events: readonly NewEvent[]; atMs: number }>) {
    if (batches.length === 0) return;
    // Whether they wait depends on the account's webhook and listener: their writers wait for this.
    await this.#db.lockSessions(batches.map(({ sessionId }) => ({ accountId, sessionId })));
    const rows = batches.flatMap(({ sessionId, events, atMs }) =>
      events.map(({ type, transactionId }, i) => [newId("msg"), type, sessionId, transactionId ?? null, atMs, i === 0 ? 1 : 0]),
    );
    const values = rows.flatMap(([id, type, session, transaction, at, first], place) => [id, type, session, transaction, at, place, first]);
    const parameters = [accountId, accountId, ...values, ...hookedParameters(accountId, this.#clock.now())] as Parameter[];
    // Claimed as they are written, where the engine can and delivery here asks, within the account's budget.
    const terms = this.#allowance(accountId) >= batches.length ? this.#claimAsAdded?.terms() : undefined;
    const readingFrom = this.#accounts.readingFrom;
    let claimed: LoadedRow[] = [];
    await this.#db.statements.addEvents(this.#db, rows.length, parameters, terms && { terms, claimed: (rows) => (claimed = rows) });
    for (const row of claimed) this.#spend(row.accountId);
    this.#db.afterCommit(() => {
      const handed = new Set(claimed.map((row) => row.sessionId));
      // The rest, unless they wait (for a URL), which a write does not say: then delivery finds nothing to do yet.
      for (const { sessionId } of batches) if (!handed.has(sessionId)) this.#announce({ accountId, sessionId });
      if (claimed.length > 0) void this.#ready(claimed, readingFrom, terms).then(this.#claimAsAdded!.start, reportUnlessUnavailable);
    });
  }

  /**
   * Has new events claimed as they are written, where the engine can: under `terms()` (none when delivery stops), each
   * then given to `start` once its transaction commits, rather than announced for delivery to claim.
   */
  claimAsAdded(terms: () => ClaimTerms | undefined, start: (events: DueEvent[]) => void) {
    this.#claimAsAdded = { terms, start };
  }

  /** The account has a webhook URL (or a listener) now: the events that waited for one are pending, each due from its time. */
  async release(accountId: number) {
    this.#db.afterCommit(this.#announceAll);
    await this.#db.lock(accountId);
    await this.#db.run(WAITING_TO_PENDING, accountId);
  }

  /**
   * Claims, under `terms`, events due whose turn it is by the order rule, of all accounts or of
   * one, at most `limit`: each account with events due gets an equal part of the batch, the longest
   * waiting first, and never more than its delivery budget has left, so that what is over budget
   * is never claimed. Resolves to them, with all their attempts need.
   */
  async claimDue(terms: ClaimTerms, limit: number, scope: Scope = {}): Promise<DueEvent[]> {
    const now = this.#clock.now();
    const readingFrom = this.#accounts.readingFrom;
    const accounts =
      scope.accountId === undefined
        ? (await this.#db.all<{ accountId: number }>(ACCOUNTS_DUE, terms.dueByMs, now, limit)).map((row) => row.accountId)
        : [scope.accountId];
    const part = Math.max(1, Math.floor(limit / accounts.length));
    const allowed = accounts.map((id) => ({ id, allowance: Math.min(part, this.#allowance(id)) })).filter((a) => a.allowance > 0);
    if (allowed.length === 0) return [];
    const rows = await this.#db.statements.claimDue(this.#db, terms, allowed, now);
    for (const row of rows) this.#spend(row.accountId);
    return this.#ready(rows, readingFrom, terms);
  }

  /**
   * Claims, under `terms`, the session's event whose turn it is, when that one is due and its account's delivery budget
   * has an attempt left; resolves to it, with all its attempt needs.
   */
  async claimNext(terms: ClaimTerms, { accountId, sessionId }: SessionKey): Promise<DueEvent | undefined> {
    if (this.#allowance(accountId) < 1) return undefined;
    const readingFrom = this.#accounts.readingFrom;
    const claimed = await this.#db.statements.claimNext(this.#db, terms, { accountId, sessionId }, this.#clock.now());
    if (!claimed) return undefined;
    this.#spend(accountId);
    return (await this.#ready([claimed], readingFrom, terms))[0];
  }

  /** Claims one event by its number, whatever its session's order (a redelivery asked for); undefined when it cannot be. */
  async claimOne(seq: number, terms: ClaimTerms): Promise<DueEvent | undefined> {
    const readingFrom = this.#accounts.readingFrom;
    const row = await this.#claimOne(seq, terms);
    return row && (await this.#ready([row], readingFrom))[0];
  }

  async #claimOne(seq: number, terms: ClaimTerms): Promise<LoadedRow | undefined> {
    if ((await this.#db.run(CLAIM_ONE, terms.claim, terms.untilMs, seq, terms.dueByMs, this.#clock.now())) === 0) return undefined;
    return this.#db.get<LoadedRow>(LOAD, seq);
  }

  /**
   * Events claimed, made ready for their attempts: each with its account's object (its clock as read from
   * `readingFrom`) and its account's delivery faults. A claim of an event's turn (`terms`) under an armed shuffle takes
   * the session's newest event due in its place, the one whose turn it was given back: the shuffle is a claim policy.
   */
  async #ready(rows: readonly LoadedRow[], readingFrom: number, terms?: ClaimTerms): Promise<DueEvent[]> {
    const events: DueEvent[] = [];
    for (let row of rows) {
      const faults = row.deliveryFaults ? await this.#faults.forDelivery(row.accountId) : [];
      let shuffled = false;
      if (terms && faults.some((f) => f.effect === "shuffle")) {
        const newest = await this.newestPending(row, Math.min(terms.dueByMs, this.#clock.now()));
        const taken = newest.seq === row.seq ? undefined : await this.#claimOne(newest.seq, terms);
        if (taken) {
          await this.releaseClaim(row.seq, terms.claim);
          [row, shuffled] = [taken, true];
        }
      }
      const { clockOffsetMs, deliveryFaults: _, listening, request, ...rest } = row;
      const account = this.#accounts.of({ id: row.accountId, clockOffsetMs }, readingFrom);
      events.push({ ...rest, request: JSON.parse(request), listening: Boolean(listening), account, faults, shuffled });
    }
    return events;
  }

  /** Holds a claim longer (an attempt that a delay fault makes wait). */
  async extendClaim(seq: number, claim: string, untilMs: number) {
    await this.#db.run(EXTEND, untilMs, seq, claim);
  }

  /** Gives back one event claimed and not attempted: any process may take it at once. */
  async releaseClaim(seq: number, claim: string) {
    await this.#db.run(RELEASE_CLAIM, seq, claim);
  }

  /** Gives up the claims made under `claim` (a process that closes): another process may take the events at once. */
  async releaseClaims(claim: string) {
    await this.#db.run(RELEASE_CLAIMS, claim);
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
   * Calls `listener` after each commit that put events in the outbox or made some due, with the session when the
   * events are one session's: delivery listens.
   */
  onCommitted(listener: (session?: SessionKey) => void) {
    this.#listeners.push(listener);
  }

  /**
   * Records an attempt made under `claim` and what follows it: delivered, another attempt at
   * `nextDueMs`, or failed; and, with `next`, claims its session's next event when it is done with
   * this one and that one is due. Nothing is recorded when the claim was no longer this attempt's
   * (its lease ran out, and another process took the event): `recorded` false then.
   */
  async finish(a: Attempt, claim: string, asked?: ClaimTerms): Promise<{ recorded: boolean; next?: DueEvent }> {
    const readingFrom = this.#accounts.readingFrom;
    // The next event is claimed only within its account's budget: past it, the event waits for a pass.
    const next = asked && this.#allowance(a.accountId) >= 1 ? asked : undefined;
    const state = a.succeeded ? "delivered" : a.nextDueMs === null ? "failed" : "pending";
    const nextDue = state === "pending" ? a.nextDueMs : null;
    const outcome = { state, attempts: a.attempt, nextDueMs: nextDue, claim } as const;
    const { finished, following: row } = await this.#db.statements.finish(this.#db, outcome, a, next, this.#clock.now());
    if (!finished) return { recorded: false };
    if (row) this.#spend(a.accountId);
    const following = row && (await this.#ready([row], readingFrom, next))[0];
    return following ? { recorded: true, next: following } : { recorded: true };
  }

  /**
   * The event claimed under `claim` found nowhere to go: it waits, unattempted, for a URL or a
   * listener (or its listener's lease renewed). Under the account's lock, which a release takes too: a listener that connected
   * meanwhile (and released what waited) finds it due again, not waiting for the next one.
   */
  async wait(accountId: number, seq: number, claim: string) {
    await this.#db.transaction(async () => {
      await this.#db.lock(accountId);
      const { hooked } = (await this.#db.get<{ hooked: number | boolean }>(HOOKED, ...hookedParameters(accountId, this.#clock.now())))!;
      if (hooked) {
        this.#db.afterCommit(this.#announceAll);
        await this.#db.run(DUE_AGAIN, seq, claim);
      } else await this.#db.run(WAIT, seq, claim);
    });
  }

  /** Records an attempt a fault added (a duplicate): the event stays as it was, its attempts counted. */
  async recordExtraAttempt(a: Attempt) {
    await this.#db.run(INSERT_ATTEMPT, ...attemptValues(a));
    await this.#db.run(COUNT_ATTEMPTS, a.attempt, a.accountId, a.eventId);
  }

  /** The session's newest pending event that is due by real time `nowMs` (its turn come or not). */
  async newestPending(key: DueKey, nowMs: number): Promise<DueKey> {
    return (await this.#db.get<DueKey>(NEWEST_PENDING, key.accountId, key.sessionId, nowMs)) ?? key;
  }

  get(accountId: number, id: string) {
    return this.#db.get<DueKey & { id: string; type: PayinEvent["type"]; state: string; attempts: number }>(GET, accountId, id);
  }

  /** Makes an event due again at real time `nowMs`, whatever became of it; its attempts so far, or undefined when there is none. */
  async redeliver(accountId: number, id: string, nowMs: number): Promise<number | undefined> {
    this.#db.afterCommit(this.#announceAll);
    const event = await this.get(accountId, id);
    if (!event) return undefined;
    return (await this.#db.get<{ attempts: number }>(AGAIN, nowMs, accountId, id))?.attempts;
  }

  /**
   * A page of the account's delivery log, oldest first, only one session's attempts with `sessionId`: at most `limit`,
   * those after `after` (the first page without).
   */
  attemptsPage(accountId: number, page: { sessionId?: string; after?: LogPosition; limit: number }): Promise<AttemptRow[]> {
    const { sessionId, after, limit } = page;
    const filter = sessionId === undefined ? [accountId] : [accountId, sessionId];
    const start = after === undefined ? [] : [after.attemptedAtMs, after.eventSeq, after.attempt];
    const sql = sessionId === undefined ? ACCOUNT_PAGE(after !== undefined) : SESSION_PAGE(after !== undefined);
    return this.#db.all<AttemptRow>(sql, ...filter, ...start, limit);
  }

  /**
   * The newest attempts of the account's events `eventIds` (the dashboard's page of them), at most `perEvent` of each
   * however often one was sent again, oldest first.
   */
  async newestAttemptsOf(accountId: number, eventIds: readonly string[], perEvent: number): Promise<AttemptRow[]> {
    if (eventIds.length === 0) return [];
    return this.#db.all<AttemptRow>(NEWEST_OF_EVENTS(eventIds.length), ...eventIds.flatMap((id) => [accountId, id, perEvent]));
  }
}
