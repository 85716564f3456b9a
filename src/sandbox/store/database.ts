// Opens the sandbox's SQLite database through node:sqlite and brings its schema up to date.
// In memory by default; a file keeps everything across restarts (WAL, synchronous=NORMAL:
// a crash of the machine may lose the last commits, never corrupt the file).
import { DatabaseSync } from "node:sqlite";
import { migrations } from "./migrations.ts";
import { databaseOpenError } from "./open-error.ts";

export const IN_MEMORY = ":memory:";

export function openDatabase(file: string = IN_MEMORY): DatabaseSync {
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
  migrate(db);
  return db;
}

function migrate(db: DatabaseSync) {
  const { user_version: version } = db.prepare("PRAGMA user_version").get() as { user_version: number };
  if (version > migrations.length)
    throw new Error(`The database was made by a newer sandbox (schema ${version}; this one knows ${migrations.length}).`);
  for (let next = version; next < migrations.length; next++)
    inTransaction(db, () => {
      db.exec(migrations[next]!);
      db.exec(`PRAGMA user_version = ${next + 1}`);
    });
}

/** Databases inside a transaction of inTransaction now. */
const inside = new WeakSet<DatabaseSync>();

/** Whether a transaction of inTransaction is open on the database: work now joins it. */
export const inTransactionNow = (db: DatabaseSync) => inside.has(db);

export type Statement = ReturnType<DatabaseSync["prepare"]>;

/** A store's statements, each prepared once from its SQL, by the name it is used by. */
export function prepareAll<const Names extends string>(db: DatabaseSync, sql: Record<Names, string>): Record<Names, Statement> {
  return Object.fromEntries(Object.entries<string>(sql).map(([name, text]) => [name, db.prepare(text)])) as Record<Names, Statement>;
}

/**
 * Runs `work` in one SQLite transaction: all of its writes happen, or none. Called inside
 * another, `work` joins the outer one, so a handler may call helpers that want a transaction.
 */
export function inTransaction<T>(db: DatabaseSync, work: () => T): T {
  if (inside.has(db)) return work();
  db.exec("BEGIN IMMEDIATE");
  inside.add(db);
  try {
    const result = work();
    db.exec("COMMIT");
    return result;
  } catch (error) {
    db.exec("ROLLBACK");
    throw error;
  } finally {
    inside.delete(db);
  }
}

/** SQLite's extended result codes of the constraint errors the sandbox turns into answers. */
export const SQLITE_CONSTRAINT_FOREIGNKEY = 787;
export const SQLITE_CONSTRAINT_PRIMARYKEY = 1555;
export const SQLITE_CONSTRAINT_UNIQUE = 2067;

export const isConstraint = (error: unknown, code: number) => (error as { errcode?: number } | null)?.errcode === code;
