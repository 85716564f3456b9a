// The delivery log a page at a time (GET /_sandbox/v1/deliveries), on SQLite and on PostgreSQL: pages of any size list
// every attempt once, oldest first, a page's end inside a burst of attempts of one millisecond included; a cursor is
// taken only as the sandbox gave it, for the account and session it was given for; and each page is read from an index
// from where the one before ended, never by sorting the account's whole log, as the databases' plans show. The
// dashboard, which lists an account's events with their attempts, reads a bounded part of them too.
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { DatabaseSync } from "node:sqlite";
import pg from "pg";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { postgresMissing, startPostgres, type TestPostgres } from "../../scripts/lib/temp-postgres.ts";
import { dashboardEvents } from "../../src/sandbox/api/pages/dashboard-events.ts";
import type { Database } from "../../src/sandbox/store/database.ts";
import { FILTER_REACH } from "../../src/sandbox/store/event-log.ts";
import { openDatabase, Store, type StoreLocation } from "../../src/sandbox/store/index.ts";
import { postgresMigrations, sqliteMigrations } from "../../src/sandbox/store/migrations.ts";
import { tokenHash } from "../../src/sandbox/store/token-hash.ts";
import { startSandbox } from "../../src/sandbox/index.ts";
import { accountOn } from "../support/sandbox-account.ts";

if (postgresMissing) console.warn(postgresMissing);

let cluster: TestPostgres | undefined;
const folders: string[] = [];
beforeAll(() => {
  if (!postgresMissing) cluster = startPostgres();
});
afterAll(() => {
  cluster?.stop();
  for (const folder of folders) rmSync(folder, { recursive: true, force: true });
});

/** A new database: where the store finds it, and how a sandbox is given it. */
type Place = { store: StoreLocation; sandbox: { db: string } | { database: string } };

const engines = [
  {
    engine: "SQLite",
    skip: undefined,
    place: (): Place => {
      const folder = mkdtempSync(path.join(tmpdir(), "payin-log-"));
      folders.push(folder);
      const file = path.join(folder, "sandbox.db");
      return { store: { file }, sandbox: { db: file } };
    },
  },
  {
    engine: "PostgreSQL",
    skip: postgresMissing,
    place: (): Place => {
      const url = cluster!.createDatabase();
      return { store: { postgres: url }, sandbox: { database: url } };
    },
  },
];

const BASE_MS = Date.parse("2026-11-21T10:00:00Z");

/**
 * `events` delivered events of the account, in `sessions` sessions (ps_0, ps_1, …) by turns, each attempted `perEvent`
 * times; an attempt's time is its event's number plus its own, by fours: a millisecond holds bursts of several events'.
 */
async function fill(db: Database, accountId: number, events: number, { perEvent = 3, sessions = 2 } = {}) {
  await db.run(
    `INSERT INTO events (account_id, id, type, session_id, created_at_ms, state, attempts)
    WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < CAST(? AS INTEGER))
    SELECT CAST(? AS INTEGER), 'msg_' || CAST(? AS INTEGER) || '_' || i, 'session-created', 'ps_' || (i % CAST(? AS INTEGER)),
      CAST(? AS BIGINT), 'delivered', CAST(? AS INTEGER) FROM n`,
    events,
    accountId,
    accountId,
    sessions,
    BASE_MS,
    perEvent,
  );
  await db.run(
    `INSERT INTO delivery_attempts (account_id, event_id, attempt, url, succeeded, attempted_at_ms, duration_ms, event_seq)
    WITH RECURSIVE k(attempt) AS (SELECT 1 UNION ALL SELECT attempt + 1 FROM k WHERE attempt < CAST(? AS INTEGER))
    SELECT e.account_id, e.id, k.attempt, 'http://127.0.0.1:9/', 1, CAST(? AS BIGINT) + ((e.seq + k.attempt) / 4) * 1000, 1, e.seq
    FROM events e, k WHERE e.account_id = ?`,
    perEvent,
    BASE_MS,
    accountId,
  );
}

/** The account's attempts in the log's order, sorted here: its time, then its event's number, then its own. */
async function logOrder(db: Database, accountId: number, sessionId?: string) {
  const rows = await db.all<{ event_id: string; attempt: number; attempted_at_ms: number; event_seq: number; session_id: string }>(
    `SELECT d.event_id, d.attempt, d.attempted_at_ms, d.event_seq, e.session_id
     FROM delivery_attempts d JOIN events e ON e.account_id = d.account_id AND e.id = d.event_id WHERE d.account_id = ?`,
    accountId,
  );
  return rows
    .filter((row) => sessionId === undefined || row.session_id === sessionId)
    .sort((a, b) => a.attempted_at_ms - b.attempted_at_ms || a.event_seq - b.event_seq || a.attempt - b.attempt)
    .map((row) => `${row.event_id} #${row.attempt}`);
}

type Account = ReturnType<typeof accountOn>;

/** Every page of the log `query` asks for, following next_cursor until it is null. */
async function pagesOf(account: Account, query: Record<string, string> = {}) {
  const pages: Array<Array<{ event_id: string; attempt: number; attempted_at: string; session_id: string }>> = [];
  let cursor: string | null = null;
  do {
    const asked = new URLSearchParams({ ...query, ...(cursor === null ? {} : { cursor }) });
    const res = await account.call("GET", `/_sandbox/v1/deliveries?${asked}`);
    expect(res.status).toBe(200);
    pages.push(res.body.data);
    cursor = res.body.next_cursor;
  } while (cursor !== null && pages.length <= 1000);
  return pages;
}

const listed = (pages: Awaited<ReturnType<typeof pagesOf>>) => pages.flat().map((d) => `${d.event_id} #${d.attempt}`);

describe.each(engines)("the delivery log on $engine", ({ skip, place }) => {
  /** A sandbox on a new database, its account of 50 events attempted three times each (150 attempts), and the database. */
  async function withLog(work: (account: Account, db: Database, accountId: number, url: string) => Promise<void>) {
    const where = place();
    const sandbox = await startSandbox({ port: 0, ...where.sandbox });
    const db = await openDatabase(where.store);
    try {
      const account = accountOn(sandbox.url);
      // An empty log first: one page, and nothing follows.
      expect((await account.call("GET", "/_sandbox/v1/deliveries")).body).toEqual({ data: [], next_cursor: null });
      const { id } = (await db.get<{ id: number }>("SELECT id FROM accounts WHERE token_hash = ?", tokenHash(account.token)))!;
      await fill(db, id, 50);
      await work(account, db, id, sandbox.url);
    } finally {
      await db.close();
      await sandbox.close();
    }
  }

  it.skipIf(skip)(
    "lists every attempt once, oldest first, in pages of 1, 2, 100 or 100 by default, the last with next_cursor null",
    async () => {
      await withLog(async (account, db, id) => {
        const order = await logOrder(db, id);
        expect(order).toHaveLength(150);
        for (const limit of [1, 2, 100, undefined]) {
          const pages = await pagesOf(account, limit === undefined ? {} : { limit: String(limit) });
          const size = limit ?? 100;
          expect(pages.map((page) => page.length)).toEqual(
            Array.from({ length: Math.ceil(150 / size) }, (_, i) => Math.min(size, 150 - i * size)),
          );
          expect(listed(pages), `limit ${limit}`).toEqual(order);
        }
        // Pages of two end inside bursts of one millisecond, and of 100 too: nothing there is lost or repeated.
        for (const limit of [2, 100]) {
          const pages = await pagesOf(account, { limit: String(limit) });
          const split = pages.slice(1).filter((page, i) => page[0]!.attempted_at === pages[i]!.at(-1)!.attempted_at);
          expect(split.length, `limit ${limit}`).toBeGreaterThan(0);
        }
      });
    },
  );

  it.skipIf(skip)("pages one session's attempts with session_id, its cursor taken for that session only", async () => {
    await withLog(async (account, db, id) => {
      const pages = await pagesOf(account, { session_id: "ps_1", limit: "7" });
      expect(listed(pages)).toEqual(await logOrder(db, id, "ps_1"));
      expect(pages.flat().every((d) => d.session_id === "ps_1")).toBe(true);
      expect(pages.map((page) => page.length)).toEqual([7, 7, 7, 7, 7, 7, 7, 7, 7, 7, 5]);
      const first = await account.call("GET", "/_sandbox/v1/deliveries?session_id=ps_1&limit=7");
      for (const elsewhere of ["", "session_id=ps_0&"]) {
        const refused = await account.call("GET", `/_sandbox/v1/deliveries?${elsewhere}cursor=${first.body.next_cursor}`);
        expect([refused.status, refused.body.errors], elsewhere).toEqual([422, [{ field: "cursor", message: expect.any(String) }]]);
      }
      expect((await account.call("GET", "/_sandbox/v1/deliveries?session_id=ps_none")).body).toEqual({ data: [], next_cursor: null });
    });
  });

  it.skipIf(skip)(
    "refuses a cursor it did not give and a limit outside 1 to 100 with 422, naming the field, never the database",
    async () => {
      await withLog(async (account, db, _, url) => {
        const { next_cursor: cursor } = (await account.call("GET", "/_sandbox/v1/deliveries?limit=1")).body;
        // Another account's cursor, as the sandbox gave it to that one.
        const stranger = accountOn(url);
        await stranger.call("GET", "/_sandbox/v1/deliveries");
        await fill(db, (await db.get<{ id: number }>("SELECT id FROM accounts WHERE token_hash = ?", tokenHash(stranger.token)))!.id, 2);
        const another = (await stranger.call("GET", "/_sandbox/v1/deliveries?limit=1")).body.next_cursor;
        expect(another).toEqual(expect.any(String));
        // A character changed in the middle, one added, the cursor cut short.
        const i = Math.floor(cursor.length / 2);
        const other = cursor[i] === "A" ? "B" : "A";
        const tampered = [`${cursor.slice(0, i)}${other}${cursor.slice(i + 1)}`, `${cursor}A`, cursor.slice(0, -4)];
        for (const bad of ["nope", "", ...tampered, another, "%00", "abc%00def", "%FF%FE", "%C3%28", "x".repeat(201), "a b"]) {
          const refused = await account.call("GET", `/_sandbox/v1/deliveries?cursor=${bad}`);
          expect([refused.status, refused.body.code, refused.body.errors], bad).toEqual([
            422,
            "validation_failed",
            [{ field: "cursor", message: expect.any(String) }],
          ]);
        }
        for (const bad of ["0", "101", "x", "1.5", "-1", "", "1e2", "99999999999999999999"]) {
          const refused = await account.call("GET", `/_sandbox/v1/deliveries?limit=${bad}`);
          expect([refused.status, refused.body.errors], bad).toEqual([422, [{ field: "limit", message: expect.any(String) }]]);
        }
        expect((await account.call("GET", "/_sandbox/v1/deliveries?limit=101")).body.errors).toEqual([
          { field: "limit", message: "must be <= 100" },
        ]);
      });
    },
  );
});

/** The plan of `sql`, one step a line: SQLite's EXPLAIN QUERY PLAN or PostgreSQL's EXPLAIN, with the values given. */
async function planOf(db: Database, sql: string, parameters: unknown[]) {
  const rows = await db.all<{ detail?: string; "QUERY PLAN"?: string }>(
    `${db.dialect === "sqlite" ? "EXPLAIN QUERY PLAN" : "EXPLAIN"} ${sql}`,
    ...(parameters as never[]),
  );
  return rows.map((row) => row.detail ?? row["QUERY PLAN"]!).join("\n");
}

describe.each(engines)("what a page reads on $engine", ({ skip, place }) => {
  it.skipIf(skip)("is a range of an index from where the last page ended, never a sort of the account's whole log", async () => {
    const db = await openDatabase(place().store);
    const store = new Store(db);
    try {
      // A tenant with a long log (30,000 attempts) beside two small ones, and the planner's statistics of them.
      const [big, small, other] = [
        await store.accounts.forToken("big"),
        await store.accounts.forToken("s"),
        await store.accounts.forToken("o"),
      ];
      // Its sessions have a few events each, as a session's are.
      await fill(db, big.id, 10_000, { sessions: 2_000 });
      await fill(db, small.id, 20);
      await fill(db, other.id, 20);
      await db.run("ANALYZE");
      const statements: Array<[string, unknown[]]> = [];
      const all = db.all.bind(db);
      db.all = ((sql: string, ...parameters: never[]) => (statements.push([sql, parameters]), all(sql, ...parameters))) as typeof db.all;
      // Halfway through its log.
      const after = { attemptedAtMs: BASE_MS + 1_250_000, eventSeq: 5_000, attempt: 1 };
      await store.outbox.attemptsPage(big.id, { limit: 101 });
      await store.outbox.attemptsPage(big.id, { after, limit: 101 });
      await store.outbox.attemptsPage(big.id, { sessionId: "ps_1", after, limit: 101 });
      db.all = all;
      const [first = "", next = "", session = ""] = await Promise.all(statements.map(([sql, parameters]) => planOf(db, sql, parameters)));
      if (db.dialect === "sqlite") {
        expect(first).toMatch(/SEARCH d USING INDEX delivery_attempts_by_account \(account_id=\?\)/);
        expect(next).toMatch(
          /SEARCH d USING INDEX delivery_attempts_by_account \(account_id=\? AND \(attempted_at_ms,event_seq,attempt\)>\(\?,\?,\?\)\)/,
        );
        for (const plan of [first, next]) expect(plan).not.toMatch(/TEMP B-TREE|SCAN d\b/);
        // One session's: its events by the session's index, their attempts by key; only those are sorted.
        expect(session).toMatch(/SEARCH e USING INDEX events_by_session \(account_id=\? AND session_id=\?\)/);
        expect(session).toMatch(/SEARCH d USING PRIMARY KEY \(account_id=\? AND event_id=\?\)/);
      } else {
        expect(first).toMatch(/Index Scan using delivery_attempts_by_account on delivery_attempts d/);
        expect(next).toMatch(/Index Scan using delivery_attempts_by_account on delivery_attempts d/);
        expect(next).toMatch(/Index Cond: \(\(account_id = '\d+'::bigint\) AND \(ROW\(attempted_at_ms, event_seq, attempt\) > ROW\(/);
        for (const plan of [first, next]) expect(plan).not.toMatch(/Sort|Seq Scan on delivery_attempts/);
        expect(session).toMatch(/Index Scan using events_by_session on events e/);
        expect(session).not.toMatch(/Seq Scan on delivery_attempts/);
      }
    } finally {
      await store.close();
    }
  });

  it.skipIf(skip)("on the dashboard, is at most the newest attempts of each event listed, and a filter's reach of events", async () => {
    const db = await openDatabase(place().store);
    const store = new Store(db);
    try {
      const account = await store.accounts.forToken("dashboard");
      await store.counterparties.create(
        account.id,
        {
          id: "cp_1",
          type: "INDIVIDUAL",
          payment_rail: "PAYIN",
          first_name: "Ana",
          last_name: "Li",
          email: "a@x.com",
          phone_number: "+34600000001",
        } as never,
        BASE_MS,
      );
      // Sessions of five events each, a little over the reach of events, attempted once, the newest 25 times; the oldest ten
      // expired, the rest created. And two other tenants' events after them, as a shared database has.
      await db.run(
        `INSERT INTO payment_sessions (account_id, id, counterparty_id, status, request, created_at_ms)
        WITH RECURSIVE n(i) AS (SELECT 0 UNION ALL SELECT i + 1 FROM n WHERE i < 2001)
        SELECT CAST(? AS INTEGER), 'ps_' || i, 'cp_1', 'completed', '{"amount":5,"currency":"EUR"}', CAST(? AS BIGINT) FROM n`,
        account.id,
        BASE_MS,
      );
      await fill(db, account.id, FILTER_REACH + 10, { perEvent: 1, sessions: 2002 });
      for (const token of ["other", "another"]) await fill(db, (await store.accounts.forToken(token)).id, FILTER_REACH, { perEvent: 1 });
      const newestId = `msg_${account.id}_${FILTER_REACH + 10}`;
      await db.run(
        `INSERT INTO delivery_attempts (account_id, event_id, attempt, url, succeeded, attempted_at_ms, duration_ms, event_seq)
        WITH RECURSIVE k(attempt) AS (SELECT 2 UNION ALL SELECT attempt + 1 FROM k WHERE attempt < 25)
        SELECT e.account_id, e.id, k.attempt, 'http://127.0.0.1:9/', 1, CAST(? AS BIGINT) + k.attempt, 1, e.seq FROM events e, k
        WHERE e.account_id = ? AND e.id = ?`,
        BASE_MS * 2,
        account.id,
        newestId,
      );
      await db.run("UPDATE events SET attempts = 25 WHERE account_id = ? AND id = ?", account.id, newestId);
      const oldest = await db.all<{ id: string }>("SELECT id FROM events WHERE account_id = ? ORDER BY seq LIMIT 10", account.id);
      for (const { id } of oldest)
        await db.run("UPDATE events SET type = 'session-expired' WHERE account_id = ? AND id = ?", account.id, id);
      await db.run("ANALYZE");
      const events = await dashboardEvents(store, account.id, {}, 50, false);
      expect(events).toHaveLength(50);
      const newest = events[0]!;
      expect(newest.id).toBe(newestId);
      expect([newest.attempt_count, newest.attempts.map((a) => a.attempt)]).toEqual([25, [16, 17, 18, 19, 20, 21, 22, 23, 24, 25]]);
      // The expired ones are older than the newest 10,000: a filter by type does not look that far back; by session, it does.
      expect(await store.eventLog.list(account.id, { type: "session-expired" }, 50)).toEqual([]);
      expect(await store.eventLog.list(account.id, { type: "session-expired", sessionId: "ps_1" }, 50)).toMatchObject([
        { id: `msg_${account.id}_1` },
      ]);
      expect((await store.eventLog.list(account.id, { type: "session-created" }, 50)).map((e) => e.id)).toEqual(events.map((e) => e.id));
      if (db.dialect === "sqlite") {
        const statements: Array<[string, unknown[]]> = [];
        const all = db.all.bind(db);
        db.all = ((sql: string, ...parameters: never[]) => (statements.push([sql, parameters]), all(sql, ...parameters))) as typeof db.all;
        await dashboardEvents(store, account.id, {}, 50, false);
        await store.eventLog.list(account.id, { type: "session-created" }, 50);
        db.all = all;
        const [list = "", attempts = "", filtered = ""] = await Promise.all(
          statements.map(([sql, parameters]) => planOf(db, sql, parameters)),
        );
        expect(list).toMatch(/SEARCH e USING INDEX events_by_account \(account_id=\?\)/);
        expect(filtered).toMatch(/SEARCH e USING INDEX events_by_account \(account_id=\? AND seq>\?\)/);
        for (const plan of [list, filtered]) expect(plan).not.toMatch(/TEMP B-TREE|SCAN events\b/);
        expect(attempts.match(/SEARCH delivery_attempts USING PRIMARY KEY \(account_id=\? AND event_id=\?\)/g)).toHaveLength(50);
        expect(attempts).not.toMatch(/SCAN delivery_attempts\b/);
      }
    } finally {
      await store.close();
    }
  });
});

describe.each(engines)("a log an earlier sandbox kept on $engine", ({ engine, skip, place }) => {
  it.skipIf(skip)("is brought over on start: each attempt with its event's number, paged as a new one is", async () => {
    const where = place();
    const migrations = engine === "SQLite" ? sqliteMigrations : postgresMigrations;
    const paging = migrations.findIndex((migration) => migration.includes("delivery_attempts_by_account"));
    // A database as the sandbox before paging left it: two events attempted, and an attempt whose event is gone.
    const earlier = [
      "INSERT INTO accounts (token_hash, created_at_ms) VALUES ('kept', 0)",
      ...["msg_b", "msg_a"].map(
        (id) =>
          "INSERT INTO events (account_id, id, type, session_id, created_at_ms, state) " +
          `VALUES (1, '${id}', 'session-created', 'ps_1', 0, 'delivered')`,
      ),
      ...[
        ["msg_a", 1, 5],
        ["msg_b", 1, 5],
        ["msg_b", 2, 9],
        ["msg_gone", 1, 1],
      ].map(
        ([event, attempt, at]) =>
          "INSERT INTO delivery_attempts (account_id, event_id, attempt, url, succeeded, attempted_at_ms, duration_ms) " +
          `VALUES (1, '${event}', ${attempt}, 'http://127.0.0.1:9/', 1, ${at}, 1)`,
      ),
    ];
    if ("db" in where.sandbox) {
      const old = new DatabaseSync(where.sandbox.db);
      old.function("payin_sha256", (text) => tokenHash(String(text)));
      for (const sql of [...migrations.slice(0, paging), `PRAGMA user_version = ${paging}`, ...earlier]) old.exec(sql);
      old.close();
    } else {
      const old = new pg.Client(where.sandbox.database);
      await old.connect();
      for (const migration of migrations.slice(0, paging)) await old.query(migration);
      await old.query("CREATE TABLE sandbox_schema (version INTEGER NOT NULL)");
      await old.query("INSERT INTO sandbox_schema VALUES ($1)", [paging]);
      for (const sql of earlier) await old.query(sql);
      await old.end();
    }
    const db = await openDatabase(where.store);
    try {
      const kept = await db.all<{ kept: number | boolean }>(
        "SELECT d.event_seq = e.seq AS kept FROM delivery_attempts d JOIN events e ON e.account_id = d.account_id AND e.id = d.event_id",
      );
      expect(kept.map((row) => Boolean(row.kept))).toEqual([true, true, true]);
      const store = new Store(db);
      // msg_b was made first: at the same millisecond, its attempt comes before msg_a's.
      const page = await store.outbox.attemptsPage(1, { limit: 2 });
      expect(page.map((row) => [row.event_id, row.attempt])).toEqual([
        ["msg_b", 1],
        ["msg_a", 1],
      ]);
      const rest = await store.outbox.attemptsPage(1, {
        after: { attemptedAtMs: page[1]!.attempted_at_ms, eventSeq: page[1]!.event_seq, attempt: page[1]!.attempt },
        limit: 2,
      });
      expect(rest.map((row) => [row.event_id, row.attempt])).toEqual([["msg_b", 2]]);
      expect(await db.all("SELECT event_id FROM delivery_attempts WHERE event_id = 'msg_gone'")).toEqual([]);
    } finally {
      await db.close();
    }
  });
});
