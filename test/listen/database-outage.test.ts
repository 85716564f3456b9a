// A listener through a database outage longer than its lease (decision D23), on PostgreSQL with
// two in-process sandboxes on one clock the test moves: the listener connected to the first, the
// events made through the second, the account's URL registered too. While the database is away
// no lease is renewed; once it is back, no process takes the lease that ran out for a listener
// gone: what comes due meanwhile waits for the holder's renewal, and reaches the listener, none of
// it the URL. A listener started meanwhile connects once the database is back; one whose row was
// dropped while its process alone was cut off connects again. A holder that is really dead (its row
// left behind) loses the account's events to the URL once it has renewed nothing for 30 s while the
// database answered, not at once after an outage.
import pg from "pg";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { listen, type Listener } from "../../src/listen/index.ts";
import { startSandbox, type RunningSandbox } from "../../src/sandbox/index.ts";
import { Store } from "../../src/sandbox/store/index.ts";
import { postgresMissing, startPostgres, type TestPostgres } from "../../scripts/lib/temp-postgres.ts";
import { ManualClock } from "../support/manual-clock.ts";
import { startReceiver } from "../support/receiver.ts";
import { accountOn } from "../support/sandbox-account.ts";

/** What a process's connection for the listeners' channel last ran (the accounts' channel has its own). */
const LISTENING = 'LISTEN "payin_listen"';

describe.skipIf(postgresMissing)("a sandbox of two processes whose database goes away for longer than a listener's lease", () => {
  let cluster: TestPostgres;
  let database: string;
  let one: RunningSandbox;
  let two: RunningSandbox;
  /** A store of the test's own on the database, to look under the sandbox. */
  let store: Store;
  const clock = new ManualClock();
  const started = clock.now();
  beforeAll(async () => {
    cluster = startPostgres();
    database = cluster.createDatabase();
    // Settlements and retries far off, or at once: only the events the tests make come due.
    const options = { port: 0, database, clock, retryScheduleSeconds: [1], settlementDelaySeconds: 3600 };
    one = await startSandbox(options);
    // A second later on the clock: the second process's rounds (every 2 s) fall between the first's.
    await clock.advance(1000);
    two = await startSandbox(options);
    store = await Store.open({ postgres: database }, { clock });
  });
  afterAll(async () => {
    await Promise.all([one?.close(), two?.close(), store?.close()]);
    cluster?.stop();
  });

  /** The database away while the clock moves `ms`: every process's timers run, and fail. */
  async function outage(ms: number) {
    cluster.pause();
    try {
      await clock.advance(ms);
    } finally {
      cluster.resume();
    }
  }

  /** Resolves once both processes listen on the database's channel again (a delivery made by one reaches the other). */
  async function channelBack() {
    const client = new pg.Client({ connectionString: cluster.adminUrl });
    await client.connect();
    try {
      const name = new URL(database).pathname.slice(1);
      const listening = async () =>
        Number(
          (await client.query("SELECT COUNT(*) AS n FROM pg_stat_activity WHERE datname = $1 AND query = $2", [name, LISTENING])).rows[0].n,
        );
      await expect.poll(listening, { timeout: 15_000 }).toBe(2);
    } finally {
      await client.end();
    }
  }

  /** The state of each of the account's events, by type and session, oldest first. */
  async function states(token: string) {
    const { account } = (await store.accounts.lookUp(token))!;
    return (await store.eventLog.list(account.id, {}, 50)).reverse().map((e) => `${e.sessionId.slice(-4)} ${e.type} ${e.state}`);
  }

  it("keeps the deliveries of a listener still connected for it, none for the URL, each session in order", async () => {
    const token = `outage-${crypto.randomUUID()}`;
    const viaTwo = accountOn(two.url, token);
    const registered = await startReceiver();
    await viaTwo.register(registered.url);
    const local = await startReceiver();
    const lines: string[] = [];
    const listener = await listen({ baseUrl: one.url, token, forwardTo: local.url, log: (line) => lines.push(line) });
    let stopped = false;
    void listener.done.then(() => (stopped = true));
    try {
      // Before: a session's events reach the listener; its transaction-created fails once, and its retry comes due
      // while the database is away (a pending event whose lease ran out), the events after it held behind it.
      local.answer = ({ type, n }) => (type === "transaction-created" && n === 2 ? 500 : 204);
      const paid = await viaTwo.session();
      await viaTwo.simulate(paid.id, { outcome: "pay" });
      await expect.poll(async () => (await viaTwo.deliveries()).map((d) => d.response_status)).toEqual([204, 500]);

      // 59 s away: the holder's last renewal was due to run out long before. The outage ends a second before the
      // second process's round that looks for dead holders, and two before the holder's own.
      expect((clock.now() - started) % 2000).toBe(1000);
      await outage(59_000);
      await channelBack();
      // Back: an event made now finds the lease run out. It waits, as does the retry, for the holder to renew.
      const meanwhile = await viaTwo.session();
      await clock.advance(1000);
      const [p, m] = [paid.id.slice(-4), meanwhile.id.slice(-4)];
      await expect
        .poll(() => states(token))
        .toEqual([
          `${p} session-created delivered`,
          `${p} transaction-created waiting`,
          `${p} transaction-completed pending`,
          `${p} session-completed pending`,
          `${m} session-created waiting`,
        ]);
      expect(registered.attempts).toEqual([]);

      // The holder's round: the lease renewed, and what waited goes to the listener, each session in order.
      await clock.advance(1000);
      const delivered = await local.delivered(5);
      const ofSession = (id: string) => delivered.filter((d) => JSON.parse(d.body).data.session_id === id).map((d) => d.type);
      expect(ofSession(paid.id)).toEqual(["session-created", "transaction-created", "transaction-completed", "session-completed"]);
      expect(ofSession(meanwhile.id)).toEqual(["session-created"]);
      // Each answer recorded: six attempts, every one to the listener's endpoint.
      await expect.poll(async () => (await viaTwo.deliveries()).map((d) => d.url)).toEqual(Array(6).fill(local.url));
      expect(registered.attempts).toEqual([]);
      // Connected all along: no line but its deliveries' after the first.
      expect(lines.slice(1).filter((line) => !/ {2}msg_/.test(line))).toEqual([]);
      expect(stopped).toBe(false);
    } finally {
      await listener.close();
      await Promise.all([local.close(), registered.close()]);
    }
  });

  it("starts a listener while the database is away: each 503 said and tried again, connected once it is back", async () => {
    const token = `early-${crypto.randomUUID()}`;
    const local = await startReceiver();
    const lines: string[] = [];
    let connecting: Promise<Listener> | undefined;
    cluster.pause();
    try {
      connecting = listen({ baseUrl: one.url, token, forwardTo: local.url, log: (line) => lines.push(line) });
      await expect.poll(() => lines.length).toBeGreaterThan(0);
    } finally {
      cluster.resume();
    }
    const listener = await connecting;
    try {
      const unavailable = `${one.url} answered 503 to the listener: The sandbox's database is unavailable. Retry shortly`;
      // Each wait the one its Retry-After asks for.
      expect(lines.slice(0, -1)).toEqual(lines.slice(0, -1).map(() => `${unavailable}; connecting again in 1 s.`));
      expect(lines.length).toBeGreaterThan(1);
      expect(lines.at(-1)).toMatch(/^Ready! Your webhook signing secret is whsec_/);
      await accountOn(two.url, token).session();
      await local.delivered(1);
    } finally {
      await listener.close();
      await local.close();
    }
  });

  it("sends a listener whose row was dropped while its process was cut off to connect again, and keeps its deliveries", async () => {
    const token = `dropped-${crypto.randomUUID()}`;
    const local = await startReceiver();
    const lines: string[] = [];
    const listener = await listen({ baseUrl: one.url, token, forwardTo: local.url, log: (line) => lines.push(line) });
    try {
      await outage(10_000);
      await channelBack();
      // What a process that kept its database does to a holder silent for 30 s: its row dropped.
      const { account } = (await store.accounts.lookUp(token))!;
      await store.listeners.drop(account.id, (await store.listeners.held(account.id))!.connection);
      await clock.advance(2000);
      await expect.poll(() => lines).toContain(`Connected again to ${one.url}.`);
      expect(lines.slice(1)).toEqual([
        "This sandbox process was away from its database, and its hold on the listener was dropped; connecting again in 0.5 s.",
        `Connected again to ${one.url}.`,
      ]);
      await accountOn(two.url, token).session();
      await local.delivered(1);
    } finally {
      await listener.close();
      await local.close();
    }
  });

  it("sends to the URL what waited for a dead holder once it renewed nothing for 30 s with the database there, not before", async () => {
    const token = `dead-${crypto.randomUUID()}`;
    const viaOne = accountOn(one.url, token);
    const registered = await startReceiver();
    try {
      await viaOne.register(registered.url);
      // A holder that died without a word, its lease run out: the row it left behind.
      const { account } = (await store.accounts.lookUp(token))!;
      await store.listeners.hold(account.id, "a-process-that-died", "its-connection", null, clock.now());
      await viaOne.session();
      expect(await states(token)).toEqual([expect.stringMatching(/ session-created waiting$/)]);
      // A minute away: the holder's row is long past the bound, but no process has had its database for 30 s.
      await outage(60_000);
      await clock.advance(28_000);
      expect(await store.listeners.held(account.id)).toMatchObject({ process: "a-process-that-died", live: false });
      expect(registered.attempts).toEqual([]);
      // Thirty seconds with the database, and a round that looks (every 10 s): the row dropped, the event to the URL.
      await clock.advance(14_000);
      expect(await store.listeners.held(account.id)).toBeUndefined();
      const [delivered] = await registered.delivered(1);
      expect(delivered!.type).toBe("session-created");
    } finally {
      await registered.close();
    }
  });
});
