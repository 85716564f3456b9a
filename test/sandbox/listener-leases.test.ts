// The leases of payin-listen's listeners (decision D23), on a clock the test moves: a process
// holding 1,000 idle listeners renews all their leases with one statement a round (every 2 s),
// not one each, and pings every stream; the few leases it did not get back are handled one by
// one (one another process took over is ended, one that ran out is renewed). Counted by the
// statements the store runs, under the store (a database of the test's own).
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ListenerHub, type ListenerEvent } from "../../src/sandbox/delivery/listener-hub.ts";
import type { Transport } from "../../src/sandbox/delivery/transport.ts";
import type { Database } from "../../src/sandbox/store/database.ts";
import { openDatabase, Store } from "../../src/sandbox/store/index.ts";
import { ManualClock } from "../support/manual-clock.ts";

const LISTENERS = 1000;

/** The database, with the text of every statement run on it since the last `take()`. */
function counted(db: Database) {
  let statements: string[] = [];
  const counting = new Proxy(db, {
    get(target, name) {
      const value = Reflect.get(target, name) as unknown;
      if (typeof value !== "function") return value;
      if (name === "run" || name === "get" || name === "all")
        return (sql: string, ...parameters: unknown[]) => {
          statements.push(sql);
          return (value as (...args: unknown[]) => unknown).call(target, sql, ...parameters);
        };
      return (value as (...args: unknown[]) => unknown).bind(target);
    },
  });
  const take = () => {
    const taken = statements;
    statements = [];
    return taken;
  };
  return { db: counting, take };
}

describe("a process holding 1,000 idle listeners", () => {
  const clock = new ManualClock();
  let db: Database;
  let take: () => string[];
  let store: Store;
  let hub: ListenerHub;
  const streams: Array<{ accountId: number; events: AsyncIterator<ListenerEvent | string> }> = [];
  /** No URL is ever asked for here. */
  const http: Transport = { timeoutMs: 1000, send: async () => ({ nowhere: true }) };

  beforeAll(async () => {
    db = await openDatabase();
    ({ db, take } = counted(db));
    store = new Store(db, { clock });
    hub = new ListenerHub(store, http);
    await hub.start();
    for (let n = 0; n < LISTENERS; n++) {
      const { account } = (await store.accounts.lookUp(`lease-${n}`))!;
      const events = (await hub.connect(account.id, null, clock.now()))[Symbol.asyncIterator]();
      expect((await events.next()).value).toMatchObject({ event: "ready" });
      streams.push({ accountId: account.id, events });
    }
  });
  afterAll(async () => {
    await hub.close();
    await store.close();
  });

  it("renews their leases with one statement every 2 s: 5 in 10 s, and pings every stream", async () => {
    take();
    await clock.advance(10_000);
    const statements = take();
    expect(statements).toHaveLength(5);
    expect(new Set(statements).size).toBe(1);
    expect(statements[0]).toMatch(/^UPDATE listeners SET until_ms = \? WHERE process = \?/);
    for (const { accountId } of streams) expect(await store.listeners.active(accountId)).toBeDefined();
    // Every stream's next item is the ping, 10 s after it connected.
    for (const { events } of streams) expect((await events.next()).value).toBe(": ping\n\n");
  });

  it("handles one by one only the leases it did not get back: one taken over is ended, one that ran out renewed", async () => {
    const [takenOver, ranOut, untouched] = streams as [(typeof streams)[0], (typeof streams)[0], (typeof streams)[0]];
    await store.listeners.hold(takenOver.accountId, "another-process", "its-connection", null, clock.now() + 6000);
    // As when this process stalled past its lease: the lease ran out, and no one took the account over.
    await db.run("UPDATE listeners SET until_ms = ? WHERE account_id = ?", clock.now() - 1, ranOut.accountId);
    take();
    await clock.advance(2000);
    const statements = take();
    // The round's one statement, then the two it did not renew: each tried again, the one renewed releasing what waited.
    expect(statements.filter((sql) => sql.startsWith("UPDATE listeners SET until_ms = ? WHERE process"))).toHaveLength(1);
    expect(statements.filter((sql) => sql.startsWith("UPDATE listeners SET until_ms = ? WHERE account_id"))).toHaveLength(2);
    expect(statements.length).toBeLessThanOrEqual(10);
    expect(await takenOver.events.next()).toEqual({
      value: { event: "end", data: { reason: "Another listener connected to this account, or the account was reset." } },
      done: false,
    });
    expect(await store.listeners.active(takenOver.accountId)).toMatchObject({ process: "another-process" });
    expect(await store.listeners.held(ranOut.accountId)).toMatchObject({ live: true });
    expect(await store.listeners.held(untouched.accountId)).toMatchObject({ live: true });
  });
});
