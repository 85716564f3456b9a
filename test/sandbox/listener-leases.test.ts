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

// A listener's answers (POST /_sandbox/v1/listen/deliveries/{delivery_id}) cost the database nothing unless one is the
// answer a delivery waits for: an id forged, another account's, past its wait or answered already is refused in memory,
// with no statement, no transaction and no message to the other processes. Two hubs on one database stand for two
// processes: the listener's stream held by one, the delivery made by the other.
describe("a listener's answers, taken by a process other than the one waiting", () => {
  const clock = new ManualClock();
  let store: Store;
  const counts = { statements: 0, transactions: 0, notifications: 0 };
  let holder: ListenerHub;
  let sender: ListenerHub;
  let accountId: number;
  let otherAccountId: number;
  let stream: AsyncIterator<ListenerEvent | string>;
  const http: Transport = { timeoutMs: 1000, send: async () => ({ nowhere: true }) };
  const closing = new AbortController();

  beforeAll(async () => {
    const db = await openDatabase();
    const watched = new Proxy(db, {
      get(target, name) {
        const value = Reflect.get(target, name) as unknown;
        if (typeof value !== "function") return value;
        const counter = (
          { run: "statements", get: "statements", all: "statements", transaction: "transactions", notify: "notifications" } as const
        )[name as string];
        return (...args: unknown[]) => {
          if (counter) counts[counter]++;
          return (value as (...args: unknown[]) => unknown).apply(target, args);
        };
      },
    });
    store = new Store(watched, { clock });
    [holder, sender] = [new ListenerHub(store, http), new ListenerHub(store, http)];
    await Promise.all([holder.start(), sender.start()]);
    accountId = (await store.accounts.lookUp("answers"))!.account.id;
    otherAccountId = (await store.accounts.lookUp("answers-other"))!.account.id;
    stream = (await holder.connect(accountId, null, clock.now()))[Symbol.asyncIterator]();
    expect((await stream.next()).value).toMatchObject({ event: "ready" });
  });
  afterAll(async () => {
    closing.abort();
    await Promise.all([holder.close(), sender.close()]);
    await store.close();
  });

  /** A delivery made by the sender, as the listener's stream gets it, and the sender's attempt that waits for its answer. */
  async function delivery() {
    const attempt = sender.send({ accountId, url: null, listening: true, headers: {}, body: "{}" }, closing.signal);
    const { value } = (await stream.next()) as IteratorResult<ListenerEvent>;
    expect(value).toMatchObject({ event: "delivery" });
    return { id: (value.data as { delivery_id: string }).delivery_id, attempt };
  }
  const zero = () => Object.assign(counts, { statements: 0, transactions: 0, notifications: 0 });

  it("refuses a forged id, a tampered one and another account's in memory, then takes the real one once", async () => {
    const { id, attempt } = await delivery();
    expect(id).toMatch(/^dlv_[A-Za-z0-9_-]{1,60}$/);
    zero();
    const tampered = `${id.slice(0, -1)}${id.endsWith("A") ? "B" : "A"}`;
    for (const forged of ["dlv_unknown", tampered, `dlv_${"A".repeat(36)}`])
      expect(await holder.answerFromListener(accountId, forged, { status: 204 })).toBe("unknown");
    expect(await holder.answerFromListener(otherAccountId, id, { status: 204 })).toBe("unknown");
    expect(await sender.answerFromListener(otherAccountId, id, { status: 204 })).toBe("unknown");
    expect(counts).toEqual({ statements: 0, transactions: 0, notifications: 0 });

    // The real answer, on the process that does not wait for it: one message, to the one that does.
    expect(await holder.answerFromListener(accountId, id, { status: 204 })).toBe("taken");
    expect(await attempt).toEqual({ status: 204, to: "urn:payin:listener" });
    expect(counts).toEqual({ statements: 0, transactions: 0, notifications: 1 });
    // Once taken, refused on either process, which both heard it: nothing more is sent.
    expect(await holder.answerFromListener(accountId, id, { status: 500 })).toBe("answered");
    expect(await sender.answerFromListener(accountId, id, { status: 500 })).toBe("answered");
    expect(counts).toEqual({ statements: 0, transactions: 0, notifications: 1 });
  });

  it("refuses the answer to a delivery no one waits for any more", async () => {
    const { id, attempt } = await delivery();
    await clock.advance(sender.timeoutMs + 1001);
    expect(await attempt).toMatchObject({ error: `No answer from the listener within ${sender.timeoutMs / 1000} s.` });
    zero();
    expect(await holder.answerFromListener(accountId, id, { status: 204 })).toBe("unknown");
    expect(counts).toEqual({ statements: 0, transactions: 0, notifications: 0 });
  });
});
