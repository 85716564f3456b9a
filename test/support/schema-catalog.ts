// The sandbox's schema as each engine's own catalog reports it, in one shape for both, so that a
// test can hold SQLite's and PostgreSQL's to one another: every table's columns (in order, each
// with its type class, nullability and default), primary key, unique constraints, foreign keys,
// checks, and indexes (key columns, uniqueness, the rows they cover). Read from what the
// database made of the migrations, never from their text.
import type { Database } from "../../src/sandbox/store/database.ts";

export interface Column {
  /** integer, text, real: what a value is, whatever the width the engine gives it. */
  type: string;
  notNull: boolean;
  default: string | null;
  /** Assigned by the database when an insert leaves it out (PostgreSQL's identity, SQLite's rowid). */
  generated: boolean;
}

export interface Index {
  /** Key columns in order; a column compared without case is `lower(column)`. */
  columns: string[];
  unique: boolean;
  /** The rows a partial index covers, normalized; null for all. */
  where: string | null;
}

export interface TableCatalog {
  columns: Record<string, Column>;
  /** The columns' order: what a statement that inserts by position depends on. */
  columnOrder: string[];
  primaryKey: string[];
  /** Each as `a, b`. */
  unique: string[];
  /** Each as `(a, b) → table (c, d) on update … on delete …`. */
  foreignKeys: string[];
  /** Each check's condition, normalized. */
  checks: string[];
  indexes: Record<string, Index>;
}

export type Catalog = Record<string, TableCatalog>;

/** Lower case, without casts, brackets or spaces: `((payment_rail)::text = 'PAYIN'::text)` reads as SQLite's `payment_rail = 'PAYIN'`. */
export const normalized = (sql: string) =>
  sql
    .toLowerCase()
    .replace(/::[a-z ]+/g, "")
    .replace(/[()\s]/g, "");

/** The class of a declared type, by SQLite's affinity rules, which PostgreSQL's names also fall under. */
function typeClass(declared: string): string {
  const type = declared.toUpperCase();
  if (type.includes("INT")) return "integer";
  if (/CHAR|CLOB|TEXT/.test(type)) return "text";
  if (/REAL|FLOA|DOUB/.test(type)) return "real";
  return type.toLowerCase();
}

const ACTIONS: Record<string, string> = { a: "NO ACTION", r: "RESTRICT", c: "CASCADE", n: "SET NULL", d: "SET DEFAULT" };

const foreignKey = (from: string, table: string, to: string, onUpdate: string, onDelete: string) =>
  `(${from}) → ${table} (${to}) on update ${onUpdate} on delete ${onDelete}`;

/** The text between the bracket at `open` and the one that closes it. */
function bracketed(sql: string, open: number): string {
  let depth = 0;
  for (let i = open; i < sql.length; i++) {
    if (sql[i] === "(") depth++;
    else if (sql[i] === ")" && --depth === 0) return sql.slice(open + 1, i);
  }
  throw new Error(`Unbalanced brackets in ${sql}`);
}

/** Splits at the commas outside brackets. */
const topLevelItems = (list: string) => {
  const items: string[] = [];
  let depth = 0;
  let start = 0;
  for (let i = 0; i < list.length; i++) {
    if (list[i] === "(") depth++;
    else if (list[i] === ")") depth--;
    else if (list[i] === "," && depth === 0) items.push(list.slice(start, i).trim()), (start = i + 1);
  }
  return [...items, list.slice(start).trim()];
};

const withoutComments = (sql: string) => sql.replace(/--[^\n]*/g, "");

export async function catalogOf(db: Database): Promise<Catalog> {
  return db.dialect === "sqlite" ? sqliteCatalog(db) : postgresCatalog(db);
}

async function sqliteCatalog(db: Database): Promise<Catalog> {
  const catalog: Catalog = {};
  const tables = await db.all<{ name: string; sql: string }>(
    "SELECT name, sql FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite_%' ORDER BY name",
  );
  for (const { name: table, sql } of tables) {
    type ColumnRow = { name: string; type: string; notnull: number; dflt_value: string | null; pk: number };
    const columns = await db.all<ColumnRow>("SELECT * FROM pragma_table_info(?) ORDER BY cid", table);
    type KeyRow = { id: number; table: string; from: string; to: string; on_update: string; on_delete: string };
    const keys = await db.all<KeyRow>("SELECT * FROM pragma_foreign_key_list(?) ORDER BY id, seq", table);
    const primaryKey = columns.filter((c) => c.pk > 0).sort((a, b) => a.pk - b.pk);
    const withoutRowid = /\)\s*WITHOUT\s+ROWID\s*$/i.test(withoutComments(sql));
    // A lone INTEGER PRIMARY KEY of a rowid table is the rowid, assigned when left out, unless it takes its value from another table.
    const rowid = primaryKey.length === 1 && !withoutRowid && primaryKey[0]!.type.toUpperCase() === "INTEGER" ? primaryKey[0]!.name : null;
    const generated = rowid !== null && !keys.some((k) => k.from === rowid) ? rowid : null;
    const entry: TableCatalog = {
      columns: Object.fromEntries(
        columns.map((c) => [
          c.name,
          {
            type: typeClass(c.type),
            notNull: c.notnull === 1 || c.pk > 0,
            default: c.dflt_value === null ? null : normalized(c.dflt_value),
            generated: c.name === generated,
          },
        ]),
      ),
      columnOrder: columns.map((c) => c.name),
      primaryKey: primaryKey.map((c) => c.name),
      unique: [],
      foreignKeys: [],
      checks: [],
      indexes: {},
    };
    for (const id of new Set(keys.map((k) => k.id))) {
      const group = keys.filter((k) => k.id === id);
      const [first] = group;
      const to = group.map((k) => k.to).join(", ");
      entry.foreignKeys.push(foreignKey(group.map((k) => k.from).join(", "), first!.table, to, first!.on_update, first!.on_delete));
    }
    const definition = withoutComments(sql);
    for (const match of definition.matchAll(/\bCHECK\s*\(/gi))
      entry.checks.push(normalized(bracketed(definition, match.index + match[0].length - 1)));
    type IndexRow = { name: string; unique: number; origin: string; sql: string | null };
    const indexes = await db.all<IndexRow>(
      'SELECT l.name, l."unique", l.origin, m.sql FROM pragma_index_list(?) l LEFT JOIN sqlite_master m ON m.name = l.name',
      table,
    );
    for (const index of indexes) {
      type KeyColumnRow = { cid: number; name: string | null; coll: string; key: number };
      const keyColumns = (await db.all<KeyColumnRow>("SELECT * FROM pragma_index_xinfo(?) ORDER BY seqno", index.name)).filter(
        (k) => k.key,
      );
      const written = index.sql === null ? [] : topLevelItems(bracketed(index.sql, index.sql.indexOf("(")));
      // An expression's text is only in the statement that made the index; a column compared without case is lower(column).
      const columns = keyColumns.map((k, i) =>
        k.cid === -2 ? normalized(written[i]!) : k.coll === "NOCASE" ? `lower(${k.name})` : k.name!,
      );
      if (index.origin === "u") entry.unique.push(columns.join(", "));
      if (index.origin !== "c") continue;
      const where = /\bWHERE\b([\s\S]*)$/i.exec(withoutComments(index.sql!))?.[1];
      entry.indexes[index.name] = { columns, unique: index.unique === 1, where: where === undefined ? null : normalized(where) };
    }
    entry.unique.sort();
    entry.foreignKeys.sort();
    entry.checks.sort();
    catalog[table] = entry;
  }
  return catalog;
}

/** The schema's version is PostgreSQL's own table (SQLite keeps it in `PRAGMA user_version`): it is no table of the sandbox's. */
const POSTGRES_ONLY = "sandbox_schema";

async function postgresCatalog(db: Database): Promise<Catalog> {
  const catalog: Catalog = {};
  const tables = await db.all<{ name: string }>(
    "SELECT tablename AS name FROM pg_tables WHERE schemaname = 'public' AND tablename <> ? ORDER BY tablename",
    POSTGRES_ONLY,
  );
  for (const { name: table } of tables) {
    type ColumnRow = { name: string; type: string; nullable: string; default: string | null; identity: string };
    const columns = await db.all<ColumnRow>(
      `SELECT column_name AS name, data_type AS type, is_nullable AS nullable, column_default AS default, is_identity AS identity
       FROM information_schema.columns WHERE table_schema = 'public' AND table_name = ? ORDER BY ordinal_position`,
      table,
    );
    type ConstraintRow = {
      type: string;
      columns: string;
      ref_table: string | null;
      ref_columns: string | null;
      on_update: string;
      on_delete: string;
      definition: string;
    };
    const names = (keys: string, relation: string) =>
      `(SELECT string_agg(a.attname, ', ' ORDER BY k.n) FROM unnest(${keys}) WITH ORDINALITY k(attnum, n)
        JOIN pg_attribute a ON a.attrelid = ${relation} AND a.attnum = k.attnum)`;
    const constraints = await db.all<ConstraintRow>(
      `SELECT c.contype AS type, ${names("c.conkey", "c.conrelid")} AS columns,
         CASE WHEN c.contype = 'f' THEN c.confrelid::regclass::text END AS ref_table, ${names("c.confkey", "c.confrelid")} AS ref_columns,
         c.confupdtype AS on_update, c.confdeltype AS on_delete, pg_get_constraintdef(c.oid) AS definition
       FROM pg_constraint c WHERE c.conrelid = ?::regclass`,
      table,
    );
    type IndexRow = { name: string; unique: boolean; where: string | null; columns: string[] };
    const indexes = await db.all<IndexRow>(
      `SELECT i.relname AS name, x.indisunique AS unique, pg_get_expr(x.indpred, x.indrelid) AS where,
         ARRAY(SELECT pg_get_indexdef(x.indexrelid, k, true) FROM generate_series(1, x.indnkeyatts) k ORDER BY k) AS columns
       FROM pg_index x JOIN pg_class i ON i.oid = x.indexrelid
       WHERE x.indrelid = ?::regclass
         AND NOT EXISTS (SELECT 1 FROM pg_constraint c WHERE c.conindid = x.indexrelid AND c.contype IN ('p', 'u', 'x'))`,
      table,
    );
    const primaryKey = constraints.find((c) => c.type === "p")?.columns.split(", ") ?? [];
    catalog[table] = {
      columns: Object.fromEntries(
        columns.map((c) => [
          c.name,
          {
            type: typeClass(c.type),
            notNull: c.nullable === "NO",
            default: c.default === null ? null : normalized(c.default),
            generated: c.identity === "YES",
          },
        ]),
      ),
      columnOrder: columns.map((c) => c.name),
      primaryKey,
      unique: constraints
        .filter((c) => c.type === "u")
        .map((c) => c.columns)
        .sort(),
      foreignKeys: constraints
        .filter((c) => c.type === "f")
        .map((c) => foreignKey(c.columns, c.ref_table!, c.ref_columns!, ACTIONS[c.on_update]!, ACTIONS[c.on_delete]!))
        .sort(),
      checks: constraints
        .filter((c) => c.type === "c")
        .map((c) => normalized(c.definition.replace(/^CHECK\s*/i, "")))
        .sort(),
      indexes: Object.fromEntries(
        indexes.map((i) => [i.name, { columns: i.columns, unique: i.unique, where: i.where === null ? null : normalized(i.where) }]),
      ),
    };
  }
  return catalog;
}

/** Where two catalogs differ, one line each: `table.part.name: sqlite …, postgres …`. */
export function differences(a: Catalog, b: Catalog, [nameA, nameB]: readonly [string, string]): string[] {
  const found: string[] = [];
  const walk = (x: unknown, y: unknown, at: string) => {
    const isRecord = (v: unknown) => typeof v === "object" && v !== null && !Array.isArray(v);
    if (isRecord(x) && isRecord(y)) {
      const keys = [...new Set([...Object.keys(x as object), ...Object.keys(y as object)])].sort();
      for (const key of keys) walk((x as Record<string, unknown>)[key], (y as Record<string, unknown>)[key], at ? `${at}.${key}` : key);
    } else if (JSON.stringify(x) !== JSON.stringify(y)) {
      found.push(`${at}: ${nameA} ${JSON.stringify(x) ?? "none"}, ${nameB} ${JSON.stringify(y) ?? "none"}`);
    }
  };
  walk(a, b, "");
  return found;
}
