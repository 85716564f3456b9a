// Each account's share of a process's database connections: a burst of one account's requests,
// queued on one of its own rows, holds no more than its share of the pool and waits on itself, in
// memory; another account is served meanwhile; a lock waited for too long fails as a lock wait,
// and leaves its connection to the pool.
import pg from "pg";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { AccountShares } from "../../src/sandbox/store/account-shares.ts";
import { DatabaseUnavailableError, LockWaitError } from "../../src/sandbox/store/database.ts";
import { PostgresDatabase } from "../../src/sandbox/store/postgres.ts";
import { postgresMissing, startPostgres, type TestPostgres } from "../../scripts/lib/temp-postgres.ts";
import { ManualClock } from "../support/manual-clock.ts";

describe("an account's share of the connections", () => {
  it("lets an account hold its slots, queues its next requests in order, and fails one that waited past the wait", async () => {
    const clock = new ManualClock();
    const shares = new AccountShares(2, clock, 5000);
    const [a1, a2] = await Promise.all([shares.take(1), shares.take(1)]);
    const order: string[] = [];
    const third = shares.take(1).then((give) => (order.push("third"), give));
    const fourth = shares.take(1).then((give) => (order.push("fourth"), give));
    // Another account is not behind them.
    const other = await shares.take(2);
    other();
    a1!();
    (await third)();
    a2!();
    (await fourth)();
    expect(order).toEqual(["third", "fourth"]);
    // Given back twice counts once: the account is forgotten once it holds nothing.
    a1!();
    expect(shares.accounts).toBe(0);

    const held = await Promise.all([shares.take(1), shares.take(1)]);
    const late = shares.take(1);
    await clock.advance(5000);
    await expect(late).rejects.toThrow(DatabaseUnavailableError);
    await expect(late).rejects.toThrow("This account's requests held all 2 of its database connections for 5 s.");
    // The one that gave up is out of the queue: a slot given back is free, not handed to it.
    for (const give of held) give();
    expect(shares.accounts).toBe(0);
  });
});

describe.skipIf(postgresMissing)("the share on PostgreSQL", () => {
  let cluster: TestPostgres;
  beforeAll(() => {
    cluster = startPostgres();
  });
  afterAll(() => cluster?.stop());

  it("keeps a burst queued on one account's row to its share, serves another account meanwhile, ends the waits as lock waits", async () => {
    const url = cluster.createDatabase();
    // A lock waits 150 ms at most here (half the timeout given, under the 2 s default).
    const db = await PostgresDatabase.open(url, { poolSize: 10, timeoutMs: 300 });
    await db.run("CREATE TABLE rows_of (id INTEGER PRIMARY KEY, n INTEGER NOT NULL)");
    await db.run("INSERT INTO rows_of VALUES (1, 0), (2, 0)");
    // Another client holds account 1's row, as a long write of its own would.
    const holder = new pg.Client({ connectionString: url });
    await holder.connect();
    await holder.query("BEGIN");
    await holder.query("SELECT * FROM rows_of WHERE id = 1 FOR UPDATE");
    const write = (id: number) => db.transaction(() => db.run("UPDATE rows_of SET n = n + 1 WHERE id = ?", id));
    const burst = Array.from({ length: 20 }, () => db.onBehalfOf(1, () => write(1)).catch((error: unknown) => error));
    await new Promise((resolve) => setImmediate(resolve));
    // Two of the ten connections wait on the row; the rest of the burst waits for them, holding none.
    expect(db.connections().inUse).toBeLessThanOrEqual(2);
    await db.onBehalfOf(2, () => write(2));
    const outcomes = await Promise.all(burst);
    await holder.query("ROLLBACK");
    await holder.end();
    // Each lock waited for too long is a lock wait (the request is answered 503 with Retry-After), and no connection was lost.
    expect(outcomes.every((o) => o instanceof LockWaitError || o instanceof DatabaseUnavailableError)).toBe(true);
    expect(outcomes.some((o) => o instanceof LockWaitError)).toBe(true);
    expect(db.connections().waiting).toBe(0);
    await db.onBehalfOf(1, () => write(1));
    expect(await db.get<{ n: number }>("SELECT n FROM rows_of WHERE id = 2")).toEqual({ n: 1 });
    await db.close();
  });
});
