// What a request sends PostgreSQL, counted at the driver: a create is one statement (no BEGIN, no COMMIT) when nothing
// conflicts, and when something does (a contact taken, a key used before), the answers are what they always were, each
// request journaled once. The sandbox's clock is the test's and is not moved: no tick runs a statement meanwhile.
import pg from "pg";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { postgresMissing, startPostgres, type TestPostgres } from "../../scripts/lib/temp-postgres.ts";
import { startSandbox, type RunningSandbox } from "../../src/sandbox/index.ts";
import { ManualClock } from "../support/manual-clock.ts";

describe.skipIf(postgresMissing)("the statements a request sends PostgreSQL", () => {
  let cluster: TestPostgres;
  let sandbox: RunningSandbox;
  const clock = new ManualClock(Date.now());
  const sent: string[] = [];
  const query = pg.Client.prototype.query;
  beforeAll(async () => {
    cluster = startPostgres();
    sandbox = await startSandbox({ port: 0, database: cluster.createDatabase(), clock });
    pg.Client.prototype.query = function (this: pg.Client, config: unknown, ...rest: unknown[]) {
      const text = typeof config === "string" ? config : (config as { text?: string }).text;
      // The empty query is the accounts channel's question whether it has heard every change: no statement.
      if (text) sent.push(text);
      return (query as (...args: unknown[]) => unknown).call(this, config, ...rest);
    } as typeof query;
  });
  afterAll(async () => {
    pg.Client.prototype.query = query;
    await sandbox?.close();
    cluster?.stop();
  });

  const token = `statements-${crypto.randomUUID()}`;
  const person = (n: number) => ({
    type: "INDIVIDUAL",
    payment_rail: "PAYIN",
    first_name: "Ana",
    last_name: "Li",
    email: `ana-${n}@example.com`,
    phone_number: `+3460000${String(n).padStart(4, "0")}`,
  });
  /** Sends the request and resolves to its answer and the statements it sent. */
  async function counted(path: string, body: unknown, key?: string) {
    sent.length = 0;
    const response = await fetch(`${sandbox.url}${path}`, {
      method: "POST",
      headers: { Authorization: `Bearer ${token}`, "Content-Type": "application/json", ...(key ? { "Idempotency-Key": key } : {}) },
      body: JSON.stringify(body),
    });
    return { status: response.status, body: (await response.json()) as Record<string, unknown>, statements: [...sent] };
  }
  const journal = async () =>
    (
      (await (await fetch(`${sandbox.url}/_sandbox/v1/requests`, { headers: { Authorization: `Bearer ${token}` } })).json()) as {
        data: Array<{ status: number; idempotency_key?: string }>;
      }
    ).data;

  it("creates a counterparty, its Idempotency-Key and its journal entry in one statement, with no transaction around it", async () => {
    // The account made, its facts read, its first request noted (a write a minute, past its first).
    await counted("/api/v1/send/counterparties/", person(0));
    await clock.advance(1);
    await counted("/api/v1/send/counterparties/", person(100));
    const created = await counted("/api/v1/send/counterparties/", person(1), "key-1");
    expect(created.status).toBe(201);
    expect(created.statements).toHaveLength(1);
    for (const table of ["counterparties", "idempotency_keys", "requests"])
      expect(created.statements[0]).toContain(`INSERT INTO ${table} `);
  });

  it("answers a contact taken and a key used before as it always did, after its optimistic statement failed", async () => {
    const first = await counted("/api/v1/send/counterparties/", person(2), "key-2");
    const taken = await counted("/api/v1/send/counterparties/", person(2), "key-3");
    expect(taken.status).toBe(409);
    expect(taken.body.existing_id).toBe(first.body.id);
    expect(taken.statements).toContain("BEGIN");
    const replayed = await counted("/api/v1/send/counterparties/", person(2), "key-2");
    expect(replayed).toMatchObject({ status: 201, body: { id: first.body.id } });
    const reused = await counted("/api/v1/send/counterparties/", person(4), "key-2");
    expect(reused.status).toBe(409);
    expect(reused.body.code).toBe("idempotency_key_reused");
    // Each request once in the journal, with the answer it got, newest first.
    const entries = (await journal()).slice(0, 4).map((e) => [e.status, e.idempotency_key]);
    expect(entries).toEqual([
      [409, "key-2"],
      [201, "key-2"],
      [409, "key-3"],
      [201, "key-2"],
    ]);
  });

  it("creates a session with its event, its key and its journal entry in one transaction of five statements", async () => {
    const counterparty = await counted("/api/v1/send/counterparties/", person(5));
    const body = {
      amount: 10,
      currency: "EUR",
      counterparty_id: counterparty.body.id,
      order_id: "o-1",
      redirect_url: "https://shop.example.com/",
    };
    const session = await counted("/api/v1/earn/payment-sessions/", body, "key-s");
    expect(session.body).toMatchObject({ status: "created" });
    // BEGIN, the session, its event's lock, the event with the key and the entry, COMMIT.
    // (Its commit then has delivery look at the session: the sandbox's work, not the request's.)
    const own = session.statements.slice(0, session.statements.indexOf("COMMIT") + 1);
    expect(own.map((s) => s.split(" ").slice(0, 3).join(" "))).toEqual([
      "BEGIN",
      "INSERT INTO payment_sessions",
      "SELECT pg_advisory_xact_lock_shared(CAST($1 AS",
      "WITH w0 AS",
      "COMMIT",
    ]);
    for (const table of ["events", "idempotency_keys", "requests"]) expect(own[3]).toContain(`INSERT INTO ${table} `);
  });
});
