// One sandbox served by several processes on one PostgreSQL database (a throwaway cluster; these
// tests skip with a message where Debian's postgresql package is missing, never in CI): what one
// process does, another sees; the rules hold across them; a process killed mid-flow loses no
// event; a database that goes away is a 503 with Retry-After, then served again.
import { spawn, spawnSync, type ChildProcess } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { startSandbox, type RunningSandbox } from "../../src/sandbox/index.ts";
import { Store } from "../../src/sandbox/store/index.ts";
import { postgresMissing, startPostgres, type TestPostgres } from "../../scripts/lib/temp-postgres.ts";
import { root } from "../../scripts/lib/paths.ts";
import { ManualClock, REAL_WORK } from "../support/manual-clock.ts";
import { accountOn } from "../support/sandbox-account.ts";
import { startReceiver } from "../support/receiver.ts";

if (postgresMissing) console.warn(postgresMissing);

const CLI = path.join(root, "src", "sandbox", "cli.ts");

let cluster: TestPostgres;
beforeAll(() => {
  if (!postgresMissing) cluster = startPostgres();
});
afterAll(() => cluster?.stop());

describe.skipIf(postgresMissing)("a sandbox shared by several processes on PostgreSQL", () => {
  let one: RunningSandbox;
  let two: RunningSandbox;
  let url: string;
  beforeAll(async () => {
    url = cluster.createDatabase();
    // A first retry 30 s after a failure (on the account's clock): no process makes it before a test advances the clock.
    const options = { port: 0, database: url, retryScheduleSeconds: [30] };
    [one, two] = await Promise.all([startSandbox(options), startSandbox(options)]);
  });
  afterAll(async () => {
    await Promise.all([one?.close(), two?.close()]);
  });

  it("serves the same accounts from every process: records, rules, keys, faults, journal and clock are the sandbox's", async () => {
    const token = `shared-${crypto.randomUUID()}`;
    const [a, b] = [accountOn(one.url, token), accountOn(two.url, token)];
    // A session made on one process pays on the other, and either reads it.
    const session = await a.session();
    const paid = await b.simulate(session.id, { outcome: "pay" });
    expect(paid.status).toBe(200);
    expect((await a.transaction(paid.body.transaction.id)).body.status).toBe("completed");

    // The contact rule: the second process refuses the first's counterparty again, naming it.
    const person = {
      type: "INDIVIDUAL",
      payment_rail: "PAYIN",
      first_name: "Li",
      last_name: "Wu",
      email: "li@example.com",
      phone_number: "+34600000077",
    };
    const first = await a.call("POST", "/api/v1/send/counterparties/", person);
    const again = await b.call("POST", "/api/v1/send/counterparties/", person);
    expect(again.status).toBe(409);
    expect(again.body.existing_id).toBe(first.body.id);

    // An Idempotency-Key first used on one process replays on the other.
    const keyed = async (base: string) =>
      (
        await fetch(`${base}/api/v1/send/counterparties/`, {
          method: "POST",
          headers: { Authorization: `Bearer ${token}`, "Content-Type": "application/json", "Idempotency-Key": "k-1" },
          body: JSON.stringify({ ...person, email: "key@example.com" }),
        })
      ).json();
    expect((await keyed(two.url)).id).toBe((await keyed(one.url)).id);

    // A fault armed through one process meets the next request to the other, once.
    await a.call("POST", "/_sandbox/v1/faults", { target: "request", effect: "status", status: 503, operation_id: "getWebhook", times: 1 });
    expect((await b.call("GET", "/webhooks")).status).toBe(503);
    expect((await a.call("GET", "/webhooks")).status).toBe(404);
    // The journal lists the requests both processes took.
    const journal = (await b.call("GET", "/_sandbox/v1/requests")).body.data.map((r: { status: number }) => r.status);
    expect(journal.slice(0, 2)).toEqual([404, 503]);

    // One clock: an advance through one process expires the account's open session for the other.
    const open = await b.session();
    const advanced = await a.advance(3600);
    expect(advanced.body.offset_seconds).toBe(3600);
    expect((await b.call("GET", `/_sandbox/v1/payment-sessions/${open.id}`)).body.status).toBe("expired");
  });

  /**
   * An account whose first delivery failed, and another process (a store of the test's own) that holds a claim on the
   * event's retry, as a process does while its attempt is under way; with what that process records when it is done.
   */
  async function retryHeldElsewhere(base = one.url) {
    const receiver = await startReceiver();
    receiver.answer = ({ n }) => (n === 1 ? 500 : 204);
    const account = accountOn(base);
    await account.register(receiver.url);
    await account.session();
    await expect.poll(async () => (await account.deliveries()).length).toBe(1);
    const [first] = await account.deliveries();
    const other = await Store.open({ postgres: url });
    const event = (await other.outbox.get((await other.accounts.forToken(account.token)).id, first.event_id))!;
    const terms = { claim: "other", untilMs: Date.now() + 10_000, dueByMs: Number.MAX_SAFE_INTEGER };
    expect(await other.outbox.claimOne(event.seq, terms)).toMatchObject({ seq: event.seq });
    const attempt = {
      ...event,
      eventId: event.id,
      eventSeq: event.seq,
      attempt: 2,
      url: receiver.url,
      responseStatus: 204,
      error: null,
      succeeded: true,
    };
    const sent = { requestHeaders: {}, responseFirstBytes: null };
    const record = async () =>
      (
        await other.outbox.finish(
          { ...attempt, ...sent, attemptedAtMs: Date.now(), durationMs: 1, nextAttemptAtMs: null, nextDueMs: null, marks: [] },
          "other",
        )
      ).recorded;
    return { account, receiver, event, record, close: () => Promise.all([receiver.close(), other.close()]) };
  }

  it("waits, in an advance, for the attempt another process has under way of an event the advance makes due", async () => {
    // This process looks again for the other's attempt on its clock, which the test moves.
    const clock = new ManualClock(Date.now());
    const watched = await startSandbox({ port: 0, database: url, retryScheduleSeconds: [30], clock });
    const { account, receiver, record, close } = await retryHeldElsewhere(watched.url);
    try {
      let answered = false;
      // A minute: the retry (30 s after the failure) comes due, and nothing else does.
      const advancing = account.advance(60).finally(() => (answered = true));
      // Held by the other process: the advance looks again in 20 ms, and has not answered.
      await vi.waitFor(() => expect(clock.dueIn()).toContain(20), REAL_WORK);
      expect(answered).toBe(false);
      expect(await record()).toBe(true);
      await clock.advance(20);
      expect((await advancing).body).toMatchObject({ attempts_made: 1, attempts_still_due: 0 });
      // The other process made it: this one sent nothing more.
      expect(receiver.attempts).toHaveLength(1);
    } finally {
      await close();
      await watched.close();
    }
  });

  it("redelivers an event another process holds: the attempt asked for is made and answered, the holder's is not recorded", async () => {
    const { account, receiver, event, record, close } = await retryHeldElsewhere();
    try {
      const redelivered = await account.call("POST", `/_sandbox/v1/deliveries/${event.id}/redeliver`);
      expect(redelivered.status).toBe(200);
      expect(redelivered.body).toMatchObject({ event_id: event.id, attempt: 2, status: "succeeded" });
      expect(receiver.attempts.map((a) => a.status)).toEqual([500, 204]);
      expect(await record()).toBe(false);
    } finally {
      await close();
    }
  });

  it("answers 503 with Retry-After while its database is away, and serves again once it is back", async () => {
    const account = accountOn(one.url);
    await account.session();
    cluster.pause();
    let answer: Response;
    try {
      answer = await fetch(`${one.url}/webhooks`, { headers: { Authorization: `Bearer ${account.token}` } });
      // The control API's operations answer as their document says too (the call checks the answer against it).
      expect((await account.call("GET", "/_sandbox/v1/requests")).status).toBe(503);
    } finally {
      cluster.resume();
    }
    expect(answer.status).toBe(503);
    expect(answer.headers.get("retry-after")).toBe("1");
    expect(await answer.json()).toMatchObject({ status: 503, code: "service_unavailable" });
    // The pool connects again: the next request is served.
    expect((await account.call("GET", "/webhooks")).status).toBe(404);
  });
});

describe.skipIf(postgresMissing)("payin-sandbox processes on one PostgreSQL database", () => {
  const children: ChildProcess[] = [];
  afterAll(() => {
    for (const child of children) child.kill("SIGKILL");
  });

  /** A payin-sandbox process on the database, resolving to its URL once it listens. */
  function start(database: string): Promise<{ child: ChildProcess; url: string }> {
    const args = [
      "--port",
      "0",
      "--database",
      database,
      "--delivery-timeout",
      "1",
      "--retry-schedule",
      "1,1,1,1,1",
      "--settlement-delay",
      "1",
    ];
    const child = spawn(process.execPath, [CLI, ...args], { stdio: ["ignore", "pipe", "inherit"] });
    children.push(child);
    return new Promise((resolve, reject) => {
      child.stdout!.on("data", (chunk: Buffer) => {
        const found = chunk.toString().match(/listening on (http:\/\/\S+)/)?.[1];
        if (found) resolve({ child, url: found });
      });
      child.once("exit", (code) => reject(new Error(`payin-sandbox exited with ${code}`)));
    });
  }

  it("delivers every event of every paid session, signed and in order, when one of two is killed mid-flow", async () => {
    const database = cluster.createDatabase();
    const [a, b] = await Promise.all([start(database), start(database)]);
    const token = "kill-one";
    const secret = await accountOn(a.url, token).register("http://127.0.0.1:1/");
    const receiver = await startReceiver({ secret });
    try {
      await accountOn(a.url, token).register(receiver.url);
      // Attempts hang until the kill, so that the killed process dies holding claims it never recorded.
      let hanging = true;
      receiver.answer = () => (hanging ? "hang" : 204);
      const sessions: string[] = [];
      for (let n = 0; n < 8; n++) {
        const account = accountOn((n % 2 === 0 ? a : b).url, token);
        const session = await account.session();
        expect((await account.simulate(session.id, { outcome: "pay" })).status).toBe(200);
        sessions.push(session.id);
      }
      // Every session's first event under way, hanging, half of them held by the process about to be killed.
      await vi.waitFor(() => expect(receiver.arrivals.length).toBeGreaterThanOrEqual(sessions.length), { timeout: 10_000 });
      a.child.kill("SIGKILL");
      hanging = false;

      const order = ["session-created", "transaction-created", "transaction-completed", "session-completed", "transaction-settled"];
      const verified = () => receiver.events.filter((e) => sessions.includes(e.data.session_id));
      await expect
        .poll(() => new Set(verified().map((e) => `${e.data.session_id}/${e.type}`)).size, { timeout: 20_000, interval: 200 })
        .toBe(sessions.length * order.length);
      for (const id of sessions) {
        const events = verified().filter((e) => e.data.session_id === id);
        // Each event once, but for a redelivery of the same webhook-id; in the order the flow made them.
        const firsts = events.filter((e, i) => events.findIndex((other) => other.id === e.id) === i);
        expect(firsts.map((e) => e.type)).toEqual(order);
        expect(new Set(events.map((e) => e.id)).size).toBe(order.length);
      }
      // Nothing arrived unsigned or badly signed: every acknowledged attempt verified.
      const acknowledged = receiver.attempts.filter((x) => x.status === 204);
      expect(acknowledged.length).toBe(receiver.events.length);
    } finally {
      await receiver.close();
    }
  });

  it("refuses, in one line naming the host and the reason and with exit code 1, a database it cannot reach or log in to", () => {
    const refusal = (database: string) => {
      const run = spawnSync(process.execPath, [CLI, "--port", "0", "--database", database], { encoding: "utf8" });
      return { code: run.status, stderr: run.stderr.trim() };
    };
    const nobody = cluster.createDatabase().replace("postgres@", "nobody@");
    expect(refusal(nobody)).toEqual({
      code: 1,
      stderr: `payin-sandbox: The sandbox cannot use its database at ${cluster.socketFolder}: role "nobody" does not exist.`,
    });
    const empty = mkdtempSync(path.join(tmpdir(), "payin-nopg-"));
    try {
      expect(refusal(`postgres://postgres@localhost/x?host=${encodeURIComponent(empty)}`)).toEqual({
        code: 1,
        stderr: `payin-sandbox: The sandbox cannot use its database at ${empty}: connect ENOENT ${empty}/.s.PGSQL.5432.`,
      });
    } finally {
      rmSync(empty, { recursive: true, force: true });
    }
    // A TCP port nothing listens on, on loopback: the host and port are named.
    expect(refusal("postgres://postgres:secret@127.0.0.1:9/x")).toEqual({
      code: 1,
      stderr: "payin-sandbox: The sandbox cannot use its database at 127.0.0.1:9: connect ECONNREFUSED 127.0.0.1:9.",
    });
  });
});
