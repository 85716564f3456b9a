// Faults on demand (POST /_sandbox/v1/faults) and the request journal (GET /_sandbox/v1/requests):
// exact counts of faulty answers then normal ones, every faulty answer one the contract
// documents (accountOn checks each answer against the documents), nothing leaking to another
// account, the faults kept across a restart with --db, and the delivery faults as a receiver
// sees them.
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startSandbox, type RunningSandbox } from "../../src/sandbox/index.ts";
import { newCounterparty } from "../../src/conformance/fixtures.ts";
import { accountOn } from "../support/sandbox-account.ts";
import { startReceiver, type Receiver } from "../support/receiver.ts";

let sandbox: RunningSandbox;
beforeAll(async () => {
  sandbox = await startSandbox({ port: 0, retryScheduleSeconds: [1, 1, 1] });
});
afterAll(() => sandbox.close());

const COUNTERPARTIES = "/api/v1/send/counterparties/";
const SESSIONS = "/api/v1/earn/payment-sessions/";
const SCHEMA = "/api/v1/send/counterparties/schema/?payment_rail=PAYIN&type=INDIVIDUAL";

type Account = ReturnType<typeof accountOn>;
const arm = (account: Account, fault: object) => account.call("POST", "/_sandbox/v1/faults", fault);
const journal = async (account: Account) => (await account.call("GET", "/_sandbox/v1/requests")).body.data as any[];
const faults = async (account: Account) => (await account.call("GET", "/_sandbox/v1/faults")).body.data as any[];

/** A raw request with its answer's headers, which accountOn does not return. */
async function raw(account: Account, method: string, route: string, body?: unknown, headers: Record<string, string> = {}) {
  return fetch(sandbox.url + route, {
    method,
    headers: {
      Authorization: `Bearer ${account.token}`,
      ...(body === undefined ? {} : { "Content-Type": "application/json" }),
      ...headers,
    },
    ...(body === undefined ? {} : { body: JSON.stringify(body) }),
  });
}

describe("request faults", () => {
  it("answer the next N matching requests with the status armed, with its problem and Retry-After, then as usual", async () => {
    const account = accountOn(sandbox.url);
    const armed = await arm(account, {
      target: "request",
      operation_id: "createCounterparty",
      effect: "status",
      status: 503,
      retry_after_seconds: 2,
      times: 2,
    });
    expect(armed.status).toBe(201);
    expect(armed.body).toEqual({
      id: expect.stringMatching(/^flt_/),
      target: "request",
      effect: "status",
      operation_id: "createCounterparty",
      status: 503,
      retry_after_seconds: 2,
      times_left: 2,
      met: 0,
      created_at: expect.any(String),
    });
    // Another operation is not met.
    expect((await account.call("GET", SCHEMA)).status).toBe(200);
    for (let i = 0; i < 2; i++) {
      const answer = await raw(account, "POST", COUNTERPARTIES, newCounterparty());
      expect(answer.status).toBe(503);
      expect(answer.headers.get("retry-after")).toBe("2");
      expect(await answer.json()).toMatchObject({
        status: 503,
        code: "service_unavailable",
        title: "Service unavailable",
        detail: `A fault armed with POST /_sandbox/v1/faults (${armed.body.id}) answered this request; retry after 2 s.`,
      });
    }
    expect((await account.call("POST", COUNTERPARTIES, newCounterparty())).status).toBe(201);
    expect(await faults(account)).toEqual([]);
    const requests = await journal(account);
    expect(requests.map((r) => [r.operation_id, r.status, r.fault?.id ?? null])).toEqual([
      ["createCounterparty", 201, null],
      ["createCounterparty", 503, armed.body.id],
      ["createCounterparty", 503, armed.body.id],
      ["getCounterpartySchema", 200, null],
    ]);
  });

  it("answer 429 with its Retry-After, and 500 without one, each checked against the contract", async () => {
    const account = accountOn(sandbox.url);
    await arm(account, { target: "request", effect: "status", status: 429, retry_after_seconds: 7, times: 2 });
    await arm(account, { target: "request", effect: "status", status: 500, times: 2 });
    const limited = await raw(account, "GET", SCHEMA);
    expect([limited.status, limited.headers.get("retry-after"), (await limited.json()).code]).toEqual([429, "7", "rate_limited"]);
    // accountOn judges each answer by the contract, headers included.
    expect((await account.call("GET", SCHEMA)).status).toBe(429);
    const failed = await raw(account, "GET", SCHEMA);
    const failedBody = await failed.json();
    expect([failed.status, failed.headers.get("retry-after"), failedBody.code]).toEqual([500, null, "internal_error"]);
    expect(failedBody.detail).toMatch(/^A fault armed with POST \/_sandbox\/v1\/faults \(flt_\S+\) answered this request\.$/);
    expect((await account.call("GET", SCHEMA)).status).toBe(500);
    expect((await account.call("GET", SCHEMA)).status).toBe(200);
  });

  it("meet a share of the matching requests, evenly: 0.5 meets exactly every second one, until cleared", async () => {
    const account = accountOn(sandbox.url);
    const armed = await arm(account, { target: "request", effect: "status", status: 503, share: 0.5 });
    expect(armed.body).toMatchObject({ share: 0.5, met: 0 });
    expect(armed.body).not.toHaveProperty("times_left");
    const statuses = [];
    for (let i = 0; i < 6; i++) statuses.push((await account.call("GET", SCHEMA)).status);
    expect(statuses).toEqual([200, 503, 200, 503, 200, 503]);
    expect(await faults(account)).toEqual([{ ...armed.body, met: 3 }]);
    expect((await account.call("DELETE", "/_sandbox/v1/faults")).status).toBe(204);
    expect(await faults(account)).toEqual([]);
    expect((await account.call("GET", SCHEMA)).status).toBe(200);
  });

  it("meet a share that is no whole fraction on time: a third meets the 3rd, 6th and 9th", async () => {
    const account = accountOn(sandbox.url);
    await arm(account, { target: "request", effect: "status", status: 503, share: 1 / 3 });
    const statuses = [];
    for (let i = 0; i < 9; i++) statuses.push((await account.call("GET", SCHEMA)).status);
    expect(statuses).toEqual([200, 200, 503, 200, 200, 503, 200, 200, 503]);
  });

  it("are disarmed one at a time by id, the others left armed; another account's fault or a used-up one is 404", async () => {
    const account = accountOn(sandbox.url);
    const mine = await arm(account, { target: "request", operation_id: "getCounterpartySchema", effect: "status", status: 503 });
    const kept = await arm(account, { target: "delivery", effect: "duplicate" });
    const theirs = await arm(accountOn(sandbox.url), { target: "request", effect: "status", status: 503 });
    expect((await account.call("GET", SCHEMA)).status).toBe(503);
    expect((await account.call("DELETE", `/_sandbox/v1/faults/${theirs.body.id}`)).body).toMatchObject({
      status: 404,
      code: "not_found",
      detail: `No fault with id ${theirs.body.id} is armed on this account.`,
    });
    expect((await account.call("DELETE", `/_sandbox/v1/faults/${mine.body.id}`)).status).toBe(204);
    expect((await account.call("GET", SCHEMA)).status).toBe(200);
    expect((await faults(account)).map((f) => f.id)).toEqual([kept.body.id]);
    expect((await account.call("DELETE", `/_sandbox/v1/faults/${mine.body.id}`)).status).toBe(404);
    expect((await account.call("DELETE", "/_sandbox/v1/faults/not-a-fault")).body.errors).toEqual([
      { field: "fault_id", message: 'must match pattern "^flt_[A-Za-z0-9_-]{1,60}$"' },
    ]);
  });

  it("refuse a second delivery fault of the same effect, and more than 100 faults on an account", async () => {
    const account = accountOn(sandbox.url);
    const first = await arm(account, { target: "delivery", effect: "delay", delay_ms: 5 });
    const again = await arm(account, { target: "delivery", effect: "delay", delay_ms: 9 });
    expect([again.status, again.body.errors]).toEqual([
      422,
      [{ field: "effect", message: `delay is armed on the deliveries already (${first.body.id})` }],
    ]);
    // Another effect on the deliveries, or the same on requests, is taken.
    expect((await arm(account, { target: "delivery", effect: "shuffle" })).status).toBe(201);
    expect((await account.call("DELETE", "/_sandbox/v1/faults")).status).toBe(204);
    expect((await arm(account, { target: "delivery", effect: "delay", delay_ms: 5 })).status).toBe(201);
    for (let i = 1; i < 100; i++)
      expect((await arm(account, { target: "request", effect: "delay", delay_ms: 1, operation_id: "getWebhook" })).status).toBe(201);
    const full = await arm(account, { target: "request", effect: "drop" });
    expect([full.status, full.body.errors]).toEqual([
      422,
      [{ field: "target", message: "has 100 faults armed already: clear them first" }],
    ]);
    expect(await faults(account)).toHaveLength(100);
  });

  it("delay the answer by delay_ms, and the journal counts the wait", async () => {
    const account = accountOn(sandbox.url);
    const armed = await arm(account, {
      target: "request",
      operation_id: "getCounterpartySchema",
      effect: "delay",
      delay_ms: 250,
      times: 1,
    });
    expect(armed.body).toMatchObject({ effect: "delay", delay_ms: 250, times_left: 1 });
    expect(armed.body).not.toHaveProperty("share");
    expect((await account.call("GET", SCHEMA)).status).toBe(200);
    const [delayed] = await journal(account);
    expect(delayed).toMatchObject({ status: 200, answered: true, fault: { effect: "delay" } });
    // Node's timers count from the loop's cached time, and the clock whole milliseconds: the wait may read one short.
    expect(delayed.duration_ms).toBeGreaterThanOrEqual(249);
  });

  it(
    "drop the connection after the work: a retry with the same Idempotency-Key gets the same session, " + "one without makes a second",
    async () => {
      const account = accountOn(sandbox.url);
      const counterparty = (await account.call("POST", COUNTERPARTIES, newCounterparty())).body;
      const body = {
        amount: 10,
        currency: "EUR",
        counterparty_id: counterparty.id,
        order_id: "ORD-drop",
        redirect_url: "https://shop.example.com/thanks",
      };
      await arm(account, { target: "request", operation_id: "createPaymentSession", effect: "drop", times: 2 });
      const lost = raw(account, "POST", SESSIONS, body, { "Idempotency-Key": "ORD-drop" });
      await expect(lost).rejects.toThrow(TypeError);
      await expect(raw(account, "POST", SESSIONS, body)).rejects.toThrow(TypeError);
      const retried = await raw(account, "POST", SESSIONS, body, { "Idempotency-Key": "ORD-drop" });
      expect(retried.status).toBe(201);
      const session = await retried.json();
      const requests = await journal(account);
      expect(requests.slice(0, 3).map((r) => [r.status, r.answered, r.idempotency_key ?? null, r.fault?.effect ?? null])).toEqual([
        [201, true, "ORD-drop", null],
        [201, false, null, "drop"],
        [201, false, "ORD-drop", "drop"],
      ]);
      // Three requests made two sessions: the keyed one, replayed, and the one without a key.
      const receiver = await startReceiver();
      try {
        await account.register(receiver.url);
        const created = await receiver.delivered(2);
        expect(created.map((d) => d.type)).toEqual(["session-created", "session-created"]);
        expect(created.map((d) => JSON.parse(d.body).data.session_id)).toContain(session.id);
      } finally {
        await receiver.close();
      }
    },
  );

  it("never meet another account's requests, nor the control API's", async () => {
    const [a, b] = [accountOn(sandbox.url), accountOn(sandbox.url)];
    await arm(a, { target: "request", effect: "status", status: 503 });
    expect((await a.call("GET", SCHEMA)).status).toBe(503);
    expect((await b.call("GET", SCHEMA)).status).toBe(200);
    expect((await a.call("GET", "/_sandbox/v1/faults")).status).toBe(200);
    expect((await a.call("GET", "/_sandbox/v1/deliveries")).status).toBe(200);
    expect((await journal(b)).map((r) => r.status)).toEqual([200]);
    expect((await journal(a)).map((r) => r.status)).toEqual([503]);
  });

  it.each([
    [
      { target: "request", operation_id: "createCounterparty", effect: "status", status: 404 },
      "status",
      "createCounterparty does not document 404",
    ],
    [
      { target: "request", effect: "status", status: 404 },
      "status",
      "createCounterparty, getCounterpartySchema, createPaymentSession, registerWebhook do not document 404",
    ],
    [
      { target: "request", operation_id: "createCounterparty", effect: "status", status: 409 },
      "status",
      "must be one of the server's own conditions, 429, 500, 503: a 409 comes from the request itself",
    ],
    [{ target: "request", effect: "duplicate" }, "effect", "must be one of status, delay, drop on a request"],
    [{ target: "delivery", effect: "drop" }, "effect", "must be one of duplicate, shuffle, delay on a delivery"],
    [{ target: "delivery", effect: "status", status: 404 }, "effect", "must be one of duplicate, shuffle, delay on a delivery"],
    [{ target: "request", effect: "status" }, "status", "is required with effect status"],
    [{ target: "request", effect: "delay" }, "delay_ms", "is required with effect delay"],
    [{ target: "request", effect: "drop", delay_ms: 5 }, "delay_ms", "is taken only with effect delay"],
    [{ target: "request", effect: "delay", delay_ms: 5, status: 503 }, "status", "is taken only with effect status"],
    [
      { target: "request", effect: "status", status: 500, retry_after_seconds: 1 },
      "retry_after_seconds",
      "is taken only with status 429 or 503",
    ],
    [{ target: "delivery", effect: "duplicate", times: 1 }, "times", "is taken only on a request"],
    [{ target: "delivery", effect: "duplicate", operation_id: "getWebhook" }, "operation_id", "is taken only on a request"],
    [{ target: "request", effect: "drop", times: 1, share: 0.5 }, "share", "is taken only on a request, without times"],
    [{ target: "request", effect: "drop", share: 0 }, "share", "must be > 0"],
    [{ target: "request", effect: "drop", operation_id: "advanceClock" }, "operation_id", "must be equal to one of the allowed values"],
  ])("refuse %j with 422 naming %s", async (body, field, message) => {
    const account = accountOn(sandbox.url);
    const refused = await arm(account, body);
    expect(refused.status).toBe(422);
    expect(refused.body.errors).toEqual([{ field, message }]);
    expect(await faults(account)).toEqual([]);
  });
});

describe("the request journal", () => {
  it("keeps an account's last 100 requests to the contract, newest first, each with its method, path, operation and time", async () => {
    const account = accountOn(sandbox.url);
    for (let i = 0; i < 103; i++) await account.call("GET", `/api/v1/earn/transactions/txn_${i}/`);
    const requests = await journal(account);
    expect(requests).toHaveLength(100);
    expect(requests[0]).toEqual({
      method: "GET",
      path: "/api/v1/earn/transactions/txn_102/",
      operation_id: "getTransaction",
      status: 404,
      answered: true,
      received_at: expect.any(String),
      duration_ms: expect.any(Number),
    });
    expect(requests.at(-1).path).toBe("/api/v1/earn/transactions/txn_3/");
  });

  it("cuts a refused request's path and Idempotency-Key to the lengths its schema gives", async () => {
    const account = accountOn(sandbox.url);
    const long = await raw(account, "GET", `/api/v1/earn/transactions/txn_${"x".repeat(3000)}/`, undefined, {
      "Idempotency-Key": "k".repeat(400),
    });
    expect(long.status).toBe(422);
    const [recorded] = await journal(account);
    expect([recorded.path.length, recorded.idempotency_key.length, recorded.status]).toEqual([2048, 255, 422]);
  });

  it("keeps the requests the contract refuses, and is emptied by a reset with the faults", async () => {
    const account = accountOn(sandbox.url);
    expect((await account.call("POST", COUNTERPARTIES, { type: "INDIVIDUAL" })).status).toBe(422);
    expect((await journal(account)).map((r) => [r.operation_id, r.status])).toEqual([["createCounterparty", 422]]);
    await arm(account, { target: "delivery", effect: "shuffle" });
    expect((await account.call("POST", "/_sandbox/v1/reset")).status).toBe(204);
    expect([await journal(account), await faults(account)]).toEqual([[], []]);
  });
});

describe("a sandbox with a delay fault", () => {
  it("closes at once, neither waiting for a delayed answer nor for a delayed delivery", async () => {
    const own = await startSandbox({ port: 0 });
    const account = accountOn(own.url);
    const receiver = await startReceiver();
    try {
      await account.register(receiver.url);
      await account.call("POST", "/_sandbox/v1/faults", { target: "delivery", effect: "delay", delay_ms: 60_000 });
      await account.session();
      await account.call("POST", "/_sandbox/v1/faults", { target: "request", effect: "delay", delay_ms: 60_000 });
      const waiting = fetch(own.url + SCHEMA, { headers: { Authorization: `Bearer ${account.token}` } }).catch((error: Error) => error);
      await new Promise((resolve) => setTimeout(resolve, 50));
      const started = performance.now();
      await own.close();
      // Far less than the 60 s either delay would hold it, however busy the machine.
      expect(performance.now() - started).toBeLessThan(30_000);
      expect(await waiting).toBeInstanceOf(TypeError);
      expect(receiver.attempts).toEqual([]);
    } finally {
      await receiver.close();
    }
  });
});

describe("faults with --db", () => {
  it("stay armed across a restart, as the rest of the account", async () => {
    const dir = mkdtempSync(path.join(tmpdir(), "payin-faults-"));
    const db = path.join(dir, "sandbox.db");
    try {
      const first = await startSandbox({ port: 0, db });
      const token = `restart-${crypto.randomUUID()}`;
      const armed = await accountOn(first.url, token).call("POST", "/_sandbox/v1/faults", {
        target: "request",
        effect: "status",
        status: 503,
        times: 1,
      });
      await first.close();
      const second = await startSandbox({ port: 0, db });
      try {
        const account = accountOn(second.url, token);
        expect((await account.call("GET", "/_sandbox/v1/faults")).body.data).toEqual([armed.body]);
        expect((await account.call("GET", SCHEMA)).status).toBe(503);
        expect((await account.call("GET", SCHEMA)).status).toBe(200);
      } finally {
        await second.close();
      }
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});

describe("delivery faults", () => {
  async function paidWith(fault: object, { on = sandbox, answer }: { on?: RunningSandbox; answer?: Receiver["answer"] } = {}) {
    const account = accountOn(on.url);
    const receiver = await startReceiver();
    if (answer) receiver.answer = answer;
    await account.register(receiver.url);
    for (const f of [fault].flat()) expect((await arm(account, f)).status).toBe(201);
    const session = await account.session();
    await receiver.delivered(1);
    await account.simulate(session.id, { outcome: "pay" });
    return { account, receiver, session };
  }

  it("duplicate: every acknowledged event comes once more at once, with the same webhook-id, marked in the log", async () => {
    const { account, receiver } = await paidWith({ target: "delivery", effect: "duplicate" });
    try {
      const delivered = await receiver.delivered(8);
      expect(delivered.map((d) => d.type)).toEqual([
        "session-created",
        "session-created",
        "transaction-created",
        "transaction-created",
        "transaction-completed",
        "transaction-completed",
        "session-completed",
        "session-completed",
      ]);
      for (let i = 0; i < 8; i += 2) expect(delivered[i + 1]!.id).toBe(delivered[i]!.id);
      const log = await account.deliveries();
      expect(log.map((d) => [d.event_type, d.attempt, d.faults ?? null])).toEqual([
        ["session-created", 1, null],
        ["session-created", 2, ["duplicate"]],
        ["transaction-created", 1, null],
        ["transaction-created", 2, ["duplicate"]],
        ["transaction-completed", 1, null],
        ["transaction-completed", 2, ["duplicate"]],
        ["session-completed", 1, null],
        ["session-completed", 2, ["duplicate"]],
      ]);
      expect((await faults(account))[0].met).toBe(4);
    } finally {
      await receiver.close();
    }
  });

  it("shuffle: a session's pending events go newest first, each still retried until acknowledged", async () => {
    // Retried only when the test moves the clock (settled long after), so that the order seen is the fault's, not a race
    // with a busy machine.
    const own = await startSandbox({ port: 0, retryScheduleSeconds: [60], settlementDelaySeconds: 3600 });
    // The first attempt of transaction-completed fails: it is retried, and still arrives.
    const answer: Receiver["answer"] = ({ type, n }) => (type === "transaction-completed" && n <= 3 ? 503 : 204);
    const { account, receiver } = await paidWith({ target: "delivery", effect: "shuffle" }, { on: own, answer });
    try {
      await receiver.delivered(3);
      // Past the retry's 60 s and its jitter.
      await account.advance(90);
      const delivered = await receiver.delivered(4);
      expect(delivered.map((d) => d.type)).toEqual([
        "session-created",
        "session-completed",
        "transaction-created",
        "transaction-completed",
      ]);
      // The log orders attempts made in the same millisecond by event, not by when they went:
      // the arrivals above give the order, the log what each attempt was.
      const log = await account.deliveries();
      expect(log.map((d) => [d.event_type, d.status, d.faults ?? null]).sort()).toEqual(
        [
          ["session-created", "succeeded", null],
          ["session-completed", "succeeded", ["shuffle"]],
          ["transaction-completed", "failed", ["shuffle"]],
          ["transaction-created", "succeeded", null],
          ["transaction-completed", "succeeded", null],
        ].sort(),
      );
    } finally {
      await receiver.close();
      await own.close();
    }
  });

  it("delay: each attempt waits delay_ms first, marked in the log", async () => {
    const { account, receiver } = await paidWith({ target: "delivery", effect: "delay", delay_ms: 50 });
    try {
      await receiver.delivered(4);
      const log = await account.deliveries();
      expect(log.map((d) => d.faults)).toEqual([["delay"], ["delay"], ["delay"], ["delay"]]);
    } finally {
      await receiver.close();
    }
  });
});
