// Webhook delivery from the sandbox: retries on the account's clock with the same webhook-id,
// events that wait for a URL, redelivery, the attempts list, and nothing lost across a kill. What
// waits for a delivery waits for it to happen, bounded by the test's timeout; a receiver that never
// answers is timed out on a clock the test moves.
import { spawn, type ChildProcess } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { createServer as createTlsServer } from "node:https";
import path from "node:path";
import { DatabaseSync } from "node:sqlite";
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from "vitest";
import { root } from "../../scripts/lib/paths.ts";
import { RETRY_SCHEDULE_SECONDS } from "../../src/lib/contract-facts.ts";
import { bindPort } from "../../src/lib/bind-port.ts";
import { LOOPBACK_TLS } from "../../src/lib/loopback-tls.ts";
import { jittered } from "../../src/sandbox/delivery/retry-schedule.ts";
import { startSandbox, type RunningSandbox } from "../../src/sandbox/index.ts";
import { verifyWebhook } from "../../src/webhooks/index.ts";
import { outsideLoopback } from "../support/loopback-guard.ts";
import { accountOn } from "../support/sandbox-account.ts";
import { ManualClock, REAL_WORK } from "../support/manual-clock.ts";
import { startReceiver, type Receiver } from "../support/receiver.ts";

let sandbox: RunningSandbox;
let endpoint: Receiver;

beforeAll(async () => {
  sandbox = await startSandbox({ port: 0, retryScheduleSeconds: [5, 300] });
  endpoint = await startReceiver();
});
afterAll(async () => {
  await sandbox.close();
  await endpoint.close();
});
afterEach(() => {
  endpoint.answer = () => 204;
});

/** Waits for `check` to hold: for a delivery to be made, however long the machine takes (the test's timeout bounds it). */
const wait = (check: () => boolean, what: string) =>
  vi.waitFor(
    () => {
      if (!check()) throw new Error(`Still waiting for ${what}.`);
    },
    { timeout: 30_000, interval: 10 },
  );

/** The account's time, as its dashboard shows it. */
async function accountTime(token: string) {
  const signIn = await fetch(`${sandbox.url}/_sandbox/dashboard/sign-in`, {
    method: "POST",
    headers: { "content-type": "application/x-www-form-urlencoded" },
    body: new URLSearchParams({ token }),
    redirect: "manual",
  });
  const cookie = signIn.headers.get("set-cookie")!.split(";")[0]!;
  const page = await (await fetch(`${sandbox.url}/_sandbox/dashboard`, { headers: { cookie } })).text();
  return Date.parse(/The account's time: <code>([^<]+)<\/code>/.exec(page)![1]!);
}

/** The account's delivery log, once it lists an attempt. */
const firstDeliveries = async (account: ReturnType<typeof accountOn>) => {
  let listed: any[] = [];
  await vi.waitFor(
    async () => {
      listed = await account.deliveries();
      if (listed.length === 0) throw new Error("no attempt yet");
    },
    { timeout: 30_000, interval: 10 },
  );
  return listed;
};

describe("webhook delivery", () => {
  it("retries a failed attempt on the schedule of the account's clock, with the same webhook-id and a fresh signature", async () => {
    const account = accountOn(sandbox.url);
    const secret = await account.register(endpoint.url);
    let failing = true;
    endpoint.answer = () => (failing ? 500 : 204);
    const session = await account.session();
    await wait(() => endpoint.attempts.some((a) => a.id && JSON.parse(a.body).data.session_id === session.id), "the first attempt");
    const mine = () => endpoint.attempts.filter((a) => JSON.parse(a.body).data.session_id === session.id);
    expect(mine().map((a) => a.status)).toEqual([500]);

    let [first] = await account.deliveries();
    expect(first).toMatchObject({
      event_type: "session-created",
      attempt: 1,
      status: "failed",
      response_status: 500,
      error: "The receiver answered 500.",
    });
    // 5 s of sandbox time after the attempt ended, give or take the 20 % jitter.
    const delay = Date.parse(first.next_attempt_at) - Date.parse(first.attempted_at) - first.duration_ms;
    expect(delay).toBeGreaterThanOrEqual(4000);
    expect(delay).toBeLessThanOrEqual(6000);

    // Not due 3 s later; due (and made, before the advance answers) 7 s later.
    await account.advance(3);
    expect(mine()).toHaveLength(1);
    await account.advance(4);
    expect(mine().map((a) => a.status)).toEqual([500, 500]);
    failing = false;
    await account.advance(400);
    const attempts = mine();
    expect(attempts.map((a) => a.status)).toEqual([500, 500, 204]);
    expect(new Set(attempts.map((a) => a.headers["webhook-id"])).size).toBe(1);
    expect(attempts.map((a) => a.body)).toEqual([attempts[0]!.body, attempts[0]!.body, attempts[0]!.body]);
    // Each attempt is signed anew, and each signature verifies with the account's secret.
    for (const a of attempts) await expect(verifyWebhook(a.body, a.headers, secret)).resolves.toMatchObject({ id: a.id });

    const listed = await account.deliveries();
    expect(listed.map((d) => [d.attempt, d.status])).toEqual([
      [1, "failed"],
      [2, "failed"],
      [3, "succeeded"],
    ]);
    expect(listed[2].next_attempt_at).toBeUndefined();
    first = listed[0];
    expect(Date.parse(listed[1].attempted_at)).toBeGreaterThanOrEqual(Date.parse(first.next_attempt_at));
  });

  it("makes, within an advance, the retry of an attempt that failed while the advance began", async () => {
    const account = accountOn(sandbox.url);
    await account.register(endpoint.url);
    // The first attempt's answer waits until the advance has moved the clock (the dashboard shows the account's time): its
    // failure is recorded on the advanced clock.
    let advanced: Promise<{ body: { attempts_made: number } }> | undefined;
    let attempts = 0;
    endpoint.answer = async () => {
      if (++attempts > 1) return 204;
      advanced = account.advance(10);
      await vi.waitFor(async () => expect((await accountTime(account.token)) - Date.now()).toBeGreaterThan(5_000), { timeout: 30_000 });
      return 500;
    };
    await account.session();
    await wait(() => advanced !== undefined, "the first attempt");
    expect((await advanced!).body.attempts_made).toBe(2);
    expect((await account.deliveries()).map((d) => [d.attempt, d.status])).toEqual([
      [1, "failed"],
      [2, "succeeded"],
    ]);
  });

  it("sends an event made during an advance's attempt of its session once that attempt ends, on a clock that never ticks", async () => {
    // The clock moves only when the test moves it: the once-a-second look for due events never comes, so the event goes
    // only if the attempt's outcome makes way for it, though it came due after the advance's target.
    const clock = new ManualClock(Date.now());
    const own = await startSandbox({ port: 0, retryScheduleSeconds: [5, 300], clock });
    const receiver = await startReceiver();
    try {
      const account = accountOn(own.url);
      let release!: () => void;
      const released = new Promise<void>((resolve) => (release = resolve));
      // session-created fails first; its retry, made by the advance, waits for the payment.
      receiver.answer = async ({ n }) => (n === 1 ? 500 : n === 2 ? released.then(() => 204) : 204);
      await account.register(receiver.url);
      const session = await account.session();
      await wait(() => receiver.attempts.length === 1, "the first attempt");
      const advanced = account.advance(10);
      await wait(() => receiver.arrivals.length === 2, "the retry under way");
      await clock.advance(1);
      expect((await account.simulate(session.id, { outcome: "pay" })).status).toBe(200);
      release();
      await advanced;
      const delivered = await receiver.delivered(4);
      expect(delivered.map((d) => d.type)).toEqual([
        "session-created",
        "transaction-created",
        "transaction-completed",
        "session-completed",
      ]);
    } finally {
      await receiver.close();
      await own.close();
    }
  });

  it("gives up after the last retry of the schedule, and records why", async () => {
    const account = accountOn(sandbox.url);
    await account.register(endpoint.url);
    endpoint.answer = () => 503;
    await account.session();
    await wait(() => endpoint.attempts.length > 0, "an attempt");
    await account.advance(10);
    await account.advance(400);
    await account.advance(3000);
    const listed = (await account.deliveries()).filter((d) => d.event_type === "session-created");
    expect(listed.map((d) => d.attempt)).toEqual([1, 2, 3]);
    expect(listed.every((d) => d.status === "failed" && d.response_status === 503)).toBe(true);
    expect(listed[2].next_attempt_at).toBeUndefined();
  });

  it("keeps events made while no URL is registered, and delivers them once one is", async () => {
    const account = accountOn(sandbox.url);
    const session = await account.session();
    await account.simulate(session.id, { outcome: "fail" });
    // Each event was committed, and waited, before simulate answered: none was sent.
    expect(await account.deliveries()).toEqual([]);
    await account.register(endpoint.url);
    const mine = () => endpoint.attempts.filter((a) => JSON.parse(a.body).data.session_id === session.id);
    await wait(() => mine().length === 3, "three deliveries");
    expect(mine().map((a) => a.type)).toEqual(["session-created", "transaction-created", "transaction-failed"]);
  });

  it("lists one session's attempts, oldest first, each with the session and transaction it is about", async () => {
    const account = accountOn(sandbox.url);
    await account.register(endpoint.url);
    const [paid, other] = [await account.session(), await account.session()];
    await account.simulate(paid.id, { outcome: "pay" });
    await account.advance(1);
    const listed = async (query: string) => (await account.call("GET", `/_sandbox/v1/deliveries${query}`)).body.data as any[];
    const mine = await listed(`?session_id=${paid.id}`);
    expect(mine.map((d) => [d.event_type, d.session_id, d.status])).toEqual(
      ["session-created", "transaction-created", "transaction-completed", "session-completed"].map((type) => [type, paid.id, "succeeded"]),
    );
    const transactionId = mine[1].transaction_id;
    expect(transactionId).toMatch(/^txn_/);
    expect(mine.map((d) => d.transaction_id)).toEqual([undefined, transactionId, transactionId, undefined]);
    expect((await listed(`?session_id=${other.id}`)).map((d) => d.event_type)).toEqual(["session-created"]);
    expect(await listed("?session_id=ps_none")).toEqual([]);
    expect((await listed("")).map((d) => d.session_id).sort()).toEqual([...mine.map(() => paid.id), other.id].sort());
    const invalid = await account.call("GET", `/_sandbox/v1/deliveries?session_id=${"p".repeat(65)}`);
    expect(invalid.status).toBe(422);
    expect(invalid.body.errors).toEqual([{ field: "session_id", message: expect.stringMatching(/64 characters/) }]);
  });

  it("delivers to a loopback https:// receiver with a self-signed certificate, signed as to any other", async () => {
    const bodies: Array<{ body: string; headers: Record<string, string | string[] | undefined> }> = [];
    const tls = createTlsServer(LOOPBACK_TLS, async (req, res) => {
      const chunks: Buffer[] = [];
      for await (const chunk of req) chunks.push(chunk as Buffer);
      bodies.push({ body: Buffer.concat(chunks).toString("utf8"), headers: req.headers });
      res.writeHead(204).end();
    });
    const port = await bindPort(tls, 0, "127.0.0.1");
    try {
      const account = accountOn(sandbox.url);
      const secret = await account.register(`https://127.0.0.1:${port}/hook`);
      const session = await account.session();
      await account.advance(1);
      expect((await account.deliveries()).map((d) => [d.event_type, d.status, d.response_status])).toEqual([
        ["session-created", "succeeded", 204],
      ]);
      const event = await verifyWebhook(bodies[0]!.body, bodies[0]!.headers, secret);
      expect(event.data.session_id).toBe(session.id);
    } finally {
      tls.closeAllConnections();
      await new Promise((resolve) => tls.close(resolve));
    }
  });

  it("reports a receiver that refuses the connection, and redelivers to the URL registered since", async () => {
    const account = accountOn(sandbox.url);
    const closed = await startReceiver();
    await closed.close();
    await account.register(closed.url);
    const session = await account.session();
    const listed = await firstDeliveries(account);
    expect(listed[0]).toMatchObject({ status: "failed", url: closed.url });
    expect(listed[0].response_status).toBeUndefined();
    expect(listed[0].error).toBe("The request failed: ECONNREFUSED.");

    await account.register(endpoint.url);
    const again = await account.call("POST", `/_sandbox/v1/deliveries/${listed[0].event_id}/redeliver`);
    expect(again.status).toBe(200);
    expect(again.body).toMatchObject({
      event_id: listed[0].event_id,
      attempt: 2,
      status: "succeeded",
      url: endpoint.url,
      response_status: 204,
    });
    expect(endpoint.attempts.filter((a) => a.id === listed[0].event_id && JSON.parse(a.body).data.session_id === session.id)).toHaveLength(
      1,
    );
    // A delivered event can be sent again too, with the same id.
    const third = await account.call("POST", `/_sandbox/v1/deliveries/${listed[0].event_id}/redeliver`);
    expect(third.body.attempt).toBe(3);
    expect(endpoint.attempts.filter((a) => a.id === listed[0].event_id)).toHaveLength(2);
  });

  /**
   * On a sandbox that waits 300 ms of its clock for a receiver: a session whose session-created was delivered, then paid
   * or failed while the receiver hangs on transaction-created, so that the session has an attempt under way, until the
   * test moves the clock.
   */
  async function attemptUnderWay(quick: RunningSandbox, simulate: Record<string, unknown>) {
    const account = accountOn(quick.url);
    await account.register(endpoint.url);
    const session = await account.session();
    await wait(() => endpoint.attempts.some((a) => JSON.parse(a.body).data.session_id === session.id), "session-created");
    const [created] = await account.deliveries();
    const arrived = endpoint.arrivals.length;
    endpoint.answer = ({ type }) => (type === "transaction-created" ? "hang" : 204);
    await account.simulate(session.id, simulate);
    await wait(() => endpoint.arrivals.slice(arrived).some((a) => a.type === "transaction-created"), "transaction-created under way");
    return { account, created };
  }

  it(
    "redelivers an earlier event of a session after the attempt under way of its session, " + "and answers with that event's attempt",
    async () => {
      const clock = new ManualClock(Date.now());
      const quick = await startSandbox({ port: 0, deliveryTimeoutMs: 300, clock });
      try {
        const { account, created } = await attemptUnderWay(quick, { outcome: "fail", failure_reason: "card_declined" });
        let answered = false;
        const redelivered = account.call("POST", `/_sandbox/v1/deliveries/${created.event_id}/redeliver`).finally(() => (answered = true));
        // The attempt under way cannot end before the clock moves: had the redelivery not waited for it, it would have answered.
        await new Promise((r) => setTimeout(r, 100));
        expect(answered, "not while its session's attempt is under way").toBe(false);
        await clock.advance(300);
        const answer = await redelivered;
        // The hung attempt of transaction-created ended meanwhile; the answer is session-created's own.
        expect(answer.body).toMatchObject({ event_id: created.event_id, event_type: "session-created", attempt: 2, status: "succeeded" });
        expect((await account.deliveries()).map((d) => [d.event_type, d.attempt, d.status])).toContainEqual([
          "transaction-created",
          1,
          "failed",
        ]);
      } finally {
        await quick.close();
      }
    },
  );

  it("answers 404 to a redelivery whose account is reset while it waits for its session's attempt under way", async () => {
    const clock = new ManualClock(Date.now());
    const quick = await startSandbox({ port: 0, deliveryTimeoutMs: 300, clock });
    try {
      const { account, created } = await attemptUnderWay(quick, { outcome: "pay" });
      const redelivered = account.call("POST", `/_sandbox/v1/deliveries/${created.event_id}/redeliver`);
      expect((await account.call("POST", "/_sandbox/v1/reset")).status).toBe(204);
      // The attempt under way ends, and the redelivery finds its event gone with the account's records.
      await clock.advance(300);
      expect(await redelivered).toMatchObject({ status: 404, body: { code: "not_found" } });
    } finally {
      await quick.close();
    }
  });

  it("answers 404 to a redelivery of an unknown event, or of another account's", async () => {
    const account = accountOn(sandbox.url);
    await account.register(endpoint.url);
    const session = await account.session();
    await wait(() => endpoint.attempts.some((a) => JSON.parse(a.body).data.session_id === session.id), "a delivery");
    const [delivered] = await account.deliveries();
    expect((await account.call("POST", "/_sandbox/v1/deliveries/msg_nope/redeliver")).body.code).toBe("not_found");
    const other = accountOn(sandbox.url);
    expect((await other.call("POST", `/_sandbox/v1/deliveries/${delivered.event_id}/redeliver`)).status).toBe(404);
    expect(await other.deliveries()).toEqual([]);
  });

  it("answers webhook_not_registered to a redelivery while the account has no URL and no listener", async () => {
    // The event's id is known only to the outbox until it is sent: read it from the database file.
    const dir = mkdtempSync(path.join(tmpdir(), "payin-sandbox-outbox-"));
    const own = await startSandbox({ port: 0, db: path.join(dir, "sandbox.db") });
    try {
      const account = accountOn(own.url);
      await account.session();
      const reader = new DatabaseSync(path.join(dir, "sandbox.db"));
      const { id } = reader.prepare("SELECT id FROM events").get() as { id: string };
      reader.close();
      const res = await account.call("POST", `/_sandbox/v1/deliveries/${id}/redeliver`);
      expect(res.status).toBe(404);
      expect(res.body).toMatchObject({
        code: "webhook_not_registered",
        detail: "This account has no webhook URL and no listener connected; register a URL with POST /webhooks, or connect payin-listen.",
      });
      expect(await account.deliveries()).toEqual([]);
    } finally {
      await own.close();
      rmSync(dir, { recursive: true, force: true });
    }
  });
});

describe("what counts as delivered", () => {
  it("takes any 2xx as an acknowledgement and anything else as a failure", async () => {
    for (const [answer, outcome] of [
      [200, "succeeded"],
      [299, "succeeded"],
      [300, "failed"],
      [404, "failed"],
    ] as const) {
      const account = accountOn(sandbox.url);
      await account.register(endpoint.url);
      endpoint.answer = () => answer;
      await account.session();
      const listed = await firstDeliveries(account);
      expect(listed[0], String(answer)).toMatchObject({ status: outcome, response_status: answer });
      if (outcome === "failed") expect(listed[0].error).toBe(`The receiver answered ${answer}.`);
      else expect(listed[0].error).toBeUndefined();
      expect(listed[0].duration_ms).toBeGreaterThanOrEqual(0);
      expect(listed[0].duration_ms).toBeLessThan(15_000); // answered within the delivery timeout
    }
  });

  it("sends JSON and says who sends it", async () => {
    const account = accountOn(sandbox.url);
    await account.register(endpoint.url);
    const session = await account.session();
    await wait(() => endpoint.attempts.some((a) => JSON.parse(a.body).data.session_id === session.id), "a delivery");
    const attempt = endpoint.attempts.find((a) => JSON.parse(a.body).data.session_id === session.id)!;
    expect(attempt.method).toBe("POST");
    expect(attempt.headers["content-type"]).toBe("application/json");
    expect(attempt.headers["user-agent"]).toBe("payin-sandbox");
    expect(Number(attempt.headers["content-length"])).toBe(Buffer.byteLength(attempt.body));
  });

  it("gives a receiver that does not answer until the timeout, then records that it did not", async () => {
    const quick = await startSandbox({ port: 0, deliveryTimeoutMs: 200 });
    try {
      const account = accountOn(quick.url);
      await account.register(endpoint.url);
      endpoint.answer = () => "hang";
      await account.session();
      const listed = await firstDeliveries(account);
      expect(listed[0]).toMatchObject({ status: "failed", error: "No answer within 0.2 s." });
      expect(listed[0].response_status).toBeUndefined();
      expect(listed[0].duration_ms).toBeGreaterThanOrEqual(150);
    } finally {
      await quick.close();
    }
  });

  it("holds a session's later events while its first is unanswered, and delivers other sessions' meanwhile", async () => {
    const account = accountOn(sandbox.url);
    await account.register(endpoint.url);
    const stuck = await account.session();
    endpoint.answer = ({ type }) => (type === "session-created" ? "hang" : 204);
    // Its session-created hangs; its transaction events must wait behind it.
    const seen = () => endpoint.attempts.filter((a) => JSON.parse(a.body).data.session_id === stuck.id);
    await account.simulate(stuck.id, { outcome: "fail", failure_reason: "card_declined" });
    endpoint.answer = () => 204;
    const free = await account.session();
    await account.simulate(free.id, { outcome: "fail", failure_reason: "card_declined" });
    await wait(
      () => endpoint.attempts.filter((a) => JSON.parse(a.body).data.session_id === free.id).length === 3,
      "the other session's three events",
    );
    expect(seen()).toEqual([]);
  });
});

describe("the order rule: a session's later events wait until the earlier one is acknowledged or has failed for good", () => {
  it("sends transaction-completed only after transaction-created, whose first attempt was refused, went through", async () => {
    const account = accountOn(sandbox.url);
    await account.register(endpoint.url);
    const session = await account.session();
    let refused = false;
    endpoint.answer = ({ type }) => (type === "transaction-created" && !refused ? ((refused = true), 500) : 204);
    await account.simulate(session.id, { outcome: "pay" });
    const mine = () =>
      endpoint.attempts.filter((a) => JSON.parse(a.body).data.session_id === session.id).map((a) => `${a.type} ${a.status}`);
    await wait(() => mine().includes("transaction-created 500"), "the refused transaction-created");

    // Its retry is due 5 s later (±20 %): one second on, nothing of the session goes, and the two events behind it are still due.
    const early = await account.advance(1);
    expect(early.body).toMatchObject({ attempts_made: 0, attempts_still_due: 2 });
    expect(mine()).toEqual(["session-created 204", "transaction-created 500"]);

    // Past the retry, the advance makes it, then the two that waited, in order.
    const later = await account.advance(6);
    expect(later.body).toMatchObject({ attempts_made: 3, attempts_still_due: 0 });
    expect(mine()).toEqual([
      "session-created 204",
      "transaction-created 500",
      "transaction-created 204",
      "transaction-completed 204",
      "session-completed 204",
    ]);
  });

  it("lets a later event go once the earlier one has failed for good", async () => {
    const once = await startSandbox({ port: 0, retryScheduleSeconds: [] });
    try {
      const account = accountOn(once.url);
      await account.register(endpoint.url);
      endpoint.answer = ({ type }) => (type === "transaction-created" ? 500 : 204);
      const session = await account.session();
      await account.simulate(session.id, { outcome: "pay" });
      const mine = () =>
        endpoint.attempts.filter((a) => JSON.parse(a.body).data.session_id === session.id).map((a) => `${a.type} ${a.status}`);
      await wait(() => mine().length === 4, "four attempts");
      expect(mine()).toEqual(["session-created 204", "transaction-created 500", "transaction-completed 204", "session-completed 204"]);
    } finally {
      await once.close();
    }
  });
});

describe("an advance against a receiver that never answers", () => {
  it("answers once its one due attempt timed out, having made it once and held the rest", async () => {
    // The rule: an advance makes the attempts due by its target once each; a session's first
    // failure holds its later events, and a retry due after the target waits. So one advance of
    // one second waits for one attempt of one timeout, whatever the retry schedule: the counts
    // say so, not the time it took, which a busy machine stretches.
    // The timeout runs on the sandbox's clock, which the test moves once the attempt hangs.
    const clock = new ManualClock();
    const hanging = await startSandbox({ port: 0, retryScheduleSeconds: [1, 1, 1], deliveryTimeoutMs: 1000, clock });
    try {
      const account = accountOn(hanging.url);
      endpoint.answer = () => "hang";
      const session = await account.session();
      await account.simulate(session.id, { outcome: "pay" });
      await account.register(endpoint.url);
      let answered = false;
      const arrived = endpoint.arrivals.length;
      const advancing = account.advance(1).finally(() => (answered = true));
      await vi.waitFor(() => expect(endpoint.arrivals).toHaveLength(arrived + 1), REAL_WORK);
      await clock.advance(999);
      expect(answered).toBe(false);
      await clock.advance(1);
      const advanced = await advancing;
      expect(advanced.body).toMatchObject({ attempts_made: 1, attempts_still_due: 3 });
      const attempts = await account.deliveries();
      expect(attempts.map((a) => [a.event_type, a.attempt, a.error])).toEqual([["session-created", 1, "No answer within 1 s."]]);
    } finally {
      endpoint.answer = () => 204;
      await hanging.close();
    }
  });
});

describe("deliveries outside loopback (decision D21)", () => {
  it("are not sent, nor their host looked up, unless the host is allowed; the log says which flag allows it", async () => {
    const account = accountOn(sandbox.url);
    await account.register("https://hooks.shop.example.com/payin");
    await account.session();
    const listed = await firstDeliveries(account);
    expect(listed[0]).toMatchObject({
      status: "failed",
      error: "Not sent: the sandbox delivers only to loopback hosts unless started with --allow-webhook-host hooks.shop.example.com.",
    });
    expect(listed[0]).not.toHaveProperty("response_status");
    expect(outsideLoopback).toEqual([]);
  });

  it("are attempted for an allowed host, or for any with *", async () => {
    for (const allowed of ["hooks.shop.example.com", "*"]) {
      const open = await startSandbox({ port: 0, allowWebhookHosts: [allowed] });
      try {
        const account = accountOn(open.url);
        await account.register("https://HOOKS.shop.example.com/payin");
        await account.session();
        // The loopback guard stands in for the network: it refuses the look-up the sandbox makes of the name before it
        // connects (to check the address, decision D21), and tells.
        await wait(() => outsideLoopback.includes("hooks.shop.example.com"), "an attempt to the allowed host");
        const [attempt] = await account.deliveries();
        expect(attempt.error).toMatch(/^Not sent: hooks\.shop\.example\.com does not resolve to a public address\. /);
      } finally {
        outsideLoopback.length = 0;
        await open.close();
      }
    }
  });
});

describe("the retry schedule", () => {
  it("is Svix's by default", () => {
    expect(RETRY_SCHEDULE_SECONDS).toEqual([5, 300, 1800, 7200, 18000, 36000, 36000]);
  });

  it("draws each delay up to 20 % either side of its nominal value", () => {
    const random = vi.spyOn(Math, "random");
    try {
      expect([0, 0.5, 1].map((r) => (random.mockReturnValue(r), jittered(5000)))).toEqual([4000, 5000, 6000]);
      random.mockReturnValue(0.25);
      expect(jittered(5000)).toBe(4500);
    } finally {
      random.mockRestore();
    }
  });
});

describe("a sandbox killed before its deliveries were acknowledged", () => {
  const dir = mkdtempSync(path.join(tmpdir(), "payin-sandbox-kill-"));
  const db = path.join(dir, "sandbox.db");
  let child: ChildProcess | undefined;
  afterAll(() => {
    child?.kill("SIGKILL");
    rmSync(dir, { recursive: true, force: true });
  });

  /** `npm run sandbox` as a process of its own, on a free port, with the database file. */
  function start(): Promise<string> {
    child = spawn(process.execPath, [path.join(root, "src", "sandbox", "cli.ts"), "--port", "0", "--db", db], {
      stdio: ["ignore", "pipe", "inherit"],
    });
    return new Promise((resolve, reject) => {
      child!.stdout!.on("data", (chunk: Buffer) => {
        const url = chunk.toString().match(/listening on (http:\/\/\S+)/)?.[1];
        if (url) resolve(url);
      });
      child!.once("exit", (code) => reject(new Error(`payin-sandbox exited with ${code}`)));
    });
  }

  it("delivers every event after a restart on the same --db (duplicates allowed, deduped by id)", async () => {
    const receiver = await startReceiver();
    try {
      // The receiver takes the events but never answers: no attempt is acknowledged.
      receiver.answer = () => "hang";
      let url = await start();
      const account = accountOn(url, "kill-test");
      await account.register(receiver.url);
      const session = await account.session();
      const paid = await account.simulate(session.id, { outcome: "pay" });
      expect(paid.status).toBe(200);
      // Killed with an attempt under way, unanswered.
      await wait(() => receiver.arrivals.length > 0, "an attempt");
      const dead = child!;
      dead.kill("SIGKILL");
      await new Promise((r) => dead.once("exit", r));

      receiver.answer = () => 204;
      url = await start();
      const ids = (await receiver.delivered(4)).map((a) => a.id);
      const types = receiver.attempts.map((a) => a.type);
      expect(new Set(types)).toEqual(new Set(["session-created", "transaction-created", "transaction-completed", "session-completed"]));
      expect(new Set(ids).size).toBe(4);
      // The state survived too.
      const restarted = accountOn(url, "kill-test");
      expect((await restarted.transaction(paid.body.transaction.id)).body.status).toBe("completed");
    } finally {
      await receiver.close();
    }
  });
});
