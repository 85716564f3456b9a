// What the store's modules need of a database, met by SQLite (sqlite.ts, the embedded default)
// and by PostgreSQL (postgres.ts, for a sandbox shared by several processes). Statements are
// written once, with `?` for each parameter, in the SQL both engines speak; where they differ
// a module asks the engine's own statements (statements.ts). Every call is async, as PostgreSQL's are.
import { AsyncLocalStorage } from "node:async_hooks";
import type { EngineStatements } from "./statements.ts";

export type Dialect = "sqlite" | "postgres";
export type Parameter = string | number | null;

export interface Database {
  /** Which engine it is, as an operator is told (health). */
  readonly dialect: Dialect;
  /** What this engine says its own way. */
  readonly statements: EngineStatements;
  /** Runs a statement; resolves to the number of rows it changed. */
  run(sql: string, ...parameters: Parameter[]): Promise<number>;
  /**
   * A write whose outcome no one reads (an INSERT or UPDATE with no RETURNING). Inside a transaction it may wait, and go
   * with the writes after it as one statement (PostgreSQL: each a round trip less), before the transaction's next
   * statement or its commit; it fails the transaction if it fails. So it must not be read back before it is written:
   * a write that later statements of its transaction read is `run`. Outside a transaction, written now.
   */
  write(sql: string, ...parameters: Parameter[]): Promise<void>;
  /** A write whose rows (its RETURNING) are read once it is written, as `returned` is called with them: `write` else. */
  writeReturning(sql: string, parameters: Parameter[], returned: (rows: unknown[]) => void): Promise<void>;
  /** The statement's first row. */
  get<Row>(sql: string, ...parameters: Parameter[]): Promise<Row | undefined>;
  all<Row>(sql: string, ...parameters: Parameter[]): Promise<Row[]>;
  /**
   * Runs `work` in one transaction: all of its writes happen, or none, and no other
   * transaction's writes are seen half done. Called inside another, `work` joins it. `work` may
   * be run again when the database had to abort it for another's sake (a deadlock), so it does
   * nothing but reads and writes of the database before it returns.
   */
  transaction<T>(work: () => Promise<T>, options?: { optimistic?: boolean }): Promise<T>;
  /**
   * Whether the transaction under way was begun optimistic, on an engine where that saves statements: then a module
   * writes what may conflict with a row already there as a `write` that fails the transaction with a ConflictError
   * (a unique key's), rather than asking first; the caller runs the work again, not optimistic, to say what conflicted.
   */
  readonly optimistic: boolean;
  /**
   * Runs `work` on the account's behalf: each of its connections is taken within the account's
   * share of them (PostgreSQL's pool), so that one account's burst waits on itself.
   */
  onBehalfOf<T>(accountId: number, work: () => Promise<T>): Promise<T>;
  /** Runs `work` on no account's behalf: the sandbox's own work (every account's deliveries), though a request started it. */
  apart<T>(work: () => T): T;
  /**
   * Inside a transaction, until it ends: with a session, the lock on that session's events (and a
   * share of its account's); without, the lock on every event of the account. A lock the
   * transaction holds already is not asked for again.
   */
  lock(account: number, session?: string): Promise<void>;
  /** The locks of many sessions' events at once (`lock` of each), in one statement where the engine can. */
  lockSessions(sessions: ReadonlyArray<{ accountId: number; sessionId: string }>): Promise<void>;
  /** Calls `hook` once the transaction under way commits (now, outside one); a hook given twice is called once. */
  afterCommit(hook: () => void): void;
  /** Calls `hook` if the transaction under way rolls back (never, outside one): what it took for done is undone. */
  afterRollback(hook: () => void): void;
  /**
   * Sends `message` to every process on this database that listens on `channel` (this one too), as
   * the listeners of payin-listen talk across processes: PostgreSQL's NOTIFY, or in-process on
   * SQLite, which one process serves. A message no one listens for is lost: what must not be lost
   * is in the tables.
   */
  notify(channel: string, message: string): Promise<void>;
  /**
   * Calls `hear` with each message sent on `channel` from now on, until the subscription is closed;
   * `lost`, when the connection that hears them was lost (messages sent until it is made again are
   * not heard).
   */
  subscribe(channel: string, hear: (message: string) => void, lost?: () => void): Promise<Subscription>;
  /** The connections: in use, idle, and requests waiting for one (PostgreSQL's pool); SQLite has one, always there. */
  connections(): { inUse: number; idle: number; waiting: number };
  close(): Promise<void>;
}

/** A channel heard (Database.subscribe). */
export interface Subscription {
  /**
   * Resolves once every message sent on the channel before the call, by any process, has been
   * heard; false when that cannot be known now (the connection that hears them is being made again).
   */
  caughtUp(): Promise<boolean>;
  close(): Promise<void>;
}

/** The database cannot be reached now (a lost connection, a restart): the request may be made again shortly. */
export class DatabaseUnavailableError extends Error {
  override name = "DatabaseUnavailableError";
}

/**
 * A lock was waited for longer than the database allows (requests of one account queued on one of
 * its rows): the request may be made again shortly, and the wait held no one else's connection.
 */
export class LockWaitError extends DatabaseUnavailableError {
  override name = "LockWaitError";
}

/** A write met a row already there under a unique key, in an optimistic transaction: the work is to be run again, asking first. */
export class ConflictError extends Error {
  override name = "ConflictError";
}

/**
 * A write named a row that is not there (a foreign key): an account deleted (its retention, a
 * revocation) or emptied (a reset) while a request of it was under way. The request may be made
 * again on what is there now.
 */
export class RecordGoneError extends Error {
  override name = "RecordGoneError";
}

/** For work on a timer that failed: the database being away is expected, and the next round does the work; anything else is printed. */
export function reportUnlessUnavailable(error: unknown) {
  if (!(error instanceof DatabaseUnavailableError)) console.error(`payin-sandbox: ${(error as Error).stack ?? error}`);
}

/** The transaction the current async context is inside: its commit hooks, the locks it holds, and the engine's handle of it. */
export interface TransactionContext<Handle> {
  handle: Handle;
  hooks: Set<() => void>;
  undo: Set<() => void>;
  locks: Set<string>;
  /** Writes waiting to go with the transaction's next statement (Database.write). */
  pending: Array<{ sql: string; parameters: Parameter[]; returned?: (rows: unknown[]) => void }>;
}

/** Tracks, per async context, the transaction it is inside. */
export class TransactionScope<Handle> {
  readonly #current = new AsyncLocalStorage<TransactionContext<Handle>>();

  get current(): TransactionContext<Handle> | undefined {
    return this.#current.getStore();
  }

  /**
   * Runs `work` in a new context and resolves to its result and the hooks it left for the commit;
   * when it fails, calls the hooks it left for a rollback, and rejects.
   */
  async within<T>(handle: Handle, work: () => Promise<T>): Promise<{ result: T; hooks: Set<() => void> }> {
    const context: TransactionContext<Handle> = { handle, hooks: new Set(), undo: new Set(), locks: new Set(), pending: [] };
    try {
      const result = await this.#current.run(context, work);
      return { result, hooks: context.hooks };
    } catch (error) {
      callHooks(context.undo);
      throw error;
    }
  }

  afterRollback(hook: () => void) {
    this.current?.undo.add(hook);
  }

  afterCommit(hook: () => void) {
    const context = this.current;
    if (context) context.hooks.add(hook);
    else hook();
  }
}

/** Calls each hook; one that throws does not keep the others from being called. */
export function callHooks(hooks: Iterable<() => void>) {
  for (const hook of hooks) {
    try {
      hook();
    } catch (error) {
      queueMicrotask(() => {
        throw error;
      });
    }
  }
}
