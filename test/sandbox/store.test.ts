// The store's own guarantees, below HTTP: one suite, run against SQLite and against PostgreSQL
// (a throwaway cluster; skipped with a message where Debian's postgresql package is missing,
// never in CI). Then what each engine alone promises.
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { DatabaseSync } from "node:sqlite";
import pg from "pg";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { IDEMPOTENCY_KEY_LIFETIME_MS } from "../../src/lib/contract-facts.ts";
import { type Database, DatabaseUnavailableError } from "../../src/sandbox/store/database.ts";
import { openDatabase, Store } from "../../src/sandbox/store/index.ts";
import { postgresMigrations, sqliteMigrations } from "../../src/sandbox/store/migrations.ts";
import { SqliteDatabase } from "../../src/sandbox/store/sqlite.ts";
import { postgresMissing, startPostgres, type TestPostgres } from "../../scripts/lib/temp-postgres.ts";

if (postgresMissing) console.warn(postgresMissing);

let cluster: TestPostgres | undefined;
beforeAll(() => {
  if (!postgresMissing) cluster = startPostgres();
});
afterAll(() => cluster?.stop());

/** A statement, or on PostgreSQL several, run as given, outside the store (to break it on purpose). */
async function exec(db: Database, url: string | undefined, sql: string) {
  if (url === undefined) return db.run(sql);
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    await client.query(sql);
  } finally {
    await client.end();
  }
}

const count = async (db: Database, table: string) => (await db.get<{ n: number }>(`SELECT COUNT(*) AS n FROM ${table}`))!.n;

const engines = [
  { engine: "SQLite", skip: undefined, url: () => undefined },
  { engine: "PostgreSQL", skip: postgresMissing, url: () => cluster!.createDatabase() },
];

describe.each(engines)("the sandbox's store on $engine", ({ skip, url: newUrl }) => {
  /** A new store on a new database, the database under it, and its URL (none for SQLite). */
  const open = async () => {
    const url = newUrl();
    const db = await openDatabase(url === undefined ? {} : { postgres: url });
    return { store: new Store(db), db, url };
  };

  it.skipIf(skip)("makes every table on a new database", async () => {
    const { store, db } = await open();
    const tables =
      db.dialect === "sqlite"
        ? "SELECT name FROM sqlite_master WHERE type = 'table'"
        : "SELECT tablename AS name FROM pg_tables WHERE schemaname = 'public'";
    expect((await db.all<{ name: string }>(tables)).map((r) => r.name)).toEqual(
      expect.arrayContaining([
        "accounts",
        "counterparties",
        "payment_sessions",
        "transactions",
        "webhooks",
        "events",
        "delivery_attempts",
        "idempotency_keys",
        "faults",
        "requests",
      ]),
    );
    await store.close();
  });

  it.skipIf(skip)("rolls a transaction back whole, nested work included, and calls its commit hooks only after a commit", async () => {
    const { store, db } = await open();
    const account = await store.accounts.forToken("t");
    const heard: string[] = [];
    await expect(
      store.transaction(async () => {
        db.afterCommit(() => heard.push("rolled back"));
        await store.webhooks.register(account.id, "https://a.example.com/", 1);
        await store.transaction(() => store.webhooks.register(account.id, "https://b.example.com/", 2));
        throw new Error("boom");
      }),
    ).rejects.toThrow("boom");
    expect(await count(db, "webhooks")).toBe(0);
    const hook = () => heard.push("committed");
    await store.transaction(async () => {
      db.afterCommit(hook);
      db.afterCommit(hook);
      await store.webhooks.register(account.id, "https://a.example.com/", 1);
      expect(heard).toEqual([]);
    });
    expect(heard).toEqual(["committed"]);
    await store.close();
  });

  it.skipIf(skip)("keeps transactions apart: a read outside one never sees its writes half done", async () => {
    const { store } = await open();
    const account = await store.accounts.forToken("t");
    let release!: () => void;
    const held = new Promise<void>((resolve) => (release = resolve));
    const writing = store.transaction(async () => {
      await store.webhooks.register(account.id, "https://a.example.com/", 1);
      await held;
      throw new Error("changed its mind");
    });
    // The transaction has written and not committed: another context reads the committed state.
    await new Promise((resolve) => setTimeout(resolve, 20));
    const reading = store.webhooks.get(account.id);
    release();
    await expect(writing).rejects.toThrow("changed its mind");
    expect(await reading).toBeUndefined();
    await store.close();
  });

  it.skipIf(skip)("resets one account only, its clock too", async () => {
    const { store } = await open();
    const [a, b] = [await store.accounts.forToken("a"), await store.accounts.forToken("b")];
    for (const account of [a, b]) await store.webhooks.register(account.id, "https://x.example.com/", 1);
    await store.advanceClock(a, 5000);
    expect(a.clockOffsetMs).toBe(5000);
    await store.reset(a);
    expect(await store.webhooks.get(a.id)).toBeUndefined();
    expect(await store.webhooks.get(b.id)).toBeDefined();
    expect(a.clockOffsetMs).toBe(0);
    expect((await store.accounts.forToken("a")).clockOffsetMs).toBe(0);
    await store.close();
  });

  it.skipIf(skip)("gives each token its own account, one object per account, whose clock is the database's", async () => {
    const { store, url } = await open();
    const x = await store.accounts.forToken("x");
    expect((await store.accounts.forToken("x")).id).toBe(x.id);
    expect((await store.accounts.forToken("y")).id).not.toBe(x.id);
    expect(await store.accounts.byId(x.id)).toBe(x);
    if (url !== undefined) {
      // Another process moves the clock: this one's account object has the move at its next look-up.
      const other = await Store.open({ postgres: url });
      await other.advanceClock(await other.accounts.forToken("x"), 60_000);
      await other.close();
      await store.accounts.byId(x.id);
      expect(x.clockOffsetMs).toBe(60_000);
    }
    await store.close();
  });

  it.skipIf(skip)("says with the account whether it has a request fault armed, and of that account only", async () => {
    const { store } = await open();
    const [a, b] = [await store.accounts.forToken("armed"), await store.accounts.forToken("other")];
    const requestFaults = async (token: string) => (await store.accounts.lookUp(token))!.requestFaults;
    expect(await requestFaults("armed")).toBe(false);
    await store.faults.arm(a.id, { target: "delivery", effect: "status", status: 500 }, 0);
    expect(await requestFaults("armed")).toBe(false);
    await store.faults.arm(a.id, { target: "request", effect: "status", status: 503, times: 1 }, 0);
    expect(await requestFaults("armed")).toBe(true);
    expect(await requestFaults("other")).toBe(false);
    expect((await store.faults.forRequest(a.id, "createPaymentSession"))?.status).toBe(503);
    expect(await requestFaults("armed")).toBe(false);
    expect((await store.accounts.lookUp("armed"))!.account).toBe(a);
    expect(b.id).not.toBe(a.id);
    await store.close();
  });

  it.skipIf(skip)("keeps an Idempotency-Key for 24 hours of the account's clock, to the millisecond, then forgets it", async () => {
    const { store, db } = await open();
    const account = await store.accounts.forToken("keys");
    const keys = store.idempotencyKeys;
    const t0 = 1_000_000;
    const created = { status: 201, body: "{}" };
    const keep = (key: string, hash: string, at: number) => keys.keep(account.id, "op", key, hash, created, at, 0);
    expect(await keep("k", "hash-a", t0)).toEqual({ fresh: true });
    expect(await keep("k", "hash-a", t0 + IDEMPOTENCY_KEY_LIFETIME_MS - 1)).toEqual({
      fresh: false,
      sameBody: true,
      answer: { status: 201, body: "{}" },
    });
    expect(await keep("k", "hash-b", t0 + 1)).toMatchObject({ fresh: false, sameBody: false });
    // Not yet swept, but past its lifetime: a new first use, with the new body.
    expect(await keep("k", "hash-b", t0 + IDEMPOTENCY_KEY_LIFETIME_MS)).toEqual({ fresh: true });
    expect(await keep("k", "hash-b", t0 + IDEMPOTENCY_KEY_LIFETIME_MS + 1)).toMatchObject({
      fresh: false,
      sameBody: true,
    });

    // The sweep removes the keys past their lifetime, of one account or of all.
    await keep("old", "h", t0);
    await keys.forgetExpired(account.id, t0 + IDEMPOTENCY_KEY_LIFETIME_MS - 1);
    expect(await count(db, "idempotency_keys")).toBe(2);
    await keys.forgetExpired(account.id, t0 + IDEMPOTENCY_KEY_LIFETIME_MS);
    expect(await count(db, "idempotency_keys")).toBe(1);
    await keys.forgetExpired(null, t0 + 2 * IDEMPOTENCY_KEY_LIFETIME_MS - 1);
    expect(await count(db, "idempotency_keys")).toBe(1);
    await keys.forgetExpired(null, t0 + 2 * IDEMPOTENCY_KEY_LIFETIME_MS);
    expect(await count(db, "idempotency_keys")).toBe(0);
    await store.close();
  });

  it.skipIf(skip)("renews a key past its lifetime for one of two requests that use it again at once", async () => {
    const { store } = await open();
    const account = await store.accounts.forToken("keys");
    await store.idempotencyKeys.keep(account.id, "op", "k", "first", { status: 201, body: "{}" }, 0, 0);
    const later = IDEMPOTENCY_KEY_LIFETIME_MS + 1;
    const claims = await Promise.all(
      ["a", "b"].map((hash) => store.idempotencyKeys.keep(account.id, "op", "k", hash, { status: 202, body: hash }, later, 0)),
    );
    expect(claims.filter((c) => c.fresh)).toHaveLength(1);
    // The other sees the renewed key: its first use now, by the one that won, with that one's answer.
    const other = claims.find((c) => !c.fresh) as { sameBody: boolean; answer: { status: number; body: string } };
    expect(other.sameBody).toBe(false);
    expect(other.answer).toEqual({ status: 202, body: ["a", "b"].find((hash) => claims[["a", "b"].indexOf(hash)]!.fresh) });
    await store.close();
  });

  it.skipIf(skip)("removes a fault used up by requests at once, whichever took its last turn", async () => {
    const { store } = await open();
    const account = await store.accounts.forToken("faults");
    await store.faults.arm(account.id, { target: "request", effect: "status", status: 503, times: 2 }, 0);
    const met = await Promise.all([1, 2].map(() => store.faults.forRequest(account.id, "getWebhook")));
    expect(met.map((f) => f?.status)).toEqual([503, 503]);
    expect(await store.faults.list(account.id)).toEqual([]);
    expect(await store.faults.forRequest(account.id, "getWebhook")).toBeUndefined();
    await store.close();
  });

  it.skipIf(skip)("passes on a database error that is not the key's own conflict", async () => {
    const { store, db, url } = await open();
    const account = await store.accounts.forToken("keys");
    await exec(
      db,
      url,
      url === undefined
        ? "CREATE TRIGGER no_keys BEFORE INSERT ON idempotency_keys BEGIN SELECT RAISE(ABORT, 'refused'); END"
        : "CREATE FUNCTION refuse() RETURNS trigger AS $$ BEGIN RAISE EXCEPTION 'refused'; END $$ LANGUAGE plpgsql; " +
            "CREATE TRIGGER no_keys BEFORE INSERT ON idempotency_keys FOR EACH ROW EXECUTE FUNCTION refuse()",
    );
    await expect(store.idempotencyKeys.keep(account.id, "op", "k", "h", { status: 201, body: "{}" }, 1, 0)).rejects.toThrow("refused");
    await store.close();
  });

  it.skipIf(skip)("lets one claim of a due event win, and another take it once its lease has run out", async () => {
    const { store, db } = await open();
    const account = await store.accounts.forToken("claims");
    await store.webhooks.register(account.id, "http://127.0.0.1:9/", 1);
    const person = { type: "INDIVIDUAL", payment_rail: "PAYIN", first_name: "A", last_name: "B" } as const;
    await store.counterparties.create(
      account.id,
      { ...person, id: "cp_1", email: "a@example.com", phone_number: "+34600000001" } as never,
      1,
    );
    await store.transaction(async () => {
      await store.sessions.create(account.id, "ps_1", { counterparty_id: "cp_1" }, 1, Date.now() + 3_600_000);
      await store.outbox.add(account.id, "ps_1", [{ type: "session-created" }], 1);
    });
    const terms = (claim: string, dueByMs = Date.now()) => ({ claim, untilMs: Date.now() + 60_000, dueByMs });
    const claims = await Promise.all(["p1", "p2", "p3"].map((p) => store.outbox.claimDue(terms(p), 10)));
    expect(claims.flat()).toHaveLength(1);
    const seq = claims.flat()[0]!.seq;
    // A claimed event is no longer due for anyone; once the lease runs out it is, and another takes it.
    expect(await store.outbox.claimDue(terms("p0"), 10)).toEqual([]);
    await db.run("UPDATE events SET claim_until_ms = ? WHERE seq = ?", Date.now() - 1, seq);
    expect((await store.outbox.claimDue(terms("p4"), 10)).map((e) => e.seq)).toEqual([seq]);
    // The holder whose lease ran out records nothing; the one that holds the claim does.
    const attempt = {
      accountId: account.id,
      eventId: claims.flat()[0]!.id,
      eventSeq: seq,
      sessionId: "ps_1",
      attempt: 1,
      url: "http://127.0.0.1:9/",
      responseStatus: 204,
      error: null,
      succeeded: true,
      attemptedAtMs: 2,
      durationMs: 1,
      nextAttemptAtMs: null,
      nextDueMs: null,
      marks: [],
      requestHeaders: { "webhook-id": "msg_1", "Content-Type": "application/json" },
      responseFirstBytes: "ok",
    };
    const first = ["p1", "p2", "p3"][claims.findIndex((c) => c.length === 1)]!;
    expect(await store.outbox.finish(attempt, first)).toEqual({ recorded: false });
    const retryAt = Date.now() + 60_000;
    const failed = { ...attempt, responseStatus: 500, error: "500", succeeded: false, nextAttemptAtMs: retryAt, nextDueMs: retryAt };
    expect(await store.outbox.finish(failed, "p4")).toEqual({ recorded: true });
    expect(await store.outbox.attemptsPage(account.id, { limit: 100 })).toHaveLength(1);
    // What was sent and the answer's first bytes are kept with the attempt, for the dashboard.
    expect(await store.outbox.newestAttemptsOf(account.id, [attempt.eventId, "msg_other"], 10)).toMatchObject([
      { attempt: 1, request_headers: JSON.stringify(attempt.requestHeaders), response_first_bytes: "ok" },
    ]);
    // Its retry is not due yet: a process that read it as due before that attempt cannot claim it now.
    expect(await store.outbox.claimOne(seq, terms("p5"))).toBeUndefined();
    expect(await store.outbox.claimOne(seq, terms("p5", retryAt))).toMatchObject({ seq });
    // A redelivery asked for frees the event of its claim: p5's attempt is no longer recorded, the one asked for is.
    await store.transaction(() => store.outbox.redeliver(account.id, attempt.eventId, Date.now()));
    expect(await store.outbox.finish({ ...attempt, attempt: 2 }, "p5")).toEqual({ recorded: false });
    expect(await store.outbox.claimOne(seq, terms("p6"))).toMatchObject({ seq });
    await store.close();
  });

  it.skipIf(skip)("lists an account's events by type, outcome and session, newest first, with the facts of their payload", async () => {
    const { store, db } = await open();
    const account = await store.accounts.forToken("event-log");
    const person = { type: "INDIVIDUAL", payment_rail: "PAYIN", first_name: "Ana", last_name: "Li" } as const;
    await store.counterparties.create(
      account.id,
      { ...person, id: "cp_1", email: "ana@example.com", phone_number: "+34600000001" } as never,
      1,
    );
    await store.transaction(async () => {
      for (const id of ["ps_1", "ps_2"]) {
        await store.sessions.create(
          account.id,
          id,
          { counterparty_id: "cp_1", order_id: `ORD-${id}`, amount: 5, currency: "EUR" } as never,
          1,
          9e12,
        );
        await store.outbox.add(account.id, id, [{ type: "session-created" }], 2);
      }
      await store.outbox.add(account.id, "ps_1", [{ type: "session-completed" }], 3);
    });
    // No URL, no listener: every event waits, unsent. Then one is delivered, one failed once and waits for its retry.
    const [completed, second, first] = await store.eventLog.list(account.id, {}, 10);
    expect([completed, second, first].map((e) => [e?.type, e?.sessionId, e?.outcome])).toEqual([
      ["session-completed", "ps_1", "unsent"],
      ["session-created", "ps_2", "unsent"],
      ["session-created", "ps_1", "unsent"],
    ]);
    expect(first).toMatchObject({ counterpartyId: "cp_1", request: { order_id: "ORD-ps_1", amount: 5 }, createdAtMs: 2, state: "waiting" });
    await db.run("UPDATE events SET state = 'delivered', attempts = 1 WHERE id = ?", first!.id);
    await db.run("UPDATE events SET state = 'pending', attempts = 1 WHERE id = ?", second!.id);
    const ids = async (filter: Parameters<typeof store.eventLog.list>[1]) =>
      (await store.eventLog.list(account.id, filter, 10)).map((e) => e.id);
    expect(await ids({ outcome: "delivered" })).toEqual([first!.id]);
    expect(await ids({ outcome: "failed" })).toEqual([second!.id]);
    expect(await ids({ outcome: "unsent", sessionId: "ps_1" })).toEqual([completed!.id]);
    expect(await ids({ type: "session-created" })).toEqual([second!.id, first!.id]);
    expect(await ids({ type: "session-created", outcome: "failed", sessionId: "ps_1" })).toEqual([]);
    expect((await store.eventLog.list(account.id, {}, 1)).map((e) => e.id)).toEqual([completed!.id]);
    // The dashboard's customers: a counterparty's name and email, by id.
    expect(await store.counterparties.of(account.id, ["cp_1", "cp_none"])).toMatchObject([
      { id: "cp_1", name: "Ana Li", email: "ana@example.com" },
    ]);
    await store.close();
  });

  it.skipIf(skip)("keeps an account's last 100 requests in its journal, newest first", async () => {
    const { store } = await open();
    const [a, b] = [await store.accounts.forToken("a"), await store.accounts.forToken("b")];
    const entry = (path: string) => ({
      method: "GET",
      path,
      operationId: "getWebhook",
      status: 200,
      answered: true,
      idempotencyKey: undefined,
      fault: undefined,
      receivedAtMs: 0,
      durationMs: 1,
    });
    for (let n = 1; n <= 105; n++) await store.journal.record(a.id, entry(`/${n}`));
    await store.journal.record(b.id, { ...entry("/b"), idempotencyKey: "k", fault: { id: "flt_1", effect: "drop" }, answered: false });
    const listed = await store.journal.list(a.id);
    expect(listed.map((e) => e.path)).toEqual(Array.from({ length: 100 }, (_, i) => `/${105 - i}`));
    expect(listed[0]).toEqual({
      method: "GET",
      path: "/105",
      operation_id: "getWebhook",
      status: 200,
      answered: true,
      received_at: "1970-01-01T00:00:00.000Z",
      duration_ms: 1,
    });
    expect(await store.journal.list(b.id)).toEqual([
      expect.objectContaining({ path: "/b", answered: false, idempotency_key: "k", fault: { id: "flt_1", effect: "drop" } }),
    ]);
    await store.reset(a);
    expect(await store.journal.list(a.id)).toEqual([]);
    expect(await store.journal.list(b.id)).toHaveLength(1);
    await store.close();
  });

  it.skipIf(skip)("closes its database", async () => {
    const { store, db } = await open();
    await store.close();
    await expect(db.get("SELECT 1")).rejects.toThrow();
  });
});

describe("the store on a SQLite file", () => {
  it("keeps it in WAL mode with foreign keys on, and refuses one a newer sandbox made", async () => {
    const dir = mkdtempSync(path.join(tmpdir(), "payin-store-"));
    const file = path.join(dir, "sandbox.db");
    try {
      const { db } = new SqliteDatabase(file);
      const pragma = (name: string) => Object.values(db.prepare(`PRAGMA ${name}`).get()!)[0];
      expect([pragma("journal_mode"), pragma("synchronous"), pragma("busy_timeout"), pragma("foreign_keys")]).toEqual(["wal", 1, 5000, 1]);
      expect(pragma("user_version")).toBe(sqliteMigrations.length);
      db.close();
      const raw = new DatabaseSync(file);
      raw.exec(`PRAGMA user_version = ${sqliteMigrations.length + 1}`);
      raw.close();
      expect(() => new SqliteDatabase(file)).toThrow(
        `The database was made by a newer sandbox (schema ${sqliteMigrations.length + 1}; this one knows ${sqliteMigrations.length}).`,
      );
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
    const memory = new SqliteDatabase();
    expect(Object.values(memory.db.prepare("PRAGMA foreign_keys").get()!)[0]).toBe(1);
    await memory.close();
  });
});

describe.skipIf(postgresMissing)("the store on PostgreSQL", () => {
  it("migrates once when several processes start on a new database at once", async () => {
    const url = cluster!.createDatabase();
    const databases = await Promise.all(Array.from({ length: 4 }, () => openDatabase({ postgres: url })));
    const stores = databases.map((db) => new Store(db));
    const versions = await databases[0]!.all<{ version: number }>("SELECT version FROM sandbox_schema");
    expect(versions).toEqual([{ version: postgresMigrations.length }]);
    // Every one of them works on the one schema.
    await Promise.all(stores.map((store, i) => store.accounts.forToken(`start-${i}`)));
    expect(await count(databases[0]!, "accounts")).toBe(4);
    await Promise.all(stores.map((store) => store.close()));
  });

  it("uses what it keeps of an account only once it heard what another process changed before: never a stale clock or fault", async () => {
    const url = cluster!.createDatabase();
    const [here, there] = [await Store.open({ postgres: url }), await Store.open({ postgres: url })];
    try {
      const token = "kept-and-changed";
      const account = await there.accounts.forToken(token);
      // Each round: this process has the account's facts kept, the other changes them and commits, and the next
      // look-up here (at once, as a request the balancer sent here the moment the other answered) has the change.
      for (let round = 1; round <= 25; round++) {
        await here.accounts.lookUp(token);
        await there.advanceClock(account, 1000);
        expect((await here.accounts.lookUp(token))!.account.clockOffsetMs).toBe(round * 1000);
        await there.faults.arm(account.id, { target: "request", effect: "status", status: 503, times: 1 }, 0);
        expect((await here.accounts.lookUp(token))!.requestFaults).toBe(true);
        await there.faults.forRequest(account.id, "createPaymentSession");
        expect((await here.accounts.lookUp(token))!.requestFaults).toBe(false);
      }
    } finally {
      await Promise.all([here.close(), there.close()]);
    }
  });

  it("refuses a database a newer sandbox made, and one it cannot reach or log in to, naming where and why", async () => {
    const url = cluster!.createDatabase();
    const db = await openDatabase({ postgres: url });
    await db.run("UPDATE sandbox_schema SET version = 99");
    await db.close();
    const socket = cluster!.socketFolder;
    await expect(Store.open({ postgres: url })).rejects.toThrow(
      `The sandbox cannot use its database at ${socket}: ` +
        `the database was made by a newer sandbox (schema 99; this one knows ${postgresMigrations.length}).`,
    );
    const nobody = url.replace("postgres@", "nobody@");
    await expect(Store.open({ postgres: nobody })).rejects.toThrow(
      `The sandbox cannot use its database at ${socket}: role "nobody" does not exist.`,
    );
    const empty = mkdtempSync(path.join(tmpdir(), "payin-nopg-"));
    try {
      await expect(Store.open({ postgres: `postgres://postgres@localhost/x?host=${encodeURIComponent(empty)}` })).rejects.toThrow(
        `The sandbox cannot use its database at ${empty}: connect ENOENT ${empty}/.s.PGSQL.5432.`,
      );
    } finally {
      rmSync(empty, { recursive: true, force: true });
    }
  });

  it("counts a database gone silent (a network cut) as unavailable after its timeout, and is served once it answers again", async () => {
    const store = await Store.open({ postgres: cluster!.createDatabase(), timeoutMs: 300 });
    const account = await store.accounts.forToken("cut");
    let frozen = false;
    try {
      // In a transaction, on a connection that answered a moment before.
      const cut = store.transaction(async () => {
        await store.accounts.advanceClock(account, 1000);
        cluster!.freeze();
        frozen = true;
        await store.accounts.advanceClock(account, 1000);
      });
      await expect(cut).rejects.toThrow(DatabaseUnavailableError);
      // Outside one, and for a new connection (a token not seen before: what is kept of one seen needs no statement).
      await expect(store.accounts.forToken("cut-new")).rejects.toThrow(DatabaseUnavailableError);
    } finally {
      if (frozen) cluster!.thaw();
    }
    // Served again once the database answers: nothing of the cut transaction was kept.
    const offset = () =>
      store.accounts.forToken("cut").then(
        (a) => a.clockOffsetMs,
        () => "unavailable",
      );
    await expect.poll(offset, { timeout: 10_000 }).toBe(0);
    await store.close();
  });

  it("runs again the one of two transactions PostgreSQL aborts in a deadlock of their locks", async () => {
    const url = cluster!.createDatabase();
    const [a, b] = await Promise.all([openDatabase({ postgres: url }), openDatabase({ postgres: url })]);
    let runs = 0;
    let bothHold = () => {};
    const both = new Promise<void>((resolve) => (bothHold = resolve));
    let holding = 0;
    // Each takes one account's lock, waits until the other holds its own, then asks for the other's.
    const crossing = (db: Database, first: number, second: number) =>
      db.transaction(async () => {
        runs++;
        await db.lock(first);
        await db.get("SELECT 1");
        if (++holding === 2) bothHold();
        await both;
        await db.lock(second);
        return db.get<{ done: number }>("SELECT 1 AS done");
      });
    expect(await Promise.all([crossing(a, 1, 2), crossing(b, 2, 1)])).toEqual([{ done: 1 }, { done: 1 }]);
    expect(runs).toBe(3);
    await Promise.all([a.close(), b.close()]);
  });

  it("holds the uniqueness and idempotency rules across processes, from the database's constraints", async () => {
    const url = cluster!.createDatabase();
    const [one, two] = await Promise.all([Store.open({ postgres: url }), Store.open({ postgres: url })]);
    const [a1, a2] = [await one.accounts.forToken("shared"), await two.accounts.forToken("shared")];
    expect(a1.id).toBe(a2.id);
    const person = (id: string) =>
      ({
        id,
        type: "INDIVIDUAL",
        payment_rail: "PAYIN",
        first_name: "A",
        last_name: "B",
        email: "Same@Example.com",
        phone_number: "+34600000002",
      }) as never;
    const results = await Promise.all([
      one.counterparties.create(a1.id, person("cp_a"), 1),
      two.counterparties.create(a2.id, person("cp_b"), 1),
    ]);
    const created = results.filter((r) => "created" in r);
    expect(created).toHaveLength(1);
    const winner = (created[0] as { created: { id: string } }).created.id;
    expect(results.find((r) => "existingId" in r)).toEqual({ existingId: winner });
    const claims = await Promise.all(
      [one, two].map((store) =>
        store.transaction(async () => (await store.idempotencyKeys.keep(a1.id, "op", "key", "h", { status: 201, body: "{}" }, 1, 0)).fresh),
      ),
    );
    expect(claims.sort()).toEqual([false, true]);
    await Promise.all([one.close(), two.close()]);
  });
});
