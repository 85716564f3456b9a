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
import { DueTimes } from "../../src/sandbox/store/due.ts";
import { Outbox } from "../../src/sandbox/store/outbox.ts";
import { migrations } from "../../src/sandbox/store/migrations.ts";
import { IdempotencyKeys } from "../../src/sandbox/store/idempotency.ts";
import { Store } from "../../src/sandbox/store/index.ts";
import { SESSION_LIFETIME_MS } from "../../src/lib/contract-facts.ts";
import { Sessions } from "../../src/sandbox/store/sessions.ts";
import { Transactions } from "../../src/sandbox/store/transactions.ts";

/** Every SQL statement the store's classes prepare, as they prepare it. */
function statementsOf(db: DatabaseSync): string[] {
  const seen: string[] = [];
  const spied = new Proxy(db, {
    get: (target, name) =>
      name === "prepare" ? (sql: string) => (seen.push(sql), target.prepare(sql)) : Reflect.get(target, name).bind(target),
  });
  for (const Table of [Sessions, Transactions, Outbox, IdempotencyKeys, DueTimes]) new Table(spied);
  return seen;
}

/** SQLite's plan for `sql`, one step a line. */
const planOf = (db: DatabaseSync, sql: string) => {
  const statement = db.prepare(`EXPLAIN QUERY PLAN ${sql}`);
  // Every parameter bound to 1: the plan does not depend on the values.
  const count = new Set(sql.match(/\?\d*/g) ?? []).size;
  return (statement.all(...Array(count).fill(1)) as Array<{ detail: string }>).map((r) => r.detail);
};

describe("what is due", () => {
  it("is found through an index of due rows by every statement that looks for it, never by scanning a table", () => {
    const store = new Store();
    const dueStatements = statementsOf(store.db).filter((sql) => /due_ms (<=|IS NOT NULL)/.test(sql));
    expect(dueStatements.length).toBeGreaterThanOrEqual(10);
    for (const sql of dueStatements) {
      const plan = planOf(store.db, sql);
      // The due indexes hold only rows with work due; the pending one, an account's undelivered events; the session one,
      // a session's events (a handful, whatever the account holds).
      expect(plan.join(" / "), sql).toMatch(
        /SEARCH \w+ USING (COVERING )?INDEX (\w+_due(_by_account)?|events_pending_by_session|events_by_session) \(/,
      );
      expect(
        plan.filter((step) => /^SCAN \w+$/.test(step)),
        sql,
      ).toEqual([]);
    }
    store.close();
  });

  it("is, with one account a day ahead, only that account's due rows: the other accounts' open sessions stay out of the range", () => {
    const store = new Store();
    const payments = new Payments(store);
    const accounts = Array.from({ length: 20 }, (_, a) => store.accounts.forToken(`scale-${a}`));
    for (const [a, account] of accounts.entries())
      store.transaction(() => {
        const now = accountNow(account);
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
        store.counterparties.create(account.id, counterparty, now);
        for (let s = 0; s < 50; s++)
          store.sessions.create(account.id, `ps_${a}_${s}`, { counterparty_id: counterparty.id }, now, Date.now() + SESSION_LIFETIME_MS);
      });
    const due = store.db.prepare("SELECT account_id, COUNT(*) AS n FROM payment_sessions WHERE due_ms <= ? GROUP BY account_id");
    expect(due.all(Date.now())).toEqual([]);

    const [ahead] = accounts;
    store.advanceClock(ahead!, 24 * 60 * 60 * 1000);
    expect(due.all(Date.now())).toEqual([{ account_id: ahead!.id, n: 50 }]);

    runDueWork({ store, payments }, null);
    const byStatus = store.db
      .prepare("SELECT account_id = ? AS ahead, status, COUNT(*) AS n FROM payment_sessions GROUP BY 1, 2 ORDER BY 1, 2")
      .all(ahead!.id);
    expect(byStatus).toEqual([
      { ahead: 0, status: "created", n: 19 * 50 },
      { ahead: 1, status: "expired", n: 50 },
    ]);
    // Once it is done, a tick finds an empty range.
    expect(due.all(Date.now())).toEqual([]);
    store.close();
  });
});

describe("a database of the schema 2.0.0 shipped with", () => {
  it("is brought over with its records, clocks, keys and pending deliveries as they were", () => {
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

      const store = new Store(file);
      const account = store.accounts.forToken("old");
      expect(account.clockOffsetMs).toBe(offset);
      const { _status: _, payment_link: __, ...open } = session("ps_open", "created");
      expect(store.sessions.get(1, "ps_open")).toEqual(open);
      expect(store.sessions.get(1, "ps_paid")).toMatchObject({ status: "completed" });
      expect(store.transactions.get(1, "txn_1")).toEqual(transaction);
      const dues = store.db
        .prepare(
          "SELECT 'session' AS what, due_ms FROM payment_sessions WHERE id = 'ps_open' " +
            "UNION ALL SELECT 'transaction', due_ms FROM transactions " +
            "UNION ALL SELECT id, due_ms FROM events " +
            "UNION ALL SELECT 'key', due_ms FROM idempotency_keys",
        )
        .all();
      expect(dues).toEqual([
        { what: "session", due_ms: t + SESSION_LIFETIME_MS - offset },
        { what: "transaction", due_ms: t + 60_000 - offset },
        { what: "msg_1", due_ms: null },
        { what: "msg_2", due_ms: t + 5_000 - offset },
        // Held behind msg_2, its session's earlier event, by the order rule.
        { what: "msg_3", due_ms: null },
        { what: "key", due_ms: t + 24 * 60 * 60 * 1000 - offset },
      ]);
      // The pending event's payload, made again from the records, is the one it had.
      expect(JSON.parse(payloadOf(store.outbox.load(2)!))).toEqual(payloads["msg_2"]);
      // The contact rule now ignores the email's case.
      expect(store.counterparties.create(1, { ...counterparty, id: "cp_2", email: "ana@example.com" } as never, t)).toEqual({
        existingId: "cp_1",
      });
      store.close();
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});

describe("the records, as the compact store keeps them", () => {
  const setUp = () => {
    const store = new Store();
    const payments = new Payments(store);
    const account = store.accounts.forToken(`records-${crypto.randomUUID()}`);
    store.counterparties.create(
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
      accountNow(account),
    );
    const session = (id: string, request: object, dueMs = Date.now() + SESSION_LIFETIME_MS) =>
      store.sessions.create(
        account.id,
        id,
        { counterparty_id: "cp_1", amount: 5, currency: "EUR", redirect_url: "https://shop.example.com/", ...request } as never,
        accountNow(account),
        dueMs,
      );
    return { store, payments, account, session };
  };

  it("gives a transaction its session's order, and none when the session has none", () => {
    const { store, payments, account, session } = setUp();
    session("ps_with", { order_id: "ORD-7" });
    session("ps_without", {});
    const paid = (id: string) =>
      (payments.attempt(account, id, { outcome: "pay" }) as { done: { transaction: { id: string } } }).done.transaction.id;
    expect(store.transactions.get(account.id, paid("ps_with"))).toMatchObject({
      order_id: "ORD-7",
      amount: 5,
      currency: "EUR",
      status: "completed",
    });
    expect(store.transactions.get(account.id, paid("ps_without"))).not.toHaveProperty("order_id");
    store.close();
  });

  it("refuses to pay a session whose expiry has come, though no tick has expired it yet", () => {
    const { store, payments, account, session } = setUp();
    session("ps_late", {}, Date.now() - 1);
    expect(payments.attempt(account, "ps_late", { outcome: "pay" })).toMatchObject({ refused: "expired", session: { status: "expired" } });
    store.close();
  });

  it("keeps an Idempotency-Key until the real time its 24 hours end on a clock ahead of real time", () => {
    const { store, account } = setUp();
    store.advanceClock(account, 5000);
    const now = accountNow(account);
    store.idempotencyKeys.claim(account.id, "op", "k", "h", now, account.clockOffsetMs);
    const { due_ms } = store.db.prepare("SELECT due_ms FROM idempotency_keys").get() as { due_ms: number };
    expect(due_ms).toBe(now + 24 * 60 * 60 * 1000 - 5000);
    store.idempotencyKeys.forgetExpired(account.id, due_ms - 1);
    expect(store.db.prepare("SELECT COUNT(*) AS n FROM idempotency_keys").get()).toEqual({ n: 1 });
    store.idempotencyKeys.forgetExpired(account.id, due_ms);
    expect(store.db.prepare("SELECT COUNT(*) AS n FROM idempotency_keys").get()).toEqual({ n: 0 });
    store.close();
  });

  it("passes on a database error that is not the contact rule's own conflict", () => {
    const { store, account } = setUp();
    store.db.exec("CREATE TRIGGER no_counterparties BEFORE INSERT ON counterparties BEGIN SELECT RAISE(ABORT, 'refused'); END");
    expect(() =>
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
    ).toThrow("refused");
    store.close();
  });
});
