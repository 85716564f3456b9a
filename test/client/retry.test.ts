// The client against the sandbox's faults: it retries what may succeed later (a lost connection,
// a timeout, 429, 503) with one Idempotency-Key on every attempt, gives up with the last
// problem, and never retries a request that was wrong. The journal shows every attempt.
import { execFile } from "node:child_process";
import { createServer } from "node:http";
import type { AddressInfo } from "node:net";
import path from "node:path";
import { promisify } from "node:util";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { root } from "../../scripts/lib/paths.ts";
import { createPayinClient, createSandboxClient, type PayinClient } from "../../src/index.ts";
import { backoffMs, retryAfterMs } from "../../src/retry.ts";
import { startSandbox, type RunningSandbox } from "../../src/sandbox/index.ts";
import { newCounterparty } from "../../src/conformance/fixtures.ts";
import { ManualClock, REAL_WORK } from "../support/manual-clock.ts";

let sandbox: RunningSandbox;
beforeAll(async () => {
  sandbox = await startSandbox({ port: 0 });
});
afterAll(() => sandbox.close());

/** An account of its own, a client with short waits, and the control API to arm faults and read the journal. */
function account(options: Partial<Parameters<typeof createPayinClient>[0]> = {}) {
  const token = `retry-${crypto.randomUUID()}`;
  const payin = createPayinClient({ baseUrl: sandbox.url, token, retry: { baseDelayMs: 10 }, ...options });
  const control = createSandboxClient({ baseUrl: sandbox.url, token });
  return {
    payin,
    control,
    arm: async (fault: Record<string, unknown>) =>
      expect((await control.POST("/_sandbox/v1/faults", { body: { target: "request", ...fault } as never })).response.status).toBe(201),
    /** The journal's attempts, oldest first. */
    journal: async () => ((await control.GET("/_sandbox/v1/requests")).data!.data as any[]).reverse(),
  };
}

const createCounterparty = (payin: PayinClient) => payin.POST("/api/v1/send/counterparties/", { body: newCounterparty() });
const createSession = (payin: PayinClient, counterparty_id: string) =>
  payin.POST("/api/v1/earn/payment-sessions/", {
    body: { amount: 10, currency: "EUR", counterparty_id, redirect_url: "https://shop.example.com/thanks" },
  });
const sessionAttempts = (journal: any[]) => journal.filter((r) => r.operation_id === "createPaymentSession");

describe("the client's retries", () => {
  it("retries two 503s and succeeds, with the same Idempotency-Key on the three attempts", async () => {
    const { payin, arm, journal } = account();
    const customer = await createCounterparty(payin);
    await arm({ operation_id: "createPaymentSession", effect: "status", status: 503, retry_after_seconds: 0, times: 2 });
    const { data, response } = await createSession(payin, customer.data!.id);
    expect(response.status).toBe(201);
    const attempts = sessionAttempts(await journal());
    expect(attempts.map((r) => r.status)).toEqual([503, 503, 201]);
    expect(new Set(attempts.map((r) => r.idempotency_key)).size).toBe(1);
    expect(attempts[0].idempotency_key).toMatch(/^[0-9a-f-]{36}$/);
    expect(data!.id).toMatch(/^ps_/);
  });

  it("gives up after its retries with the last problem", async () => {
    const { payin, arm, journal } = account({ retry: { retries: 1, baseDelayMs: 10 } });
    await arm({ operation_id: "createCounterparty", effect: "status", status: 503, retry_after_seconds: 0, times: 5 });
    const { error, response } = await createCounterparty(payin);
    expect(response.status).toBe(503);
    expect(error).toMatchObject({ status: 503, code: expect.any(String) });
    expect((await journal()).map((r) => r.status)).toEqual([503, 503]);
  });

  const wrong: Array<[number, string, (payin: PayinClient) => Promise<{ response: Response }>]> = [
    [400, "malformed JSON", (payin) => payin.POST("/api/v1/send/counterparties/", { body: newCounterparty(), bodySerializer: () => "{" })],
    [
      409,
      "a customer who exists",
      async (payin) => {
        const body = newCounterparty();
        await payin.POST("/api/v1/send/counterparties/", { body });
        return payin.POST("/api/v1/send/counterparties/", { body });
      },
    ],
    [422, "an invalid email", (payin) => payin.POST("/api/v1/send/counterparties/", { body: { ...newCounterparty(), email: "nope" } })],
  ];
  it.each(wrong)("does not retry a %i (%s): the request was wrong", async (status, _, send) => {
    const { payin, journal } = account();
    expect((await send(payin)).response.status).toBe(status);
    expect((await journal()).filter((r) => r.status === status)).toHaveLength(1);
  });

  it("makes one session of a create whose answer was lost: the retry with the same key gets the answer", async () => {
    const { payin, control, arm, journal } = account();
    await payin.POST("/webhooks", { body: { url: "http://127.0.0.1:9/closed" } });
    const customer = await createCounterparty(payin);
    await arm({ operation_id: "createPaymentSession", effect: "drop", times: 1 });
    const { data, response } = await createSession(payin, customer.data!.id);
    expect(response.status).toBe(201);
    const attempts = sessionAttempts(await journal());
    expect(attempts.map((r) => [r.status, r.answered])).toEqual([
      [201, false],
      [201, true],
    ]);
    expect(attempts[1].idempotency_key).toBe(attempts[0].idempotency_key);
    // One session: a second create would have made a second session-created (the attempts to a closed port are logged).
    await control.POST("/_sandbox/v1/clock/advance", { body: { seconds: 1 } });
    const events = (await control.GET("/_sandbox/v1/deliveries")).data!.data.filter((d) => d.event_type === "session-created");
    expect(events.map((d) => d.session_id)).toEqual([data!.id]);
  });

  it("waits what Retry-After says before retrying a 429, on its own clock", async () => {
    const clock = new ManualClock();
    const { payin, arm, journal } = account({ clock });
    await arm({ operation_id: "createCounterparty", effect: "status", status: 429, retry_after_seconds: 1, times: 1 });
    const created = createCounterparty(payin);
    // Answered 429, it waits a second on its clock (beside its next attempt's timeout, still to come): no retry before.
    await vi.waitFor(() => expect(clock.dueIn()).toContain(1000), REAL_WORK);
    expect((await journal()).map((r) => r.status)).toEqual([429]);
    await clock.advance(999);
    expect(clock.dueIn()).toContain(1);
    await clock.advance(1);
    expect((await created).response.status).toBe(201);
    expect((await journal()).map((r) => r.status)).toEqual([429, 201]);
  });

  it("abandons an attempt after timeoutMs on its clock and retries it", async () => {
    const clock = new ManualClock();
    const { payin, arm, journal } = account({ clock, timeoutMs: 200 });
    await arm({ operation_id: "createCounterparty", effect: "delay", delay_ms: 20_000, times: 1 });
    const created = createCounterparty(payin);
    // The first attempt hangs (the sandbox holds it 20 s): its timeout is the one timer, 200 ms away.
    await vi.waitFor(() => expect(clock.dueIn()).toEqual([200]), REAL_WORK);
    await clock.advance(200);
    // Abandoned: the retry comes after the backoff (10 ms at most), with its own timeout.
    await vi.waitFor(() => expect(clock.dueIn()[0]).toBeLessThanOrEqual(10), REAL_WORK);
    await clock.advance(10);
    const { data, response } = await created;
    expect(response.status).toBe(201);
    expect((await journal()).map((r) => [r.status, r.answered])).toEqual([[201, true]]);
    expect(data!.id).toMatch(/^cp_/);
  });

  it("turns each off: no retry, no key", async () => {
    const { payin, arm, journal } = account({ retry: false, idempotencyKeys: false });
    await arm({ operation_id: "createCounterparty", effect: "status", status: 503, retry_after_seconds: 0, times: 1 });
    expect((await createCounterparty(payin)).response.status).toBe(503);
    const attempts = await journal();
    expect(attempts.map((r) => [r.status, r.idempotency_key ?? null])).toEqual([[503, null]]);
  });
});

describe("the waits", () => {
  it("grow twice each retry, with jitter in the upper half, and stop at maxDelayMs", () => {
    for (const n of [0, 1, 2, 3]) {
      const ceiling = Math.min(1000, 100 * 2 ** n);
      for (let i = 0; i < 50; i++) {
        const wait = backoffMs(n, { baseDelayMs: 100, maxDelayMs: 1000 });
        expect(wait).toBeGreaterThanOrEqual(ceiling / 2);
        expect(wait).toBeLessThanOrEqual(ceiling);
      }
    }
  });

  it("read Retry-After as seconds or as an HTTP date", () => {
    expect(retryAfterMs("3")).toBe(3000);
    expect(retryAfterMs(new Date(10_000).toUTCString(), 4000)).toBe(6000);
    expect(retryAfterMs(null)).toBeUndefined();
    expect(retryAfterMs("soon")).toBeUndefined();
  });
});

describe("a script whose one request waits between attempts", () => {
  it("keeps running through the wait, though the clock's timers hold no process open", async () => {
    // A server that answers 503 first: the script's only pending work is then its client's wait before the retry.
    let calls = 0;
    const server = createServer((_, res) => void res.writeHead(++calls === 1 ? 503 : 204).end());
    await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
    const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/`;
    const script = `import { resilientFetch } from ${JSON.stringify(path.join(root, "src/retry.ts"))};
      const answer = await resilientFetch(fetch, { retry: { baseDelayMs: 40 } })(new Request(${JSON.stringify(url)}));
      console.log("answered", answer.status);`;
    try {
      const run = await promisify(execFile)(process.execPath, ["--input-type=module", "-e", script]);
      expect([run.stdout.trim(), calls]).toEqual(["answered 204", 2]);
    } finally {
      server.close();
    }
  });
});
