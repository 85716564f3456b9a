// The store's cost does not grow with what it holds: what is due is found in an index
// range of due rows only, whatever other accounts' clocks say; and a database of the schema that
// shipped is brought over to the compact one intact.
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { DatabaseSync } from "node:sqlite";
import { describe, expect, it } from "vitest";
import { accountNow } from "../../src/sandbox/flow/clock.ts";
import { runDueWork } from "../../src/sandbox/flow/due-work.ts";
import { payloadOf } from "../../src/sandbox/delivery/payload.ts";
import { Payments } from "../../src/sandbox/flow/payments.ts";
import { sqliteMigrations as migrations } from "../../src/sandbox/store/migrations.ts";
import { openDatabase, Store } from "../../src/sandbox/store/index.ts";
import { SqliteDatabase } from "../../src/sandbox/store/sqlite.ts";
import { SESSION_LIFETIME_MS } from "../../src/lib/contract-facts.ts";

/** A store in memory, and every SQL statement it prepares from now on. */
async function spiedStore() {
  const sqlite = new SqliteDatabase();
  const store = new Store(sqlite);
  const { db } = sqlite;
  const statements = new Set<string>();
  const prepare = db.prepare.bind(db);
  db.prepare = ((sql: string) => (statements.add(sql), prepare(sql))) as typeof db.prepare;
  return { store, db, statements };
}

/** Twenty accounts of fifty open sessions each. */
async function fill(store: Store) {
  const accounts = [];
  for (let a = 0; a < 20; a++) accounts.push(await store.accounts.forToken(`scale-${a}`));
  for (const [a, account] of accounts.entries())
    await store.transaction(async () => {
      const now = accountNow(store.clock, account);
      const counterparty = {
        id: `cp_${a}`,
        type: "INDIVIDUAL" as const,
        payment_rail: "PAYIN" as const,
        first_name: "Ana",
        last_name: "Li",
        email: `a${a}@example.com`,
        phone_number: `+34600${a}`,
        created_at: "",
      };
      await store.counterparties.create(account.id, counterparty, now);
      for (let s = 0; s < 50; s++)
        await store.sessions.create(
          account.id,
          `ps_${a}_${s}`,
          { counterparty_id: counterparty.id },
          now,
          Date.now() + SESSION_LIFETIME_MS,
        );
    });
  return accounts;
}

/** SQLite's plan for `sql`, one step a line. */
const planOf = (db: DatabaseSync, sql: string) => {
  const statement = db.prepare(`EXPLAIN QUERY PLAN ${sql}`);
  // Every parameter bound to 1: the plan does not depend on the values.
  const count = new Set(sql.match(/\?\d*/g) ?? []).size;
  return (statement.all(...Array(count).fill(1)) as Array<{ detail: string }>).map((r) => r.detail);
};

describe("what is due", () => {
  it("is found through an index of due rows by every statement that looks for it, never by scanning a table", async () => {
    const { store, db, statements } = await spiedStore();
    const payments = new Payments(store);
    // Every statement that looks for what is due, run once: a flow, an advance, each sweep, the dispatcher's reads.
    const [account] = await fill(store);
    await store.webhooks.register(account!.id, "http://127.0.0.1:9/", 1);
    await payments.attempt(account!, "ps_0_0", { outcome: "pay" });
    await store.advanceClock(account!, 61_000);
    await runDueWork({ store, payments }, account!.id);
    await runDueWork({ store, payments }, null);
    const terms = { claim: "plans", untilMs: Date.now() + 60_000, dueByMs: Date.now() };
    await store.outbox.claimDue(terms, 10);
    await store.outbox.claimDue(terms, 10, { accountId: account!.id });
    await store.outbox.claimNext(terms, { accountId: account!.id, sessionId: "ps_0_1" });
    await store.outbox.countDueFor(account!.id, Date.now());
    await store.outbox.release(account!.id);
    const dueStatements = [...statements].filter((sql) => /due_ms (<=|IS NOT NULL)/.test(sql));
    expect(dueStatements.length).toBeGreaterThanOrEqual(10);
    for (const sql of dueStatements) {
      const plan = planOf(db, sql);
      // The due indexes hold only rows with work due; the session one, a session's events (a handful, whatever the
      // account holds).
      expect(plan.join(" / "), sql).toMatch(/SEARCH \w+ USING (COVERING )?INDEX (\w+_due(_by_account)?|events_by_session) \(/);
      expect(
        plan.filter((step) => /^SCAN \w+$/.test(step)),
        sql,
      ).toEqual([]);
    }
    await store.close();
  });

  it("is, with one account a day ahead, only that account's due rows: others' open sessions stay out of the range", async () => {
    const { store, db } = await spiedStore();
    const payments = new Payments(store);
    const accounts = await fill(store);
    const due = db.prepare("SELECT account_id, COUNT(*) AS n FROM payment_sessions WHERE due_ms <= ? GROUP BY account_id");
    expect(due.all(Date.now())).toEqual([]);

    const [ahead] = accounts;
    await store.advanceClock(ahead!, 24 * 60 * 60 * 1000);
    expect(due.all(Date.now())).toEqual([{ account_id: ahead!.id, n: 50 }]);

    await runDueWork({ store, payments }, null);
    const byStatus = db
      .prepare("SELECT account_id = ? AS ahead, status, COUNT(*) AS n FROM payment_sessions GROUP BY 1, 2 ORDER BY 1, 2")
      .all(ahead!.id);
    expect(byStatus).toEqual([
      { ahead: 0, status: "created", n: 19 * 50 },
      { ahead: 1, status: "expired", n: 50 },
    ]);
    // Once it is done, a tick finds an empty range.
    expect(due.all(Date.now())).toEqual([]);
    await store.close();
  });
});

describe("a database of the schema 2.0.0 shipped with", () => {
  it("is brought over with its records, clocks, keys and pending deliveries as they were", async () => {
    const dir = mkdtempSync(path.join(tmpdir(), "payin-migrate-"));
    const file = path.join(dir, "old.db");
    try {
      const old = new DatabaseSync(file);
      for (const migration of migrations.slice(0, 2)) old.exec(migration);
      old.exec("PRAGMA user_version = 2");
      const offset = 7_000;
      const t = Date.parse("2026-11-20T10:00:00.000Z");
      old.prepare("INSERT INTO accounts (id, token, clock_offset_ms, created_at_ms) VALUES (1, 'old', ?, ?)").run(offset, t);
      const counterparty = {
        id: "cp_1",
        type: "INDIVIDUAL",
        payment_rail: "PAYIN",
        first_name: "Ana",
        last_name: "Li",
        email: "Ana@Example.com",
        phone_number: "+34600000001",
        created_at: new Date(t).toISOString(),
      };
      old
        .prepare("INSERT INTO counterparties VALUES (1, 'cp_1', 'PAYIN', ?, ?, ?, ?)")
        .run(counterparty.email, counterparty.phone_number, JSON.stringify(counterparty), t);
      const session = (id: string, status: string) => ({
        id,
        status: "created",
        payment_link: `http://127.0.0.1:4010/pay/${id}`,
        amount: 12.5,
        currency: "EUR",
        counterparty_id: "cp_1",
        order_id: "ORD-9",
        redirect_url: "https://shop.example.com/thanks",
        created_at: new Date(t).toISOString(),
        expires_at: new Date(t + SESSION_LIFETIME_MS).toISOString(),
        _status: status,
      });
      for (const [id, status] of [
        ["ps_open", "created"],
        ["ps_paid", "completed"],
      ] as const) {
        const { _status, ...record } = session(id, status);
        old
          .prepare("INSERT INTO payment_sessions VALUES (1, ?, 'cp_1', ?, ?, ?, ?, ?)")
          .run(id, _status, JSON.stringify(record), t, t + SESSION_LIFETIME_MS, t);
      }
      const transaction = {
        id: "txn_1",
        status: "completed",
        session_id: "ps_paid",
        counterparty_id: "cp_1",
        order_id: "ORD-9",
        amount: 12.5,
        currency: "EUR",
        created_at: new Date(t).toISOString(),
        updated_at: new Date(t).toISOString(),
      };
      old
        .prepare(
          "INSERT INTO transactions (account_id, id, session_id, status, record, created_at_ms, updated_at_ms, settles_at_ms) " +
            "VALUES (1, 'txn_1', 'ps_paid', 'completed', ?, ?, ?, ?)",
        )
        .run(JSON.stringify(transaction), t, t, t + 60_000);
      old.prepare("INSERT INTO webhooks VALUES (1, 'http://127.0.0.1:1/hooks', 'whsec_AAAA', 1, ?, ?)").run(t, t);
      const payloads: Record<string, object> = {};
      const event = (seq: number, id: string, type: string, data: object, state: string, next: number) => {
        payloads[id] = { id, type, timestamp: new Date(t).toISOString(), data };
        old
          .prepare(
            "INSERT INTO events (seq, account_id, id, type, session_id, payload, created_at_ms, state, attempts, next_attempt_at_ms) " +
              "VALUES (?, 1, ?, ?, 'ps_paid', ?, ?, ?, 0, ?)",
          )
          .run(seq, id, type, JSON.stringify(payloads[id]), t, state, next);
      };
      const sessionData = { session_id: "ps_paid", counterparty_id: "cp_1", order_id: "ORD-9" };
      event(1, "msg_1", "session-created", { ...sessionData, status: "created", amount: 12.5, currency: "EUR" }, "delivered", t);
      event(
        2,
        "msg_2",
        "transaction-created",
        { transaction_id: "txn_1", ...sessionData, status: "created", amount: 12.5, currency: "EUR" },
        "pending",
        t + 5_000,
      );
      event(
        3,
        "msg_3",
        "transaction-completed",
        { transaction_id: "txn_1", ...sessionData, status: "completed", amount: 12.5, currency: "EUR" },
        "pending",
        t,
      );
      old.prepare("INSERT INTO idempotency_keys VALUES (1, 'createPaymentSession', 'k', 'h', 201, '{}', ?)").run(t);
      old.close();

      const db = await openDatabase({ file });
      const store = new Store(db);
      const account = await store.accounts.forToken("old");
      expect(account.clockOffsetMs).toBe(offset);
      const { _status: _, payment_link: __, ...open } = session("ps_open", "created");
      expect(await store.sessions.get(1, "ps_open")).toEqual(open);
      expect(await store.sessions.get(1, "ps_paid")).toMatchObject({ status: "completed" });
      expect(await store.transactions.get(1, "txn_1")).toEqual(transaction);
      const dues = await db.all(
        "SELECT 'session' AS what, due_ms FROM payment_sessions WHERE id = 'ps_open' " +
          "UNION ALL SELECT 'transaction', due_ms FROM transactions " +
          "UNION ALL SELECT id, due_ms FROM events " +
          "UNION ALL SELECT 'key', due_ms FROM idempotency_keys",
      );
      expect(dues).toEqual([
        { what: "session", due_ms: t + SESSION_LIFETIME_MS - offset },
        { what: "transaction", due_ms: t + 60_000 - offset },
        { what: "msg_1", due_ms: null },
        { what: "msg_2", due_ms: t + 5_000 - offset },
        // Due from its time, its turn after msg_2's, its session's earlier event (the order rule, held by the claim).
        { what: "msg_3", due_ms: t - offset },
        { what: "key", due_ms: t + 24 * 60 * 60 * 1000 - offset },
      ]);
      // The pending event's payload, made again from the records, is the one it had.
      const claimed = await store.outbox.claimOne(2, { claim: "payload", untilMs: Date.now() + 60_000, dueByMs: Number.MAX_SAFE_INTEGER });
      expect(JSON.parse(payloadOf(claimed!))).toEqual(payloads["msg_2"]);
      // The contact rule now ignores the email's case.
      expect(await store.counterparties.create(1, { ...counterparty, id: "cp_2", email: "ana@example.com" } as never, t)).toEqual({
        existingId: "cp_1",
      });
      await store.close();
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});

describe("the records, as the compact store keeps them", () => {
  const setUp = async () => {
    const db = new SqliteDatabase();
    const store = new Store(db);
    const payments = new Payments(store);
    const account = await store.accounts.forToken(`records-${crypto.randomUUID()}`);
    await store.counterparties.create(
      account.id,
      {
        id: "cp_1",
        type: "INDIVIDUAL",
        payment_rail: "PAYIN",
        first_name: "Ana",
        last_name: "Li",
        email: "a@example.com",
        phone_number: "+34600000001",
        created_at: "",
      },
      accountNow(store.clock, account),
    );
    const session = (id: string, request: object, dueMs = Date.now() + SESSION_LIFETIME_MS) =>
      store.sessions.create(
        account.id,
        id,
        { counterparty_id: "cp_1", amount: 5, currency: "EUR", redirect_url: "https://shop.example.com/", ...request } as never,
        accountNow(store.clock, account),
        dueMs,
      );
    return { store, db, payments, account, session };
  };

  it("gives a transaction its session's order, and none when the session has none", async () => {
    const { store, payments, account, session } = await setUp();
    await session("ps_with", { order_id: "ORD-7" });
    await session("ps_without", {});
    const paid = async (id: string) =>
      ((await payments.attempt(account, id, { outcome: "pay" })) as { done: { transaction: { id: string } } }).done.transaction.id;
    expect(await store.transactions.get(account.id, await paid("ps_with"))).toMatchObject({
      order_id: "ORD-7",
      amount: 5,
      currency: "EUR",
      status: "completed",
    });
    expect(await store.transactions.get(account.id, await paid("ps_without"))).not.toHaveProperty("order_id");
    await store.close();
  });

  it("refuses to pay a session whose expiry has come, though no tick has expired it yet", async () => {
    const { store, payments, account, session } = await setUp();
    await session("ps_late", {});
    // Its hour passes on the account's clock, and nothing has run since.
    await store.advanceClock(account, SESSION_LIFETIME_MS);
    expect(await payments.attempt(account, "ps_late", { outcome: "pay" })).toMatchObject({
      refused: "expired",
      session: { status: "expired" },
    });
    await store.close();
  });

  it("keeps an Idempotency-Key until the real time its 24 hours end on a clock ahead of real time", async () => {
    const { store, db, account } = await setUp();
    await store.advanceClock(account, 5000);
    const now = accountNow(store.clock, account);
    await store.idempotencyKeys.keep(account.id, "op", "k", "h", { status: 201, body: "{}" }, now, account.clockOffsetMs);
    const { due_ms } = (await db.get<{ due_ms: number }>("SELECT due_ms FROM idempotency_keys"))!;
    expect(due_ms).toBe(now + 24 * 60 * 60 * 1000 - 5000);
    await store.idempotencyKeys.forgetExpired(account.id, due_ms - 1);
    expect(await db.get("SELECT COUNT(*) AS n FROM idempotency_keys")).toEqual({ n: 1 });
    await store.idempotencyKeys.forgetExpired(account.id, due_ms);
    expect(await db.get("SELECT COUNT(*) AS n FROM idempotency_keys")).toEqual({ n: 0 });
    await store.close();
  });

  it("passes on a database error that is not the contact rule's own conflict", async () => {
    const { store, db, account } = await setUp();
    db.db.exec("CREATE TRIGGER no_counterparties BEFORE INSERT ON counterparties BEGIN SELECT RAISE(ABORT, 'refused'); END");
    await expect(
      store.counterparties.create(
        account.id,
        {
          id: "cp_2",
          type: "INDIVIDUAL",
          payment_rail: "PAYIN",
          first_name: "B",
          last_name: "C",
          email: "b@example.com",
          phone_number: "+34600000002",
          created_at: "",
        },
        1,
      ),
    ).rejects.toThrow("refused");
    await store.close();
  });
});
