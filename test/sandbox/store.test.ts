// The store's own guarantees, below HTTP.
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { DatabaseSync } from "node:sqlite";
import { describe, expect, it } from "vitest";
import { inTransaction, openDatabase } from "../../src/sandbox/store/database.ts";
import { IDEMPOTENCY_KEY_LIFETIME_MS } from "../../src/lib/contract-facts.ts";
import { Store } from "../../src/sandbox/store/index.ts";

const count = (store: Store, table: string) => (store.db.prepare(`SELECT COUNT(*) AS n FROM ${table}`).get() as { n: number }).n;

describe("the sandbox's store", () => {
  it("brings a new database to the latest schema, and reopens it without migrating twice", () => {
    const db = openDatabase();
    const { user_version } = db.prepare("PRAGMA user_version").get() as { user_version: number };
    expect(user_version).toBeGreaterThan(0);
    expect(
      db
        .prepare("SELECT name FROM sqlite_master WHERE type = 'table' ORDER BY name")
        .all()
        .map((r) => r.name),
    ).toEqual(expect.arrayContaining(["accounts", "counterparties", "idempotency_keys", "payment_sessions", "transactions", "webhooks"]));
    db.close();
  });

  it("rolls a transaction back whole, nested work included", () => {
    const store = new Store();
    const account = store.accounts.forToken("t");
    expect(() =>
      store.transaction(() => {
        store.webhooks.register(account.id, "https://a.example.com/", 1);
        inTransaction(store.db, () => store.webhooks.register(account.id, "https://b.example.com/", 2));
        throw new Error("boom");
      }),
    ).toThrow("boom");
    expect(count(store, "webhooks")).toBe(0);
    store.close();
  });

  it("resets one account only", () => {
    const store = new Store();
    const [a, b] = [store.accounts.forToken("a"), store.accounts.forToken("b")];
    for (const account of [a, b]) store.webhooks.register(account.id, "https://x.example.com/", 1);
    store.accounts.setClockOffset(a, 5000);
    store.reset(a);
    expect(store.webhooks.get(a.id)).toBeUndefined();
    expect(store.webhooks.get(b.id)).toBeDefined();
    expect(a.clockOffsetMs).toBe(0);
    store.close();
  });

  it("gives each token its own account, the same one every time", () => {
    const store = new Store();
    expect(store.accounts.forToken("x").id).toBe(store.accounts.forToken("x").id);
    expect(store.accounts.forToken("x").id).not.toBe(store.accounts.forToken("y").id);
    // One object per account, however it is found, so a clock moved through one is moved for all.
    const x = store.accounts.forToken("x");
    expect(store.accounts.byId(x.id)).toBe(x);
    expect(store.accounts.byId(x.id)).toBe(store.accounts.byId(x.id));
    // Found first by id (the payment page), then by its token (an API call): still one object.
    const fresh = new Store();
    const { id } = fresh.db.prepare("INSERT INTO accounts (token, created_at_ms) VALUES ('z', 0) RETURNING id").get() as { id: number };
    const byId = fresh.accounts.byId(id);
    expect(fresh.accounts.forToken("z")).toBe(byId);
    fresh.close();
    store.close();
  });

  it("keeps a file in WAL mode with foreign keys on, and refuses one a newer sandbox made", () => {
    const dir = mkdtempSync(path.join(tmpdir(), "payin-store-"));
    const file = path.join(dir, "sandbox.db");
    try {
      const db = openDatabase(file);
      const pragma = (name: string) => Object.values(db.prepare(`PRAGMA ${name}`).get()!)[0];
      expect([pragma("journal_mode"), pragma("synchronous"), pragma("busy_timeout"), pragma("foreign_keys")]).toEqual(["wal", 1, 5000, 1]);
      const version = pragma("user_version") as number;
      db.close();
      const raw = new DatabaseSync(file);
      raw.exec(`PRAGMA user_version = ${version + 1}`);
      raw.close();
      expect(() => openDatabase(file)).toThrow(
        `The database was made by a newer sandbox (schema ${version + 1}; this one knows ${version}).`,
      );
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
    const memory = openDatabase();
    expect(Object.values(memory.prepare("PRAGMA foreign_keys").get()!)[0]).toBe(1);
    memory.close();
  });

  it("keeps an Idempotency-Key for 24 hours of the account's clock, to the millisecond, then forgets it", () => {
    const store = new Store();
    const account = store.accounts.forToken("keys");
    const keys = store.idempotencyKeys;
    const t0 = 1_000_000;
    expect(keys.claim(account.id, "op", "k", "hash-a", t0, 0)).toEqual({ fresh: true });
    keys.record(account.id, "op", "k", { status: 201, body: "{}" });
    expect(keys.claim(account.id, "op", "k", "hash-a", t0 + IDEMPOTENCY_KEY_LIFETIME_MS - 1, 0)).toEqual({
      fresh: false,
      sameBody: true,
      answer: { status: 201, body: "{}" },
    });
    expect(keys.claim(account.id, "op", "k", "hash-b", t0 + 1, 0)).toMatchObject({ fresh: false, sameBody: false });
    // Not yet swept, but past its lifetime: a new first use, with the new body.
    expect(keys.claim(account.id, "op", "k", "hash-b", t0 + IDEMPOTENCY_KEY_LIFETIME_MS, 0)).toEqual({ fresh: true });
    expect(keys.claim(account.id, "op", "k", "hash-b", t0 + IDEMPOTENCY_KEY_LIFETIME_MS + 1, 0)).toMatchObject({
      fresh: false,
      sameBody: true,
    });

    // The sweep removes the keys past their lifetime, of one account or of all.
    keys.claim(account.id, "op", "old", "h", t0, 0);
    keys.forgetExpired(account.id, t0 + IDEMPOTENCY_KEY_LIFETIME_MS - 1);
    expect(count(store, "idempotency_keys")).toBe(2);
    keys.forgetExpired(account.id, t0 + IDEMPOTENCY_KEY_LIFETIME_MS);
    expect(count(store, "idempotency_keys")).toBe(1);
    keys.forgetExpired(null, t0 + 2 * IDEMPOTENCY_KEY_LIFETIME_MS - 1);
    expect(count(store, "idempotency_keys")).toBe(1);
    keys.forgetExpired(null, t0 + 2 * IDEMPOTENCY_KEY_LIFETIME_MS);
    expect(count(store, "idempotency_keys")).toBe(0);
    store.close();
  });

  it("passes on a database error that is not the key's own conflict", () => {
    const store = new Store();
    const account = store.accounts.forToken("keys");
    store.db.exec("CREATE TRIGGER no_keys BEFORE INSERT ON idempotency_keys BEGIN SELECT RAISE(ABORT, 'refused'); END");
    expect(() => store.idempotencyKeys.claim(account.id, "op", "k", "h", 1, 0)).toThrow("refused");
    store.close();
  });

  it("closes its database", () => {
    const store = new Store();
    store.close();
    expect(() => store.db.prepare("SELECT 1")).toThrow(/not open/);
  });
});
