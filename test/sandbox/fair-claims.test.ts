// Deliveries claimed fairly, on both engines: a pass shares its batch among the accounts with
// events due, each within its delivery budget, so that one account's backlog, however long, holds
// no other account's due event back; what is over budget is never claimed, so never handed back.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Database } from "../../src/sandbox/store/database.ts";
import { openDatabase, Store } from "../../src/sandbox/store/index.ts";
import { postgresMissing, startPostgres, type TestPostgres } from "../../scripts/lib/temp-postgres.ts";
import { ManualClock, REAL_WORK } from "../support/manual-clock.ts";

let cluster: TestPostgres | undefined;
beforeAll(() => {
  if (!postgresMissing) cluster = startPostgres();
});
afterAll(() => cluster?.stop());

const engines = [
  { engine: "SQLite", skip: undefined, url: () => undefined },
  { engine: "PostgreSQL", skip: postgresMissing, url: () => cluster!.createDatabase() },
];

const BATCH = 256;

/** An account with a webhook URL and `sessions` sessions, each with one event due now. */
async function backlog(store: Store, token: string, sessions: number) {
  const account = await store.accounts.forToken(token);
  await store.webhooks.register(account.id, "http://127.0.0.1:9/", 1);
  const person = { type: "INDIVIDUAL", payment_rail: "PAYIN", first_name: "A", last_name: "B" } as const;
  await store.counterparties.create(
    account.id,
    { ...person, id: "cp_1", email: "a@example.com", phone_number: "+34600000001" } as never,
    1,
  );
  await store.transaction(async () => {
    for (let i = 0; i < sessions; i++) {
      await store.sessions.create(account.id, `ps_${i}`, { counterparty_id: "cp_1" }, 1, store.clock.now() + 3_600_000);
      await store.outbox.add(account.id, `ps_${i}`, [{ type: "session-created" }], 1);
    }
  });
  return account;
}

describe.each(engines)("claims on $engine", ({ skip, url: newUrl }) => {
  const open = async (deliveriesPerSecond?: number) => {
    const url = newUrl();
    const clock = new ManualClock();
    const db = await openDatabase(url === undefined ? {} : { postgres: url }, clock);
    return { store: new Store(db, { clock, deliveriesPerSecond }), db, clock };
  };

  const terms = (store: Store) => ({ claim: "p1", untilMs: store.clock.now() + 60_000, dueByMs: store.clock.now() });
  const claimedCount = async (db: Database, accountId: number) =>
    (await db.get<{ n: number }>("SELECT COUNT(*) AS n FROM events WHERE account_id = ? AND claim IS NOT NULL", accountId))!.n;

  it.skipIf(skip)("gives an account with one due event its turn in the first pass, beside another's backlog of 600", async () => {
    const { store, db } = await open();
    const flood = await backlog(store, "flood", 600);
    const quiet = await backlog(store, "quiet", 1);
    const claimed = await store.outbox.claimDue(terms(store), BATCH);
    expect(claimed.filter((e) => e.accountId === quiet.id)).toHaveLength(1);
    // The batch is shared: the flood gets its half, not the whole.
    expect(claimed.filter((e) => e.accountId === flood.id)).toHaveLength(BATCH / 2);
    expect(Number(await claimedCount(db, flood.id))).toBe(BATCH / 2);
    await store.close();
  });

  it.skipIf(skip)("never claims past an account's delivery budget, in a pass or by its session, until the budget refills", async () => {
    const { store, db, clock } = await open(50);
    const flood = await backlog(store, "flood", 300);
    const quiet = await backlog(store, "quiet", 1);
    const first = await store.outbox.claimDue(terms(store), BATCH);
    expect(first.filter((e) => e.accountId === flood.id)).toHaveLength(50);
    expect(first.filter((e) => e.accountId === quiet.id)).toHaveLength(1);
    // Nothing over the budget was claimed to be handed back: the other 250 are free, as they were.
    expect(Number(await claimedCount(db, flood.id))).toBe(50);
    // Spent: neither a pass nor the session's own claim takes another of the flood's this second.
    expect(await store.outbox.claimDue(terms(store), BATCH)).toEqual([]);
    expect(await store.outbox.claimNext(terms(store), { accountId: flood.id, sessionId: "ps_299" })).toBeUndefined();
    expect(Number(await claimedCount(db, flood.id))).toBe(50);
    // A fifth of a second refills ten.
    await clock.advance(200);
    expect(await store.outbox.claimDue(terms(store), BATCH)).toHaveLength(10);
    await store.close();
  });
});

describe.skipIf(postgresMissing)("a session's turn on PostgreSQL, with another process recording the outcome before it", () => {
  it("waits for that outcome and claims the event written while it was recorded, which the outcome's own claim could not see", async () => {
    const url = cluster!.createDatabase();
    const clock = new ManualClock(Date.now());
    const db = await openDatabase({ postgres: url }, clock);
    const store = new Store(db, { clock });
    const other = new (await import("pg")).default.Client({ connectionString: url });
    await other.connect();
    try {
      const account = await backlog(store, "turns", 1);
      const terms = { claim: "here", untilMs: clock.now() + 60_000, dueByMs: clock.now() };
      const first = (await store.outbox.claimDue({ ...terms, claim: "elsewhere" }, 10))[0]!;
      // The other process records the first event's outcome, and has not committed it when the session's next comes.
      await other.query("BEGIN");
      await other.query("UPDATE events SET state = 'delivered', due_ms = NULL, claim = NULL WHERE seq = $1", [first.seq]);
      await store.transaction(() => store.outbox.add(account.id, "ps_0", [{ type: "session-completed" }], clock.now()));
      const claiming = store.outbox.claimNext(terms, { accountId: account.id, sessionId: "ps_0" });
      // Once it waits for the other's lock on the first: then the other commits.
      const waiting = async () =>
        Number((await db.get<{ n: number }>("SELECT COUNT(*) AS n FROM pg_stat_activity WHERE wait_event_type = 'Lock'"))!.n);
      await expect.poll(waiting, REAL_WORK).toBe(1);
      await other.query("COMMIT");
      expect(await claiming).toMatchObject({ type: "session-completed", sessionId: "ps_0" });
    } finally {
      await other.end();
      await store.close();
    }
  });
});
