// The schema is written twice, as each engine's history of migrations (SQLite's from the first
// release, PostgreSQL's from the schema SQLite had reached when PostgreSQL came), and a shipped
// migration is never edited: so the two are held to one another here, from what each database
// made of them. Every table, column (order, type class, nullability, default), primary key,
// unique constraint, foreign key, check and index must be the same on both.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { postgresMissing, startPostgres, type TestPostgres } from "../../scripts/lib/temp-postgres.ts";
import type { Database } from "../../src/sandbox/store/database.ts";
import { openDatabase } from "../../src/sandbox/store/index.ts";
import { catalogOf, differences } from "../support/schema-catalog.ts";

if (postgresMissing) console.warn(postgresMissing);

let cluster: TestPostgres | undefined;
beforeAll(() => {
  if (!postgresMissing) cluster = startPostgres();
});
afterAll(() => cluster?.stop());

/** A new database on each engine, migrated to the end. */
async function bothEngines(): Promise<[Database, Database]> {
  return [await openDatabase(), await openDatabase({ postgres: cluster!.createDatabase() })];
}

const ENGINES = ["sqlite", "postgres"] as const;

describe.skipIf(postgresMissing)("the schema on SQLite and on PostgreSQL", () => {
  it("is the same: every table, column, key, constraint and index", async () => {
    const [sqlite, postgres] = await bothEngines();
    const [a, b] = [await catalogOf(sqlite), await catalogOf(postgres)];
    expect(Object.keys(a)).toEqual(expect.arrayContaining(["accounts", "events", "delivery_attempts", "requests"]));
    expect(Object.values(a).flatMap((table) => Object.keys(table.indexes))).toContain("events_due");
    expect(differences(a, b, ENGINES)).toEqual([]);
    await Promise.all([sqlite.close(), postgres.close()]);
  });

  it("keeps milliseconds and keys in BIGINT on PostgreSQL, whose INTEGER would overflow 25 days after 1970", async () => {
    const postgres = await openDatabase({ postgres: cluster!.createDatabase() });
    const narrow = await postgres.all<{ column: string }>(
      `SELECT table_name || '.' || column_name AS column FROM information_schema.columns
       WHERE table_schema = 'public' AND data_type = 'integer'
         AND (column_name LIKE '%\\_ms' OR column_name IN ('seq', 'id', 'account_id'))`,
    );
    expect(narrow).toEqual([]);
    await postgres.close();
  });

  it("would catch an index, a type, a NOT NULL, a default, a key or a check that one engine has and the other lacks", async () => {
    const [sqlite, postgres] = await bothEngines();
    await sqlite.run("DROP INDEX requests_by_account");
    await sqlite.run("ALTER TABLE faults ADD COLUMN note TEXT");
    for (const change of [
      "DROP INDEX events_due",
      "ALTER TABLE faults ALTER COLUMN share TYPE TEXT",
      "ALTER TABLE requests ALTER COLUMN path DROP NOT NULL",
      "ALTER TABLE faults ALTER COLUMN matched SET DEFAULT 1",
      "ALTER TABLE webhooks DROP CONSTRAINT webhooks_account_id_fkey",
      "ALTER TABLE events ADD CHECK (attempts >= 0)",
      "ALTER TABLE accounts DROP CONSTRAINT accounts_token_key",
      "ALTER TABLE faults ADD COLUMN note INTEGER",
    ])
      await postgres.run(change);
    expect(differences(await catalogOf(sqlite), await catalogOf(postgres), ENGINES)).toEqual([
      'accounts.unique: sqlite ["token_hash"], postgres []',
      'events.checks: sqlite [], postgres ["attempts>=0"]',
      'events.indexes.events_due: sqlite {"columns":["due_ms"],"unique":false,"where":"due_msisnotnull"}, postgres none',
      'faults.columns.matched.default: sqlite "0", postgres "1"',
      'faults.columns.note.type: sqlite "text", postgres "integer"',
      'faults.columns.share.type: sqlite "real", postgres "text"',
      "requests.columns.path.notNull: sqlite true, postgres false",
      'requests.indexes.requests_by_account: sqlite none, postgres {"columns":["account_id","seq"],"unique":false,"where":null}',
      'webhooks.foreignKeys: sqlite ["(account_id) → accounts (id) on update NO ACTION on delete NO ACTION"], postgres []',
    ]);
    await Promise.all([sqlite.close(), postgres.close()]);
  });
});
