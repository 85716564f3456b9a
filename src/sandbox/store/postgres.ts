// The store on PostgreSQL through node-postgres (`pg`), for one sandbox served by several
// processes. Transactions are READ COMMITTED: every write the sandbox makes is a single
// statement that checks its own condition (an UPDATE … WHERE still due, an INSERT … ON CONFLICT),
// and where a transaction reads before it writes, it first takes the lock its writers share
// (`lock`: a session's events, in outbox.ts). One the database aborts for another's sake (a
// deadlock) is run again. What one process may not do twice (a delivery) it claims with a lease.
// Each statement is a round trip and work for the server: a transaction sends BEGIN only with its
// first statement, and writes whose outcome no one reads wait to go as one statement (`write`),
// so that a create, written optimistic, is one statement that commits alone.
import { AsyncLocalStorage } from "node:async_hooks";
import pg from "pg";
import { systemClock, type Clock } from "../../lib/clock.ts";
import { AccountShares } from "./account-shares.ts";
import {
  callHooks,
  ConflictError,
  DatabaseUnavailableError,
  LockWaitError,
  RecordGoneError,
  TransactionScope,
  type Database,
  type Parameter,
  type Subscription,
} from "./database.ts";
import { hostOf } from "./location.ts";
import { postgresStatements } from "./postgres-statements.ts";

/** A write that names a row not there. */
const FOREIGN_KEY_VIOLATION = "23503";
/** A row refused by a unique index or key. */
const UNIQUE_VIOLATION = "23505";
/** A lock waited for longer than lock_timeout. */
const LOCK_NOT_AVAILABLE = "55P03";
/**
 * How long a statement may wait for a lock (at most half the statement's own timeout, so that the lock wait is what
 * ends first): well within a request's own deadline, so that requests of
 * one account queued on its row (a burst of clock advances) give up and are answered, rather than
 * hold their connections until the statement's timeout.
 */
const LOCK_TIMEOUT_MS = 2000;
/** Connections one account's requests may hold at once, of a process's pool (10 by default). */
const ACCOUNT_SHARE = 2;
/**
 * Writes that wait (Database.write) go at the latest when this many wait: few enough that their statement stays within
 * PostgreSQL's parameters, and the texts of such statements, each prepared once per connection, stay few.
 */
const WRITES_AT_ONCE = 16;
/** A transaction aborted for another's sake: serialization failure, deadlock. Run again. */
const RETRIED = new Set(["40001", "40P01"]);
const ATTEMPTS = 30;
const GENERIC_PLANS = "-c plan_cache_mode=force_generic_plan";
/** The context of delivery's work, on no account's behalf (Database.apart). */
const APART = Symbol("apart");
/** One key for the whole sandbox schema: concurrent starts migrate one after the other. */
const MIGRATION_LOCK = 0x7061_7969_6e; // "payin"

/**
 * How long the database may leave the sandbox waiting, for a connection or for a statement's
 * answer, before it counts as unavailable: a network cut that resets nothing leaves a connection
 * silent, not closed, and a request would wait for it.
 */
const TIMEOUT_MS = 5000;

/** Whether the error is a connection gone, refused or silent: node's socket errors, PostgreSQL's class 08 and 57P0x, pg's own words. */
function unavailable(error: unknown): boolean {
  const { code, message } = (error ?? {}) as { code?: string; message?: string };
  if (code && (/^(08|57P0)/.test(code) || /^E[A-Z]+$/.test(code))) return true;
  const words = [
    "Connection terminated",
    "connection timeout",
    "timeout exceeded when trying to connect",
    "Client has encountered a connection error",
    "Query read timeout",
  ];
  return words.some((w) => message?.toLowerCase().includes(w.toLowerCase()));
}

/** The sandbox's own error for what the driver threw: the database away, a lock waited for too long, a row gone. */
function translated(error: unknown): unknown {
  if (error instanceof DatabaseUnavailableError || error instanceof RecordGoneError) return error;
  const code = (error as { code?: string }).code;
  if (code === LOCK_NOT_AVAILABLE) return new LockWaitError((error as Error).message, { cause: error });
  if (unavailable(error)) return new DatabaseUnavailableError((error as Error).message, { cause: error });
  if (code === FOREIGN_KEY_VIOLATION) return new RecordGoneError((error as Error).message, { cause: error });
  if (code === UNIQUE_VIOLATION) return new ConflictError((error as Error).message, { cause: error });
  return error;
}

/** Hands the rows of writes that waited to the one that reads them back. */
function readBack(pending: readonly Pending[], result: pg.QueryResult) {
  pending.find((w) => w.returned)?.returned!(result.rows);
}

/** The table a write writes to. */
const tableOf = (sql: string) => /^\s*(?:INSERT INTO|UPDATE|DELETE FROM)\s+(\w+)/.exec(sql)?.[1];

/** A write that waits for its transaction's next statement (Database.write). */
type Pending = { sql: string; parameters: Parameter[]; returned?: (rows: unknown[]) => void };

/**
 * Writes that waited, as one statement: each but the last a data-modifying WITH query of the last, all on one snapshot;
 * the one whose rows are read back, if any, last.
 */
function together(pending: readonly Pending[]): [string, Parameter[]] {
  const last = pending.find((w) => w.returned) ?? pending.at(-1)!;
  const before = pending.filter((w) => w !== last);
  if (before.length === 0) return [last.sql, last.parameters];
  const sql = `WITH ${before.map((w, i) => `w${i} AS (${w.sql})`).join(", ")} ${last.sql}`;
  return [sql, [...before.flatMap((w) => w.parameters), ...last.parameters]];
}

// BIGINT columns hold milliseconds and counts, all within a double's exact integers.
const types = {
  getTypeParser: ((oid: number, format?: "text" | "binary") =>
    oid === pg.types.builtins.INT8 ? Number : pg.types.getTypeParser(oid, format as "text")) as typeof pg.types.getTypeParser,
};

/**
 * Brings the schema up to date, on a connection of its own: a migration may take longer than a
 * statement of the sandbox's, and a process that starts beside another waits for the other's.
 */
async function migrate(url: string, timeoutMs: number) {
  const client = new pg.Client({ connectionString: url, connectionTimeoutMillis: timeoutMs });
  client.on("error", () => {});
  await client.connect();
  try {
    await client.query("BEGIN");
    await client.query("SELECT pg_advisory_xact_lock($1)", [MIGRATION_LOCK]);
    await client.query("CREATE TABLE IF NOT EXISTS sandbox_schema (version INTEGER NOT NULL)");
    const row = (await client.query<{ version: number }>("SELECT version FROM sandbox_schema")).rows[0];
    const version = row?.version ?? 0;
    if (version > postgresStatements.migrations.length)
      throw new Error(
        `the database was made by a newer sandbox (schema ${version}; this one knows ${postgresStatements.migrations.length})`,
      );
    for (let next = version; next < postgresStatements.migrations.length; next++) await client.query(postgresStatements.migrations[next]!);
    if (!row) await client.query("INSERT INTO sandbox_schema (version) VALUES ($1)", [postgresStatements.migrations.length]);
    else await client.query("UPDATE sandbox_schema SET version = $1", [postgresStatements.migrations.length]);
    await client.query("COMMIT");
  } finally {
    // A failed migration's transaction ends with its connection.
    await client.end().catch(() => {});
  }
}

/**
 * A transaction's connection, and whether its BEGIN has been sent: only with its first statement, so that a
 * transaction whose work is all writes that wait (Database.write) is their one statement, which commits alone.
 */
interface Handle {
  client: pg.PoolClient;
  begun: boolean;
  optimistic: boolean;
}

export class PostgresDatabase implements Database {
  readonly dialect = "postgres";
  readonly statements = postgresStatements;
  readonly #pool: pg.Pool;
  /** The connections of delivery's bookkeeping (apart): its commits do not wait for the disk. */
  readonly #apartPool: pg.Pool;
  readonly #transactions = new TransactionScope<Handle>();
  /** Each statement's text for PostgreSQL (`$1` for `?`) and the name it is prepared under on each connection. */
  readonly #statements = new Map<string, { name: string; text: string }>();

  /** Where the database is, for the connections outside the pool (LISTEN). */
  readonly #url: string;
  /** The account whose request the current async context serves, if any: its connections come out of its share. */
  readonly #onBehalfOf = new AsyncLocalStorage<number | typeof APART | undefined>();
  readonly #shares: AccountShares;

  private constructor(pool: pg.Pool, apart: pg.Pool, url: string, shares: AccountShares) {
    this.#pool = pool;
    this.#apartPool = apart;
    this.#url = url;
    this.#shares = shares;
  }

  /**
   * Connects and brings the schema up to date; rejects with one line naming the host and the
   * reason when it cannot. A connection or a statement that takes longer than `timeoutMs` fails as
   * unavailable, and its connection is dropped.
   */
  static async open(
    url: string,
    { poolSize = 10, timeoutMs = TIMEOUT_MS, accountShare = ACCOUNT_SHARE, clock = systemClock as Clock } = {},
  ): Promise<PostgresDatabase> {
    const lockTimeout = `-c lock_timeout=${Math.min(LOCK_TIMEOUT_MS, Math.floor(timeoutMs / 2))}`;
    const pools = (max: number, synchronousCommit: "on" | "off") =>
      new pg.Pool({
        connectionString: url,
        max,
        types,
        connectionTimeoutMillis: timeoutMs,
        query_timeout: timeoutMs,
        // The server's side of the same bound: a statement it is still running, or a transaction whose process went
        // silent (a network cut), ends, and the locks it held with it.
        statement_timeout: timeoutMs,
        idle_in_transaction_session_timeout: timeoutMs,
        options: `-c synchronous_commit=${synchronousCommit} ${lockTimeout}${synchronousCommit === "off" ? ` ${GENERIC_PLANS}` : ""}`,
        keepAlive: true,
        // A connection's prepared statements and plans go with it: an idle one is kept a minute, not pg's 10 s.
        idleTimeoutMillis: 60_000,
      })
        // A connection lost, idle in the pool or in use (the query under way fails, and says so): the
        // next query opens another. pg's client throws an error no one listens for.
        .on("error", () => {})
        .on("connect", (client) => client.on("error", () => {}));
    // An answered create, and a webhook sent about it, must survive the database's crash: every commit of a request
    // (and of the sandbox's own work on time, expiries and settlements) is on disk before the sandbox acts on it, whatever
    // the server's default (a server set to synchronous_commit = off lost both in a chaos run).
    const pool = pools(poolSize, "on");
    // Delivery's bookkeeping (its claims, each attempt's record) need not wait for the disk: one lost in a crash is made
    // again, a delivery sent twice (which the contract allows: receivers dedupe by id), never one lost or out of order
    // (the WAL is written in order, so a session's next attempt's record never outlives the one before it). Its few
    // statements, each finding its rows by key whatever the values, are planned once per connection: PostgreSQL had
    // planned them anew at each call, which cost it as much as running them.
    const apart = pools(Math.max(2, Math.ceil(poolSize / 2)), "off");
    try {
      await migrate(url, timeoutMs);
      // An account waits for its share no longer than for a connection of the pool.
      return new PostgresDatabase(pool, apart, url, new AccountShares(accountShare, clock, timeoutMs));
    } catch (error) {
      await Promise.all([pool.end().catch(() => {}), apart.end().catch(() => {})]);
      const reason = (error as Error).message || (error as { code?: string }).code || String(error);
      throw new Error(`The sandbox cannot use its database at ${hostOf(url)}: ${reason}.`, { cause: error });
    }
  }

  #statement(sql: string) {
    let statement = this.#statements.get(sql);
    if (!statement) {
      let n = 0;
      statement = { name: `s${this.#statements.size}`, text: sql.replace(/\?/g, () => `$${++n}`) };
      this.#statements.set(sql, statement);
    }
    return statement;
  }

  async #query<Row extends pg.QueryResultRow>(sql: string, parameters: Parameter[]): Promise<pg.QueryResult<Row>> {
    const handle = this.#transactions.current?.handle;
    if (handle && !handle.begun) {
      handle.begun = true;
      await handle.client.query("BEGIN");
    }
    if (handle) {
      await this.#writePending();
      return this.#send(handle.client, sql, parameters);
    }
    const giveBack = await this.#share();
    try {
      return await this.#send(this.#poolNow(), sql, parameters);
    } finally {
      giveBack?.();
    }
  }

  async #send<Row extends pg.QueryResultRow>(on: pg.Pool | pg.PoolClient, sql: string, parameters: Parameter[]) {
    try {
      return await on.query<Row>({ ...this.#statement(sql), values: parameters });
    } catch (error) {
      throw translated(error);
    }
  }

  /** Waits for a slot of the share of the account the current context serves (none to wait for outside a request). */
  async #share(): Promise<(() => void) | undefined> {
    const accountId = this.#onBehalfOf.getStore();
    return typeof accountId === "number" ? this.#shares.take(accountId) : undefined;
  }

  /** The pool the current context's statements take a connection from. */
  #poolNow() {
    return this.#onBehalfOf.getStore() === APART ? this.#apartPool : this.#pool;
  }

  onBehalfOf<T>(accountId: number, work: () => Promise<T>): Promise<T> {
    return this.#onBehalfOf.run(accountId, work);
  }

  apart<T>(work: () => T): T {
    return this.#onBehalfOf.run(APART, work);
  }

  write(sql: string, ...parameters: Parameter[]) {
    return this.#wait({ sql, parameters });
  }

  writeReturning(sql: string, parameters: Parameter[], returned: (rows: unknown[]) => void) {
    return this.#wait({ sql, parameters, returned });
  }

  async #wait(write: Pending) {
    const pending = this.#transactions.current?.pending;
    if (!pending) {
      const { rows } = await this.#query(write.sql, write.parameters);
      return write.returned?.(rows);
    }
    // Written in the order asked: the WITH queries of one statement run in no order PostgreSQL promises, so two writes
    // to one table (one session's events: their numbers are their order) never go in one statement. A statement
    // returns the rows of its last query only: one write read back per statement.
    const apart = (w: Pending) => tableOf(w.sql) === tableOf(write.sql) || (w.returned && write.returned);
    if (pending.some(apart)) await this.#writePending();
    pending.push(write);
    if (pending.length >= WRITES_AT_ONCE) await this.#writePending();
  }

  /**
   * The transaction's writes that wait, as one statement: each but the last a data-modifying WITH query of the last,
   * which all run to the end on one snapshot (none reads another's rows: see Database.write).
   */
  async #writePending() {
    const pending = this.#transactions.current!.pending.splice(0);
    if (pending.length > 0) readBack(pending, await this.#query(...together(pending)));
  }

  get optimistic() {
    return this.#transactions.current?.handle.optimistic ?? false;
  }

  async run(sql: string, ...parameters: Parameter[]) {
    return (await this.#query(sql, parameters)).rowCount ?? 0;
  }

  async get<Row>(sql: string, ...parameters: Parameter[]) {
    return (await this.#query<Row & pg.QueryResultRow>(sql, parameters)).rows[0];
  }

  async all<Row>(sql: string, ...parameters: Parameter[]) {
    return (await this.#query<Row & pg.QueryResultRow>(sql, parameters)).rows;
  }

  async transaction<T>(work: () => Promise<T>, { optimistic = false } = {}): Promise<T> {
    if (this.#transactions.current) return work();
    for (let attempt = 1; ; attempt++) {
      let client: pg.PoolClient;
      const giveBack = await this.#share();
      try {
        client = await this.#poolNow().connect();
      } catch (error) {
        giveBack?.();
        throw new DatabaseUnavailableError((error as Error).message, { cause: error });
      }
      const handle: Handle = { client, begun: false, optimistic };
      try {
        const outcome = await this.#transactions.within(handle, async () => {
          const result = await work();
          if (handle.begun) await this.#writePending();
          else {
            // Nothing but writes: one statement, a transaction of its own.
            const pending = this.#transactions.current!.pending.splice(0);
            if (pending.length > 0) readBack(pending, await this.#send(client, ...together(pending)));
          }
          return result;
        });
        if (handle.begun) await client.query("COMMIT");
        client.release();
        giveBack?.();
        callHooks(outcome.hooks);
        return outcome.result;
      } catch (error) {
        // A connection gone or silent is dropped, and the server rolls back what it had of the transaction. (A lock
        // waited for too long leaves the connection as good as any: rolled back, it goes back to the pool.)
        const gone = (error instanceof DatabaseUnavailableError && !(error instanceof LockWaitError)) || unavailable(error);
        let broken = gone;
        if (!gone && handle.begun) await client.query("ROLLBACK").catch(() => (broken = true));
        client.release(broken);
        giveBack?.();
        const code = (error as { code?: string }).code ?? ((error as Error).cause as { code?: string } | undefined)?.code;
        if (code && RETRIED.has(code) && attempt < ATTEMPTS) {
          // Apart a little, at random, so that the two that collided do not collide again.
          await new Promise((resolve) => setTimeout(resolve, Math.random() * 2 * attempt));
          continue;
        }
        if (gone && !(error instanceof DatabaseUnavailableError))
          throw new DatabaseUnavailableError((error as Error).message, { cause: error });
        throw translated(error);
      }
    }
  }

  async lock(account: number, session?: string) {
    const held = this.#transactions.current?.locks;
    const key = `${account}/${session ?? ""}`;
    if (held?.has(key)) return;
    held?.add(key);
    if (session === undefined) await this.#query("SELECT pg_advisory_xact_lock(CAST(? AS BIGINT))", [account]);
    else
      await this.#query("SELECT pg_advisory_xact_lock_shared(CAST(? AS BIGINT)), pg_advisory_xact_lock(CAST(? AS INTEGER), hashtext(?))", [
        account,
        account,
        session,
      ]);
  }

  async lockSessions(sessions: ReadonlyArray<{ accountId: number; sessionId: string }>) {
    const held = this.#transactions.current?.locks;
    const keys = new Map(sessions.map((s) => [`${s.accountId}/${s.sessionId}`, s]));
    for (const key of keys.keys()) if (held?.has(key)) keys.delete(key);
    if (keys.size === 0) return;
    // In one order, whoever takes them: two transactions that lock some of the same sessions wait, never deadlock.
    if (keys.size === 1) {
      const [{ accountId, sessionId }] = [...keys.values()] as [{ accountId: number; sessionId: string }];
      return this.lock(accountId, sessionId);
    }
    const wanted = [...keys].sort(([a], [b]) => (a < b ? -1 : 1));
    for (const [key] of wanted) held?.add(key);
    const array = (values: Array<string | number>) => `{${values.map((v) => JSON.stringify(String(v))).join(",")}}`;
    await this.#query(
      "SELECT pg_advisory_xact_lock_shared(k.a), pg_advisory_xact_lock(CAST(k.a AS INTEGER), hashtext(k.s)) " +
        "FROM unnest(CAST(? AS BIGINT[]), CAST(? AS TEXT[])) WITH ORDINALITY AS k(a, s, n) ORDER BY k.n",
      [array(wanted.map(([, s]) => s.accountId)), array(wanted.map(([, s]) => s.sessionId))],
    );
  }

  afterCommit(hook: () => void) {
    this.#transactions.afterCommit(hook);
  }

  afterRollback(hook: () => void) {
    this.#transactions.afterRollback(hook);
  }

  async notify(channel: string, message: string) {
    await this.#query("SELECT pg_notify(?, ?)", [channel, message]);
  }

  /**
   * LISTEN on a connection of its own, outside the pool: a pooled one goes back to the pool and
   * hears nothing. A lost connection is made again, with a growing pause, until closed; what was
   * sent meanwhile is not heard (the tables keep what matters).
   *
   * Caught up: an empty query on that connection (no statement to run). PostgreSQL signals a
   * listening session as a NOTIFY commits and sends it the messages ahead of the answer to its next
   * query, so a message committed before the query was sent is heard by the time it is answered.
   * The queries are shared: a call waits for the next one sent after it, never one under way.
   */
  async subscribe(channel: string, hear: (message: string) => void, heardNoMore?: () => void): Promise<Subscription> {
    let client: pg.Client | undefined;
    let stopped = false;
    const open = async () => {
      const next = new pg.Client({ connectionString: this.#url, connectionTimeoutMillis: TIMEOUT_MS });
      next.on("notification", (n) => void (n.channel === channel && n.payload !== undefined && hear(n.payload)));
      next.on("error", () => lost(next));
      await next.connect();
      await next.query(`LISTEN ${pg.escapeIdentifier(channel)}`);
      return next;
    };
    const lost = (gone: pg.Client) => {
      gone.end().catch(() => {});
      if (stopped || client !== gone) return;
      client = undefined;
      heardNoMore?.();
      again(100);
    };
    const again = (pauseMs: number) =>
      setTimeout(() => {
        if (stopped) return;
        open().then(
          (next) => (stopped ? void next.end().catch(() => {}) : (client = next)),
          () => again(Math.min(pauseMs * 2, 5000)),
        );
      }, pauseMs).unref();
    try {
      client = await open();
    } catch (error) {
      throw new DatabaseUnavailableError((error as Error).message, { cause: error });
    }
    let underWay: Promise<boolean> | undefined;
    let next: Promise<boolean> | undefined;
    const ask = () => {
      const asked = client?.query("").then(
        () => true,
        () => false,
      );
      underWay = (asked ?? Promise.resolve(false)).finally(() => (underWay = undefined));
      return underWay;
    };
    return {
      caughtUp: () =>
        underWay === undefined
          ? ask()
          : (next ??= underWay.then(() => {
              next = undefined;
              return ask();
            })),
      close: async () => {
        stopped = true;
        await client?.end().catch(() => {});
      },
    };
  }

  connections() {
    const [one, two] = [this.#pool, this.#apartPool];
    const [totalCount, idleCount, waitingCount] = [
      one.totalCount + two.totalCount,
      one.idleCount + two.idleCount,
      one.waitingCount + two.waitingCount,
    ];
    return { inUse: totalCount - idleCount, idle: idleCount, waiting: waitingCount };
  }

  close() {
    return Promise.all([this.#pool.end(), this.#apartPool.end()]).then(() => {});
  }
}
