// The sandbox's state: one database (SQLite by default, PostgreSQL for a shared sandbox) and the
// statements of each resource, grouped by resource.
import { systemClock, type Clock } from "../../lib/clock.ts";
import { Accounts, type Account } from "./accounts.ts";
import { Counterparties } from "./counterparties.ts";
import type { Database } from "./database.ts";
import { DueTimes, type DueWork } from "./due.ts";
import { EventLog } from "./event-log.ts";
import { Faults } from "./faults.ts";
import { IdempotencyKeys } from "./idempotency.ts";
import { Journal } from "./journal.ts";
import { Listeners } from "./listeners.ts";
import { Outbox } from "./outbox.ts";
import { Sessions } from "./sessions.ts";
import { SqliteDatabase } from "./sqlite.ts";
import { Transactions } from "./transactions.ts";
import { Webhooks } from "./webhooks.ts";

/** Tables emptied by a reset, children before parents. */
const ACCOUNT_TABLES = [
  "delivery_attempts",
  "events",
  "idempotency_keys",
  "transactions",
  "payment_sessions",
  "counterparties",
  "webhooks",
  // A listener connected to the account ends with it, and connects again to the account made anew.
  "listeners",
  "faults",
  "requests",
] as const;

/** An account with no request for this long is deleted, with all it holds. */
export const DEFAULT_RETENTION_MS = 30 * 24 * 3600 * 1000;
/** Accounts deleted per transaction of a sweep. */
const SWEEP_BATCH = 20;
/** The sweep's advisory lock: account ids start at 1. */
const SWEEP_LOCK = 0;
// What an operator watches, in one statement: a reading costs the database one query, however many gauges it fills.
const GAUGES = `SELECT due.count, due.oldest, (SELECT COUNT(*) FROM accounts WHERE last_request_ms >= ?) AS active
  FROM (SELECT COUNT(*) AS count, MIN(due_ms) AS oldest FROM events WHERE due_ms IS NOT NULL AND due_ms <= ?) AS due`;
// Accounts a token made on its first use: an issued account is its operator's, kept until revoked.
const IDLE_ACCOUNTS = "SELECT id FROM accounts WHERE last_request_ms < ? AND issued = 0 ORDER BY last_request_ms LIMIT ?";

export interface StoreOptions {
  retentionMs?: number;
  clock?: Clock;
  /** How many tokens' account facts a process keeps (10,000 by default). */
  keptAccounts?: number;
  /** Each account's delivery budget: attempts a second this process claims for it at most, with a burst of as many. None by default. */
  deliveriesPerSecond?: number;
}

/**
 * Where the state is kept: a SQLite file (`:memory:` by default), or a PostgreSQL URL (with how
 * long a connection or a statement may take before the database counts as unavailable: 5 s by default).
 */
export type StoreLocation = { file?: string } | { postgres: string; timeoutMs?: number };

/**
 * Opens the database at `location`, its schema brought up to date: SQLite in memory by default.
 * PostgreSQL's driver is loaded only for a PostgreSQL URL. A test keeps it to look under the store.
 */
export async function openDatabase(location: StoreLocation = {}, clock: Clock = systemClock): Promise<Database> {
  if ("postgres" in location) {
    const { PostgresDatabase } = await import("./postgres.ts").catch((error: { code?: string }) => {
      // pg is an optional peer dependency: only a shared sandbox needs it.
      if (error.code === "ERR_MODULE_NOT_FOUND")
        throw new Error("A PostgreSQL database needs its driver: npm install pg", { cause: error });
      throw error;
    });
    return PostgresDatabase.open(location.postgres, { timeoutMs: location.timeoutMs, clock });
  }
  const sqlite = new SqliteDatabase(location.file);
  // One process serves a SQLite file: what a process before it claimed and left unrecorded is free now (every claimed
  // event is due: found among the due rows).
  await sqlite.run("UPDATE events SET claim = NULL, claim_until_ms = NULL WHERE due_ms IS NOT NULL AND claim IS NOT NULL");
  return sqlite;
}

/** The state, by resource, on one database that only the store's modules reach: the rest of the sandbox asks for named operations. */
export class Store {
  readonly #db: Database;
  readonly accounts: Accounts;
  readonly counterparties: Counterparties;
  readonly sessions: Sessions;
  readonly transactions: Transactions;
  readonly webhooks: Webhooks;
  readonly idempotencyKeys: IdempotencyKeys;
  readonly outbox: Outbox;
  /** The outbox's events as the dashboard lists them. */
  readonly eventLog: EventLog;
  readonly faults: Faults;
  readonly journal: Journal;
  readonly listeners: Listeners;
  /** Real time, as the sandbox is given it: what the store stamps and compares due times with. */
  readonly clock: Clock;
  /** How often the idle accounts are swept: with the touch interval, the most an account outlives its retention. */
  readonly sweepEveryMs: number;
  readonly #retentionMs: number;
  readonly #dueTimes;

  /**
   * `retentionMs`: how long an account may go without a request before `deleteIdleAccounts` takes it (30 days by default);
   * `clock`: the real time (the system's by default).
   */
  constructor(
    db: Database,
    { retentionMs = DEFAULT_RETENTION_MS, clock = systemClock, keptAccounts, deliveriesPerSecond }: StoreOptions = {},
  ) {
    this.#db = db;
    this.clock = clock;
    this.#retentionMs = retentionMs;
    // A twentieth of the retention each, at most a minute: an account goes within a tenth of the retention after it.
    this.sweepEveryMs = Math.min(60_000, retentionMs / 20);
    this.accounts = new Accounts(db, clock, Math.min(60_000, retentionMs / 20), keptAccounts);
    this.counterparties = new Counterparties(db);
    this.sessions = new Sessions(db);
    this.transactions = new Transactions(db);
    this.webhooks = new Webhooks(db);
    this.idempotencyKeys = new IdempotencyKeys(db);
    this.faults = new Faults(db, (id) => this.accounts.changed(id));
    this.outbox = new Outbox(db, clock, this.accounts, this.faults, deliveriesPerSecond);
    this.eventLog = new EventLog(db);
    this.journal = new Journal(db);
    this.listeners = new Listeners(db, clock);
    this.#dueTimes = new DueTimes(db);
  }

  /** Opens the store on the database at `location` (openDatabase). */
  static async open(location: StoreLocation = {}, options: StoreOptions = {}): Promise<Store> {
    const store = new Store(await openDatabase(location, options.clock), options);
    await store.accounts.hearChanges().catch(async (error) => {
      await store.#db.close();
      throw error;
    });
    return store;
  }

  /**
   * Runs `work` in one transaction: all of its writes happen, or none. Once a transaction that
   * put events in the outbox, or made some due, has committed, the outbox's listeners hear of it.
   * `work` may run again when PostgreSQL aborted it for another transaction's sake.
   */
  transaction<T>(work: () => Promise<T>, options?: { optimistic?: boolean }): Promise<T> {
    return this.#db.transaction(work, options);
  }

  /**
   * Inside a transaction, until it ends: the lock that the writers of the session's events share
   * (outbox.ts), in every process. What the transaction reads of the session then stays
   * as read until it commits: of two payments of one session at once, the second sees the first's.
   */
  lockSession(accountId: number, sessionId: string) {
    return this.#db.lock(accountId, sessionId);
  }

  /** Moves the account's clock `ms` ahead; what it has due comes that much sooner in real time. */
  advanceClock(account: Account, ms: number) {
    return this.transaction(async () => {
      await this.accounts.advanceClock(account, ms);
      await this.#dueTimes.shift(account.id, ms);
    });
  }

  /** What of the account's (any account's, when null) has come due by real time `nowMs`: expiries, settlements, keys' ends. */
  dueWork(accountId: number | null, nowMs: number): Promise<DueWork> {
    return this.#dueTimes.any(accountId, nowMs);
  }

  /** Empties the account: its records, its webhook, its keys, its faults, its journal, and its clock's offset. */
  reset(account: Account) {
    return this.transaction(async () => {
      // Writers of the account's events share this lock: none commits a session between the deletes of sessions and of
      // counterparties (one that had begun deadlocks with the reset, and PostgreSQL aborts one of the two, run again).
      await this.#db.lock(account.id);
      for (const table of ACCOUNT_TABLES) await this.#db.run(`DELETE FROM ${table} WHERE account_id = ?`, account.id);
      await this.accounts.resetClock(account);
      await this.accounts.changed(account.id);
    });
  }

  /**
   * Deletes one counterparty of the account with all it has: its sessions, their transactions,
   * their events and the events' delivery attempts, so that nothing of it is delivered or falls due
   * afterwards; false when the account has no such counterparty. Under the account's lock, as a
   * reset: no writer of the account's events commits one of these sessions' events between the
   * deletes. An attempt under way meanwhile finds its event gone, and records nothing.
   */
  deleteCounterparty(account: Account, counterpartyId: string): Promise<boolean> {
    return this.transaction(async () => {
      await this.#db.lock(account.id);
      const sessions = "SELECT id FROM payment_sessions WHERE account_id = ? AND counterparty_id = ?";
      const events = `SELECT id FROM events WHERE account_id = ? AND session_id IN (${sessions})`;
      const [a, c] = [account.id, counterpartyId];
      await this.#db.run(`DELETE FROM delivery_attempts WHERE account_id = ? AND event_id IN (${events})`, a, a, a, c);
      await this.#db.run(`DELETE FROM events WHERE account_id = ? AND session_id IN (${sessions})`, a, a, c);
      await this.#db.run(`DELETE FROM transactions WHERE account_id = ? AND session_id IN (${sessions})`, a, a, c);
      await this.#db.run("DELETE FROM payment_sessions WHERE account_id = ? AND counterparty_id = ?", a, c);
      return (await this.#db.run("DELETE FROM counterparties WHERE account_id = ? AND id = ?", a, c)) === 1;
    });
  }

  /**
   * Deletes every account with no request for longer than the retention, with all it holds, a few
   * accounts per transaction so that no request waits long behind one; resolves to how many. The
   * last request the database has may be up to a touch interval older than the true one: an account
   * is taken only once that much more has passed, so never before its retention. One process
   * sweeps at a time: each batch takes the sweep's lock first (an advisory lock no account's id
   * takes). Each account is read again under its row's lock before it goes: a request that wrote
   * to it meanwhile (its writes hold the row, through their foreign keys) has touched it, and it
   * stays; one that comes after finds it gone, and is a new account's (in an open sandbox) or refused.
   */
  async deleteIdleAccounts(): Promise<number> {
    const idleSince = this.clock.now() - this.#retentionMs - this.accounts.touchEveryMs;
    let deleted = 0;
    for (;;) {
      const batch = await this.transaction(async () => {
        await this.#db.lock(SWEEP_LOCK);
        const idle = await this.#db.all<{ id: number }>(IDLE_ACCOUNTS, idleSince, SWEEP_BATCH);
        let gone = 0;
        for (const { id } of idle)
          if ((await this.#db.get(this.#db.statements.stillIdle, id, idleSince)) && (await this.#delete(id))) gone++;
        return { read: idle.length, gone };
      });
      deleted += batch.gone;
      if (batch.read < SWEEP_BATCH) return deleted;
    }
  }

  /** Revokes an issued account: it is deleted with all it holds, and its token opens nothing any more. False when there is none. */
  revoke(id: number): Promise<boolean> {
    return this.transaction(() => this.#delete(id));
  }

  /** Deletes the account with all it holds, under its lock; false when it was gone already. Every process forgets it. */
  async #delete(id: number): Promise<boolean> {
    await this.#db.lock(id);
    for (const table of ACCOUNT_TABLES) await this.#db.run(`DELETE FROM ${table} WHERE account_id = ?`, id);
    if ((await this.#db.run("DELETE FROM accounts WHERE id = ?", id)) === 0) return false;
    await this.accounts.changed(id);
    return true;
  }

  /**
   * What an operator watches, read at once for the whole sandbox: events due now (the outbox's
   * backlog) and how long the oldest has been due, the accounts with a request within `activeSinceMs`
   * (real time), and this process's connections to the database.
   */
  async gauges(activeSinceMs: number) {
    const now = this.clock.now();
    const read = (await this.#db.get<{ count: number; oldest: number | null; active: number }>(GAUGES, activeSinceMs, now))!;
    return {
      dueEvents: Number(read.count),
      oldestDueAgeMs: read.oldest === null ? 0 : now - Number(read.oldest),
      activeAccounts: Number(read.active),
    };
  }

  /**
   * Runs a request's `work` on its account's behalf: it takes database connections only within the
   * account's share of them, so that a burst of one account's requests waits on itself.
   */
  onBehalfOf<T>(accountId: number, work: () => Promise<T>): Promise<T> {
    return this.#db.onBehalfOf(accountId, work);
  }

  /** Runs `work` on no account's behalf: the sandbox's own (every account's deliveries), though a request started it. */
  apart<T>(work: () => T): T {
    return this.#db.apart(work);
  }

  /** Which engine keeps the state. */
  get dialect() {
    return this.#db.dialect;
  }

  /** This process's connections to the database: in use, idle, and requests waiting for one. */
  connections() {
    return this.#db.connections();
  }

  /** Whether the database answers now; rejects with DatabaseUnavailableError when it does not. */
  async ping(): Promise<void> {
    await this.#db.get("SELECT 1");
  }

  /** Sends a message to every process of this sandbox listening on `channel` (payin-listen's deliveries and answers). */
  notify(channel: string, message: string) {
    return this.#db.notify(channel, message);
  }

  /** Calls `hear` with each message sent on `channel` from now on, until the returned function is called. */
  subscribe(channel: string, hear: (message: string) => void) {
    return this.#db.subscribe(channel, hear);
  }

  async close() {
    await this.accounts.stopHearing();
    await this.#db.close();
  }
}
