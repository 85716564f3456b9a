// The store on SQLite through node:sqlite: in memory by default; a file keeps everything across
// restarts (WAL, synchronous=NORMAL: a crash of the machine may lose the last commits, never
// corrupt the file). One connection, whose calls are synchronous: a transaction holds it until it
// ends, and whatever else comes meanwhile waits for it, so that no one sees a write half done.
import { EventEmitter } from "node:events";
import { DatabaseSync, type StatementSync } from "node:sqlite";
import { callHooks, RecordGoneError, TransactionScope, type Database, type Parameter, type Subscription } from "./database.ts";
import { sqliteStatements } from "./sqlite-statements.ts";
import { tokenHash } from "./token-hash.ts";
import { databaseOpenError } from "./open-error.ts";

export const IN_MEMORY = ":memory:";

/** SQLite's extended code for a write that names a row not there. */
const FOREIGN_KEY_CONSTRAINT = 787;

/** Runs a statement, a write naming a row not there said as such. */
function written<T>(statement: () => T): T {
  try {
    return statement();
  } catch (error) {
    if ((error as { errcode?: number }).errcode === FOREIGN_KEY_CONSTRAINT)
      throw new RecordGoneError((error as Error).message, { cause: error });
    throw error;
  }
}

export class SqliteDatabase implements Database {
  readonly dialect = "sqlite";
  readonly statements = sqliteStatements;
  readonly db: DatabaseSync;
  readonly #statements = new Map<string, StatementSync>();
  readonly #transactions = new TransactionScope<true>();
  /** Whether a transaction holds the connection, and who waits for it, in turn. */
  #held = false;
  readonly #waiting: Array<() => void> = [];
  /** The channels of notify and listen: one process serves a SQLite database, so they stay in it. */
  readonly #channels = new EventEmitter().setMaxListeners(0);

  constructor(file: string = IN_MEMORY) {
    this.db = openSqlite(file);
  }

  #statement(sql: string): StatementSync {
    let statement = this.#statements.get(sql);
    if (!statement) this.#statements.set(sql, (statement = this.db.prepare(sql)));
    return statement;
  }

  /** Runs `call` on the connection once no other context's transaction holds it. */
  async #use<T>(call: () => T): Promise<T> {
    if (!this.#held || this.#transactions.current) return call();
    await this.#acquire();
    try {
      return call();
    } finally {
      this.#release();
    }
  }

  async #acquire() {
    if (!this.#held) this.#held = true;
    else await new Promise<void>((resolve) => this.#waiting.push(resolve));
  }

  #release() {
    const next = this.#waiting.shift();
    if (next) next();
    else this.#held = false;
  }

  run(sql: string, ...parameters: Parameter[]) {
    return this.#use(() => written(() => Number(this.#statement(sql).run(...parameters).changes)));
  }

  /** One writer, in process: nothing is saved by being optimistic, or by waiting. */
  readonly optimistic = false;

  async write(sql: string, ...parameters: Parameter[]) {
    await this.run(sql, ...parameters);
  }

  async writeReturning(sql: string, parameters: Parameter[], returned: (rows: unknown[]) => void) {
    returned(await this.all(sql, ...parameters));
  }

  get<Row>(sql: string, ...parameters: Parameter[]) {
    return this.#use(() => written(() => this.#statement(sql).get(...parameters) as Row | undefined));
  }

  all<Row>(sql: string, ...parameters: Parameter[]) {
    return this.#use(() => written(() => this.#statement(sql).all(...parameters) as Row[]));
  }

  async transaction<T>(work: () => Promise<T>): Promise<T> {
    if (this.#transactions.current) return work();
    await this.#acquire();
    let outcome: { result: T; hooks: Set<() => void> };
    try {
      this.db.exec("BEGIN IMMEDIATE");
      try {
        outcome = await this.#transactions.within(true, work);
        this.db.exec("COMMIT");
      } catch (error) {
        this.db.exec("ROLLBACK");
        throw error;
      }
    } finally {
      this.#release();
    }
    callHooks(outcome.hooks);
    return outcome.result;
  }

  /** One process, in which every account shares the one connection, a statement at a time: no share to keep. */
  onBehalfOf<T>(_accountId: number, work: () => Promise<T>): Promise<T> {
    return work();
  }

  apart<T>(work: () => T): T {
    return work();
  }

  /** One connection, one transaction at a time: nothing to lock. */
  async lock() {}

  async lockSessions() {}

  afterCommit(hook: () => void) {
    this.#transactions.afterCommit(hook);
  }

  afterRollback(hook: () => void) {
    this.#transactions.afterRollback(hook);
  }

  async notify(channel: string, message: string) {
    // Heard after the caller goes on, as a message from another process would be.
    queueMicrotask(() => this.#channels.emit(channel, message));
  }

  async subscribe(channel: string, hear: (message: string) => void): Promise<Subscription> {
    this.#channels.on(channel, hear);
    return {
      // One process: a message sent before is heard by the time its sender goes on.
      caughtUp: async () => true,
      close: async () => void this.#channels.off(channel, hear),
    };
  }

  connections() {
    return { inUse: 0, idle: 1, waiting: 0 };
  }

  async close() {
    this.#channels.removeAllListeners();
    this.db.close();
  }
}

function openSqlite(file: string): DatabaseSync {
  if (file === IN_MEMORY) return prepared(new DatabaseSync(file));
  let db: DatabaseSync | undefined;
  try {
    db = new DatabaseSync(file);
    db.exec("PRAGMA journal_mode = WAL");
    db.exec("PRAGMA synchronous = NORMAL");
    db.exec("PRAGMA busy_timeout = 5000");
    // SQLite opens a file it may not write read-only, without a word: a write, rolled back,
    // finds out now rather than at the first request.
    db.exec("BEGIN IMMEDIATE");
    try {
      db.exec("CREATE TABLE write_check (x)");
    } finally {
      db.exec("ROLLBACK");
    }
    return prepared(db);
  } catch (error) {
    db?.close();
    // SQLite's own words: unable to open database file, attempt to write a readonly database.
    if ((error as { code?: string }).code === "ERR_SQLITE_ERROR") throw databaseOpenError(file, error as Error);
    throw error;
  }
}

function prepared(db: DatabaseSync): DatabaseSync {
  db.exec("PRAGMA foreign_keys = ON");
  // What PostgreSQL has built in, for the migration that keeps tokens as their hashes.
  db.function("payin_sha256", { deterministic: true }, (text) => tokenHash(String(text)));
  const { user_version: version } = db.prepare("PRAGMA user_version").get() as { user_version: number };
  if (version > sqliteStatements.migrations.length)
    throw new Error(`The database was made by a newer sandbox (schema ${version}; this one knows ${sqliteStatements.migrations.length}).`);
  for (let next = version; next < sqliteStatements.migrations.length; next++) {
    db.exec("BEGIN IMMEDIATE");
    try {
      db.exec(sqliteStatements.migrations[next]!);
      db.exec(`PRAGMA user_version = ${next + 1}`);
      db.exec("COMMIT");
    } catch (error) {
      db.exec("ROLLBACK");
      throw error;
    }
  }
  return db;
}
