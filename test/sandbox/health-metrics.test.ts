// What an operator of a shared sandbox watches: GET /_sandbox/health for the load
// balancer, 503 while the database is away and from the moment the process begins to stop; and
// GET /_sandbox/metrics in Prometheus's text format, counting requests and delivery attempts.
// Both take no token, so anyone may call them as often as they like: each asks the database at
// most once a second, however many calls come, and metrics still answer while it is away.
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from "vitest";
import { startSandbox, type RunningSandbox } from "../../src/sandbox/index.ts";
import { SqliteDatabase } from "../../src/sandbox/store/sqlite.ts";
import { ManualClock } from "../support/manual-clock.ts";
import { postgresMissing, startPostgres, type TestPostgres } from "../../scripts/lib/temp-postgres.ts";
import { accountOn } from "../support/sandbox-account.ts";
import { startReceiver } from "../support/receiver.ts";
import { Store } from "../../src/sandbox/store/index.ts";

/** The sample's value in a scrape, or undefined when the scrape has no such line. */
const sample = (scrape: string, line: string) => {
  const found = scrape.split("\n").find((l) => l.startsWith(`${line} `));
  return found === undefined ? undefined : Number(found.slice(line.length + 1));
};
const scrape = async (url: string) => {
  const res = await fetch(`${url}/_sandbox/metrics`);
  expect([res.status, res.headers.get("content-type")]).toEqual([200, "text/plain; version=0.0.4; charset=utf-8"]);
  return res.text();
};

describe("GET /_sandbox/health and /_sandbox/metrics", () => {
  let sandbox: RunningSandbox;
  // A scrape is made anew at most once a second of this clock, which the test moves.
  const clock = new ManualClock(Date.now());
  beforeAll(async () => {
    sandbox = await startSandbox({ port: 0, retryScheduleSeconds: [], clock });
  });
  afterAll(() => sandbox.close());

  it("answers health 200 without a token, saying what keeps the state", async () => {
    const res = await fetch(`${sandbox.url}/_sandbox/health`);
    expect([res.status, await res.json()]).toEqual([200, { status: "serving", database: "sqlite" }]);
  });

  it("counts requests by operation and status, attempts by outcome, and reads the active accounts", async () => {
    const account = accountOn(sandbox.url);
    const before = await scrape(sandbox.url);
    const count = (scrape: string, line: string) => sample(scrape, line) ?? 0;
    const receiver = await startReceiver();
    // No retry: transaction-created fails for good at its one attempt, and its session's later events go after it.
    receiver.answer = ({ type }) => (type === "transaction-created" ? 500 : 204);
    await account.register(receiver.url);
    const session = await account.session();
    await account.simulate(session.id, { outcome: "pay" });
    await account.transaction("txn_0mwxym6ierYWMFgpTgqZxwsH");
    await expect.poll(() => receiver.attempts.length).toBe(4);
    // A scrape's text, and the gauges read from the database, are at most a second old: a scrape made after the requests
    // counts them.
    let after = "";
    const grew = (line: string) => count(after, line) - count(before, line);
    await expect
      .poll(
        async () => {
          await clock.advance(1000);
          after = await scrape(sandbox.url);
          return {
            created: grew('payin_sandbox_http_requests_total{operation="createPaymentSession",status="201"}'),
            unknown: grew('payin_sandbox_http_requests_total{operation="getTransaction",status="404"}'),
            timed: grew('payin_sandbox_http_request_duration_seconds_count{operation="createPaymentSession"}'),
            acknowledged: grew('payin_sandbox_delivery_attempts_total{outcome="acknowledged"}'),
            refused: grew('payin_sandbox_delivery_attempts_total{outcome="refused"}'),
          };
        },
        { timeout: 5000 },
      )
      .toEqual({ created: 1, unknown: 1, timed: 1, acknowledged: 3, refused: 1 });
    expect(sample(after, "payin_sandbox_accounts_active")).toBeGreaterThanOrEqual(1);
    expect(sample(after, 'payin_sandbox_database_connections{state="waiting"}')).toBe(0);
    expect(after).toMatch(/^process_cpu_seconds_total /m);
    await receiver.close();
  });

  it("answers health 503 from the moment the process begins to stop, while it still serves for its drain", async () => {
    // The drain's second is on the sandbox's clock, which the test moves once it has seen the process serve through it.
    const clock = new ManualClock();
    const draining = await startSandbox({ port: 0, drainSeconds: 1, clock });
    const closed = draining.close();
    const health = await fetch(`${draining.url}/_sandbox/health`);
    expect([health.status, (await health.json()).detail]).toEqual([503, "This sandbox process is stopping: send requests to another."]);
    expect((await accountOn(draining.url).call("GET", "/webhooks")).status).toBe(404);
    await clock.advance(1000);
    await closed;
  });
});

describe.skipIf(postgresMissing)("on PostgreSQL", () => {
  let cluster: TestPostgres;
  let sandbox: RunningSandbox;
  const clock = new ManualClock(Date.now());
  beforeAll(async () => {
    cluster = startPostgres();
    sandbox = await startSandbox({ port: 0, database: cluster.createDatabase(), retryScheduleSeconds: [3600], clock });
  });
  afterAll(async () => {
    await sandbox?.close();
    cluster?.stop();
  });

  it("answers metrics while the database is away, its gauges at their last values and the database said down", async () => {
    const before = await scrape(sandbox.url);
    expect(sample(before, "payin_sandbox_database_up")).toBe(1);
    cluster.pause();
    try {
      // The gauges are read again once a second has passed on the sandbox's clock.
      await clock.advance(1000);
      const away = await scrape(sandbox.url);
      expect(sample(away, "payin_sandbox_database_up")).toBe(0);
      for (const gauge of ["payin_sandbox_outbox_due_events", "payin_sandbox_accounts_active"])
        expect(sample(away, gauge)).toBe(sample(before, gauge));
    } finally {
      cluster.resume();
    }
    // Back once the pool has connected again: each look a second later on the sandbox's clock.
    await expect.poll(async () => (await clock.advance(1000), sample(await scrape(sandbox.url), "payin_sandbox_database_up"))).toBe(1);
  });

  it("answers health 503 naming the database while it is away, never the driver's words, and 200 once it is back", async () => {
    cluster.pause();
    try {
      // The database is asked at most once a second: it is seen gone within that.
      await clock.advance(1000);
      const res = await fetch(`${sandbox.url}/_sandbox/health`);
      expect([res.status, (await res.json()).detail]).toEqual([503, "This sandbox process cannot reach its database."]);
    } finally {
      cluster.resume();
    }
    await expect.poll(async () => (await clock.advance(1000), (await fetch(`${sandbox.url}/_sandbox/health`)).status)).toBe(200);
  });
});

describe("a burst of health checks and scrapes, on a clock that stands still", () => {
  let sandbox: RunningSandbox;
  const clock = new ManualClock();
  beforeAll(async () => {
    sandbox = await startSandbox({ port: 0, clock });
  });
  afterAll(() => sandbox.close());
  afterEach(() => vi.restoreAllMocks());

  it("asks the database at most once a second: 500 health checks and 200 scrapes cost a few statements", async () => {
    const spies = (["run", "get", "all"] as const).map((name) => vi.spyOn(SqliteDatabase.prototype, name));
    const statements = () => spies.flatMap((spy) => spy.mock.calls.map(([sql]) => sql));
    /** The readings of the database for health and metrics: a ping, or the gauges' statement, which stands for one. */
    const readings = () =>
      statements().filter((sql) => sql === "SELECT 1" || sql.includes("FROM accounts WHERE last_request_ms >= ?")).length;
    const [health, metrics] = await Promise.all([
      Promise.all(Array.from({ length: 500 }, () => fetch(`${sandbox.url}/_sandbox/health`).then((res) => res.status))),
      Promise.all(Array.from({ length: 200 }, () => fetch(`${sandbox.url}/_sandbox/metrics`).then((res) => res.status))),
    ]);
    expect([new Set(health), new Set(metrics)]).toEqual([new Set([200]), new Set([200])]);
    // One reading for both routes, and at most the dispatcher's first look for what is due, which starts with the sandbox.
    expect(readings()).toBe(1);
    expect(statements().length).toBeLessThanOrEqual(2);
    // A second later, they read it once more.
    await clock.advance(1000);
    await Promise.all(Array.from({ length: 20 }, () => fetch(`${sandbox.url}/_sandbox/health`)));
    await Promise.all(Array.from({ length: 20 }, () => scrape(sandbox.url)));
    expect(readings()).toBe(2);
  });
});

describe("the store's gauges", () => {
  it("count the events due now and how long the oldest has waited, and the accounts asked for since a time", async () => {
    const store = await Store.open();
    const account = await store.accounts.forToken("gauges");
    await store.webhooks.register(account.id, "http://127.0.0.1:9/", 1);
    const person = { type: "INDIVIDUAL", payment_rail: "PAYIN", first_name: "A", last_name: "B" } as const;
    await store.counterparties.create(
      account.id,
      { ...person, id: "cp_1", email: "a@example.com", phone_number: "+34600000001" } as never,
      1,
    );
    const empty = await store.gauges(0);
    await store.transaction(async () => {
      await store.sessions.create(account.id, "ps_1", { counterparty_id: "cp_1" }, 1, Date.now() + 3_600_000);
      await store.outbox.add(account.id, "ps_1", [{ type: "session-created" }], 1);
    });
    await new Promise((resolve) => setTimeout(resolve, 50));
    const due = await store.gauges(Date.now() + 1000);
    expect([empty.dueEvents, empty.oldestDueAgeMs, empty.activeAccounts]).toEqual([0, 0, 1]);
    expect([due.dueEvents, due.oldestDueAgeMs >= 50, due.activeAccounts]).toEqual([1, true, 0]);
    await store.close();
  });
});
