// Opens the sandbox's SQLite database through node:sqlite and brings its schema up to date.
// In memory by default; a file keeps everything across restarts (WAL, synchronous=NORMAL:
// a crash of the machine may lose the last commits, never corrupt the file).
import { DatabaseSync } from "node:sqlite";
import { migrations } from "./migrations.ts";

export const IN_MEMORY = ":memory:";

export function openDatabase(file: string = IN_MEMORY): DatabaseSync {
  const db = new DatabaseSync(file);
  if (file !== IN_MEMORY) {
    db.exec("PRAGMA journal_mode = WAL");
    db.exec("PRAGMA synchronous = NORMAL");
    db.exec("PRAGMA busy_timeout = 5000");
  }
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

type Statement = ReturnType<DatabaseSync["prepare"]>;
/** BEGIN, COMMIT and ROLLBACK of each database, prepared once: exec parses its SQL on every call. */
const control = new WeakMap<DatabaseSync, { begin: Statement; commit: Statement; rollback: Statement }>();

function controlOf(db: DatabaseSync) {
  let statements = control.get(db);
  // Stryker disable next-line ConditionalExpression: as `true`, BEGIN, COMMIT and ROLLBACK are prepared again, the same statements; the cache only saves time
  if (!statements) {
    statements = { begin: db.prepare("BEGIN IMMEDIATE"), commit: db.prepare("COMMIT"), rollback: db.prepare("ROLLBACK") };
    // Stryker disable next-line CallExpression: without it the statements are prepared on every transaction, the same ones
    control.set(db, statements);
  }
  return statements;
}

/**
 * Runs `work` in one SQLite transaction: all of its writes happen, or none. Called inside
 * another, `work` joins the outer one, so a handler may call helpers that want a transaction.
 */
export function inTransaction<T>(db: DatabaseSync, work: () => T): T {
  if (inside.has(db)) return work();
  const { begin, commit, rollback } = controlOf(db);
  begin.run();
  inside.add(db);
  try {
    const result = work();
    commit.run();
    return result;
  } catch (error) {
    rollback.run();
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
