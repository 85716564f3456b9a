// The store's own guarantees, below HTTP.
import { describe, expect, it } from "vitest";
import { inTransaction, openDatabase } from "../../src/sandbox/store/database.ts";
import { Store } from "../../src/sandbox/store/index.ts";

const count = (store: Store, table: string) => (store.db.prepare(`SELECT COUNT(*) AS n FROM ${table}`).get() as { n: number }).n;

describe("the sandbox's store", () => {
  it("brings a new database to the latest schema, and reopens it without migrating twice", () => {
    const db = openDatabase();
    const { user_version } = db.prepare("PRAGMA user_version").get() as { user_version: number };
    expect(user_version).toBeGreaterThan(0);
    expect(db.prepare("SELECT name FROM sqlite_master WHERE type = 'table' ORDER BY name").all().map((r) => r.name)).toEqual(
      expect.arrayContaining(["accounts", "counterparties", "idempotency_keys", "payment_sessions", "transactions", "webhooks"]),
    );
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
    store.close();
  });
});
