// payin-listen (listen()): a sandbox's deliveries on a local endpoint, over the sandbox's listen
// stream, with the endpoint's answer as the delivery's answer (decision D23). On SQLite in one
// process, then on PostgreSQL with two processes: the listener on one, the events made through
// the other.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { listen, ListenRefused, type Listener } from "../../src/listen/index.ts";
import { startSandbox, type RunningSandbox } from "../../src/sandbox/index.ts";
import { postgresMissing, startPostgres, type TestPostgres } from "../../scripts/lib/temp-postgres.ts";
import { accountOn } from "../support/sandbox-account.ts";
import { startReceiver } from "../support/receiver.ts";
import { startLoadBalancer } from "../support/load-balancer.ts";
import { verifyWebhook } from "../../src/webhooks/index.ts";
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { DatabaseSync } from "node:sqlite";
import { createServer } from "node:http";
import type { AddressInfo } from "node:net";
import path from "node:path";
import { root } from "../../scripts/lib/paths.ts";

const PAID = ["session-created", "transaction-created", "transaction-completed", "session-completed"];
/** The line payin-listen prints per delivery: when, type, webhook-id, the answer, how long it took. */
const DELIVERY_LINE = /^\d{4}-\d\d-\d\dT[\d:.]+Z {2}[a-z-]+ {2}msg_\S+ {2}(\d{3}|.+) {2}\d+ ms$/;
const READY_LINE = /^Ready! Your webhook signing secret is whsec_[A-Za-z0-9+/=]+ \(deliveries go to \S+; Ctrl-C to stop\)$/;

let sandbox: RunningSandbox;
const listeners: Listener[] = [];
beforeAll(async () => {
  sandbox = await startSandbox({ port: 0, retryScheduleSeconds: [1, 1, 1] });
});
afterAll(async () => {
  await Promise.all(listeners.map((l) => l.close()));
  await sandbox.close();
});

/** A listener on `base` for the account, passing deliveries on to a receiver of its own. */
async function listening(base: string, token: string, options: { events?: string[] } = {}) {
  const lines: string[] = [];
  const receiver = await startReceiver();
  const listener = await listen({ baseUrl: base, token, forwardTo: receiver.url, log: (line) => lines.push(line), ...options });
  listeners.push(listener);
  return { listener, lines, receiver };
}

describe("payin-listen on one sandbox", () => {
  it("prints the account's secret, passes each delivery on signed with it, in order, and logs each answer", async () => {
    const account = accountOn(sandbox.url);
    // Made before any listener, with no URL registered: it waits, and comes once one connects.
    const early = await account.session();
    const receiver = await startReceiver();
    const lines: string[] = [];
    const listener = await listen({ baseUrl: sandbox.url, token: account.token, forwardTo: receiver.url, log: (l) => lines.push(l) });
    listeners.push(listener);
    expect(listener.secret).toMatch(/^whsec_/);
    expect(lines[0]).toBe(`Ready! Your webhook signing secret is ${listener.secret} (deliveries go to ${receiver.url}; Ctrl-C to stop)`);
    const session = await account.session();
    await account.simulate(session.id, { outcome: "pay" });
    const delivered = await receiver.delivered(5);
    const types = (sessionId: string) => delivered.filter((d) => JSON.parse(d.body).data.session_id === sessionId).map((d) => d.type);
    expect(types(early.id)).toEqual(["session-created"]);
    expect(types(session.id)).toEqual(PAID);
    // The secret it printed is the account's: POST /webhooks keeps it, and the deliveries verify with it.
    for (const d of delivered) await expect(verifyWebhook(d.body, d.headers, listener.secret)).resolves.toBeTruthy();
    expect((await account.call("POST", "/webhooks", { url: receiver.url })).body.signing_secret).toBe(listener.secret);
    expect(lines[0]).toMatch(READY_LINE);
    expect(lines.slice(1).length).toBeGreaterThan(0);
    for (const line of lines.slice(1)) expect(line).toMatch(DELIVERY_LINE);
    expect(lines.slice(1)).toContainEqual(expect.stringMatching(/ {2}session-created {2}msg_\S+ {2}204 {2}/));
    const log = await account.deliveries();
    expect(log.every((d) => d.url === receiver.url && d.status === "succeeded")).toBe(true);
    await receiver.close();
  });

  it("reports a local 500 as the delivery's answer: retried with the same webhook-id, and the session's later events wait", async () => {
    const account = accountOn(sandbox.url);
    const { receiver } = await listening(sandbox.url, account.token);
    receiver.answer = ({ n }) => (n === 1 ? 500 : 204);
    const session = await account.session();
    await account.simulate(session.id, { outcome: "pay" });
    await receiver.delivered(4);
    const attempts = receiver.attempts;
    expect(attempts.map((a) => [a.type, a.status])).toEqual([
      ["session-created", 500],
      ["session-created", 204],
      ["transaction-created", 204],
      ["transaction-completed", 204],
      ["session-completed", 204],
    ]);
    expect(attempts[0]!.id).toBe(attempts[1]!.id);
    const log = await account.deliveries();
    expect(log.slice(0, 2).map((d) => [d.attempt, d.status, d.response_status])).toEqual([
      [1, "failed", 500],
      [2, "succeeded", 204],
    ]);
    await receiver.close();
  });

  it("takes the deliveries from the registered URL while connected, and leaves them to it after (decision D23)", async () => {
    const account = accountOn(sandbox.url);
    const registered = await startReceiver();
    await account.register(registered.url);
    const { listener, receiver } = await listening(sandbox.url, account.token);
    await account.session();
    await receiver.delivered(1);
    await listener.close();
    await account.session();
    await registered.delivered(1);
    expect([receiver.attempts.length, registered.attempts.length]).toEqual([1, 1]);
    await Promise.all([receiver.close(), registered.close()]);
  });

  it("acknowledges unseen the types --events leaves out, and says so", async () => {
    const account = accountOn(sandbox.url);
    const { receiver, lines } = await listening(sandbox.url, account.token, { events: ["transaction-completed"] });
    const session = await account.session();
    await account.simulate(session.id, { outcome: "pay" });
    await receiver.delivered(1);
    await expect.poll(() => lines.filter((l) => l.includes("skipped (--events)")).length).toBe(3);
    expect(receiver.attempts.map((a) => a.type)).toEqual(["transaction-completed"]);
    await receiver.close();
  });

  it("gives the local endpoint the sandbox's delivery timeout, not its own default: a hung endpoint's attempt says so", async () => {
    const quick = await startSandbox({ port: 0, deliveryTimeoutMs: 300 });
    try {
      const account = accountOn(quick.url);
      const { receiver, lines } = await listening(quick.url, account.token);
      receiver.answer = () => "hang";
      await account.session();
      // Cut by the listener at the sandbox's 0.3 s, and reported: not the listener's 15 s, nor the sandbox's wait beyond.
      await expect.poll(() => account.deliveries()).toEqual([expect.objectContaining({ error: "No answer within 0.3 s." })]);
      expect(lines).toContainEqual(expect.stringMatching(/ {2}session-created {2}msg_\S+ {2}No answer within 0\.3 s\. {2}/));
      await receiver.close();
    } finally {
      await quick.close();
    }
  });

  it("ends the listener a newer one replaces; a failure of the local endpoint is logged and retried, never a crash", async () => {
    const account = accountOn(sandbox.url);
    const first = await listening(sandbox.url, account.token);
    const closed = await startReceiver();
    await closed.close();
    const lines: string[] = [];
    const second = await listen({ baseUrl: sandbox.url, token: account.token, forwardTo: closed.url, log: (l) => lines.push(l) });
    listeners.push(second);
    expect(await first.listener.done).toBe("Another listener connected to this account.");
    await account.session();
    await expect.poll(() => lines.find((l) => l.includes("session-created")), { timeout: 5000 }).toMatch(/ECONNREFUSED/);
    expect((await account.deliveries())[0]).toMatchObject({ status: "failed", error: expect.stringMatching(/ECONNREFUSED/) });
    await first.receiver.close();
  });

  it("ends with the account's reset, whose secret it printed is gone with it", async () => {
    const account = accountOn(sandbox.url);
    const { listener, receiver } = await listening(sandbox.url, account.token);
    await account.call("POST", "/_sandbox/v1/reset");
    expect(await listener.done).toBe("Another listener connected to this account, or the account was reset.");
    await receiver.close();
  });

  it("leaves a delivery under way when it stops to be made again, and passes it on once a listener connects again", async () => {
    const account = accountOn(sandbox.url);
    const first = await listening(sandbox.url, account.token);
    let arrived: string | undefined;
    first.receiver.answer = ({ id }) => ((arrived = id), "hang");
    const session = await account.session();
    await expect.poll(() => arrived).toBeDefined();
    await first.listener.close();
    await expect.poll(async () => (await account.deliveries())[0]?.error).toBe("The listener disconnected before it answered.");
    const { receiver } = await listening(sandbox.url, account.token);
    const [again] = await receiver.delivered(1);
    expect([again!.id, JSON.parse(again!.body).data.session_id]).toEqual([arrived, session.id]);
    await Promise.all([first.receiver.close(), receiver.close()]);
  });

  it("refuses a forward_to that is not a URL, and an answer with neither a status nor an error, naming the field", async () => {
    const account = accountOn(sandbox.url);
    expect((await account.call("GET", "/_sandbox/v1/listen?forward_to=not%20a%20url")).body.errors).toEqual([
      { field: "forward_to", message: 'must match format "uri"' },
    ]);
    for (const body of [{}, { status: 204, error: "both" }])
      expect((await account.call("POST", "/_sandbox/v1/listen/deliveries/dlv_unknown", body)).body.errors).toEqual([
        { field: "status", message: "give either the status the endpoint answered or the error it gave, not both nor neither" },
      ]);
    // An answer no delivery waits for changes nothing, and says so.
    expect(await account.call("POST", "/_sandbox/v1/listen/deliveries/dlv_unknown", { status: 204 })).toMatchObject({
      status: 404,
      body: { code: "not_found", detail: expect.stringContaining("No delivery dlv_unknown of this account's listener waits") },
    });
  });

  it("refuses, naming it, a server that answers 200 without a stream of events; and an answer that is not an object", async () => {
    const page = createServer((req, res) => res.writeHead(200, { "Content-Type": "text/html" }).end("<html>a portal</html>"));
    await new Promise<void>((resolve) => page.listen(0, "127.0.0.1", resolve));
    const base = `http://127.0.0.1:${(page.address() as AddressInfo).port}`;
    await expect(listen({ baseUrl: base, token: "t", forwardTo: "http://127.0.0.1:9/", log: () => {} })).rejects.toThrow(
      new ListenRefused(`${base} answered 200, but not with a stream of events: is it a payin sandbox?`, 400),
    );
    page.close();
    const account = accountOn(sandbox.url);
    const res = await fetch(`${sandbox.url}/_sandbox/v1/listen/deliveries/dlv_unknown`, {
      method: "POST",
      headers: { Authorization: `Bearer ${account.token}`, "Content-Type": "application/json" },
      body: "null",
    });
    expect([res.status, (await res.json()).code]).toEqual([422, "validation_failed"]);
  });

  it("connects again, saying so, while the sandbox answers 503 at first; a 502 at first still refuses", async () => {
    const account = accountOn(sandbox.url);
    // A balancer with no healthy process answers 503, as a sandbox whose database is away does.
    const balancer = await startLoadBalancer([sandbox.url]);
    try {
      balancer.unavailable(2);
      const { listener, lines, receiver } = await listening(balancer.url, account.token);
      expect(lines).toEqual([
        `${balancer.url} answered 503 to the listener; connecting again in 0.5 s.`,
        `${balancer.url} answered 503 to the listener; connecting again in 1 s.`,
        expect.stringMatching(READY_LINE),
      ]);
      await account.session();
      await receiver.delivered(1);
      await listener.close();
      await receiver.close();
      balancer.badGateway(1);
      await expect(listen({ baseUrl: balancer.url, token: account.token, forwardTo: receiver.url, log: () => {} })).rejects.toThrow(
        new ListenRefused(`${balancer.url} answered 502 to the listener`, 502),
      );
    } finally {
      await balancer.close();
    }
  });

  it("refuses to start without a token the sandbox takes, or a sandbox to reach", async () => {
    await expect(listen({ baseUrl: sandbox.url, token: "", forwardTo: "http://127.0.0.1:9/", log: () => {} })).rejects.toThrow(
      new ListenRefused(
        `${sandbox.url} answered 401 to the listener: The Authorization header is missing or its bearer token is not valid.`,
        401,
      ),
    );
    const gone = await startReceiver();
    await gone.close();
    const nobody = new URL(gone.url).origin;
    await expect(listen({ baseUrl: nobody, token: "t", forwardTo: gone.url, log: () => {} })).rejects.toThrow(
      new RegExp(`^${nobody} cannot be reached: .*ECONNREFUSED`),
    );
  });
});

describe("a listener whose lease ran out and was renewed (its process stalled, or the database was away)", () => {
  it("gets what was made meanwhile once renewed, in each session's order", async () => {
    const folder = mkdtempSync(path.join(tmpdir(), "payin-listen-lease-"));
    const file = path.join(folder, "sandbox.db");
    const stalled = await startSandbox({ port: 0, db: file });
    const db = new DatabaseSync(file);
    try {
      const account = accountOn(stalled.url);
      const { receiver, listener } = await listening(stalled.url, account.token);
      // The lease runs out, as when the renewing process stalls: an event made now finds nowhere to go, and waits.
      db.exec("UPDATE listeners SET until_ms = 0");
      const session = await account.session();
      await account.simulate(session.id, { outcome: "pay" });
      const delivered = await receiver.delivered(4);
      expect(delivered.map((d) => d.type)).toEqual(PAID);
      await listener.close();
      await receiver.close();
    } finally {
      db.close();
      await stalled.close();
      rmSync(folder, { recursive: true, force: true });
    }
  });
});

describe("the output the guides show", () => {
  it.each(["testing.md", "hosting.md"])("in %s is what payin-listen prints: the secret's line, then one line per delivery", (guide) => {
    const text = readFileSync(path.join(root, "scripts", "docs", "guides", guide), "utf8");
    const block = /npx payin-listen [\s\S]*?```text\n([^`]*)```/.exec(text)?.[1];
    expect(block, `${guide} shows payin-listen's output in a text block after its command`).toBeDefined();
    const [ready, ...deliveries] = block!.trimEnd().split("\n");
    expect(ready).toMatch(READY_LINE);
    expect(deliveries.length).toBeGreaterThan(0);
    for (const line of deliveries) expect(line).toMatch(DELIVERY_LINE);
  });
});

describe.skipIf(postgresMissing)("payin-listen on a sandbox of two processes on PostgreSQL", () => {
  let cluster: TestPostgres;
  let one: RunningSandbox;
  let two: RunningSandbox;
  beforeAll(async () => {
    cluster = startPostgres();
    const options = { port: 0, database: cluster.createDatabase(), retryScheduleSeconds: [1, 1, 1] };
    [one, two] = await Promise.all([startSandbox(options), startSandbox(options)]);
  });
  afterAll(async () => {
    await Promise.all([one?.close(), two?.close()]);
    cluster?.stop();
  });

  it("passes on the events made through the other process, with a local 500 retried and logged there", async () => {
    const token = `listen-${crypto.randomUUID()}`;
    const { receiver, listener } = await listening(one.url, token);
    receiver.answer = ({ n }) => (n === 2 ? 500 : 204);
    const other = accountOn(two.url, token);
    const session = await other.session();
    await other.simulate(session.id, { outcome: "pay" });
    await receiver.delivered(4);
    for (const a of receiver.attempts) await expect(verifyWebhook(a.body, a.headers, listener.secret)).resolves.toBeTruthy();
    expect(receiver.attempts.map((a) => [a.type, a.status])).toEqual([
      ["session-created", 204],
      ["transaction-created", 500],
      ["transaction-created", 204],
      ["transaction-completed", 204],
      ["session-completed", 204],
    ]);
    const log = await other.deliveries();
    expect(log.filter((d) => d.event_type === "transaction-created").map((d) => d.response_status)).toEqual([500, 204]);
    await receiver.close();
  });

  it("behind a load balancer, connects again after a cut and through 502s, and loses nothing made meanwhile", async () => {
    const balancer = await startLoadBalancer([one.url, two.url]);
    const token = `listen-${crypto.randomUUID()}`;
    const { receiver, lines, listener } = await listening(balancer.url, token);
    const other = accountOn(two.url, token);
    await other.session();
    await receiver.delivered(1);
    // Its answer recorded first: one cut before would leave the attempt to be made again (at least once).
    await expect.poll(async () => (await other.deliveries())[0]?.status).toBe("succeeded");
    balancer.badGateway(2);
    balancer.dropAll();
    const meanwhile = await other.session();
    const [, again] = await receiver.delivered(2);
    expect(JSON.parse(again!.body).data.session_id).toBe(meanwhile.id);
    expect(lines.filter((l) => !DELIVERY_LINE.test(l)).slice(1)).toEqual([
      `The connection to ${balancer.url} was lost; connecting again in 0.5 s.`,
      `${balancer.url} answered 502 to the listener; connecting again in 1 s.`,
      `${balancer.url} answered 502 to the listener; connecting again in 2 s.`,
      `Connected again to ${balancer.url}.`,
    ]);
    await listener.close();
    await Promise.all([receiver.close(), balancer.close()]);
  });

  it("keeps what was made while the listener was away, and passes it on once one connects again", async () => {
    const token = `listen-${crypto.randomUUID()}`;
    const first = await listening(one.url, token);
    await first.listener.close();
    const other = accountOn(two.url, token);
    const session = await other.session();
    const { receiver } = await listening(one.url, token);
    const [delivered] = await receiver.delivered(1);
    expect(JSON.parse(delivered!.body).data.session_id).toBe(session.id);
    await Promise.all([first.receiver.close(), receiver.close()]);
  });

  // Last here: it stops process one.
  it("sends a listener elsewhere when its process stops: it connects again through the balancer and loses nothing", async () => {
    const balancer = await startLoadBalancer([one.url, two.url]);
    const token = `listen-${crypto.randomUUID()}`;
    const { receiver, lines, listener } = await listening(balancer.url, token);
    await one.close();
    const other = accountOn(two.url, token);
    const session = await other.session();
    const [delivered] = await receiver.delivered(1, 20_000);
    expect(JSON.parse(delivered!.body).data.session_id).toBe(session.id);
    expect(lines).toContain("This sandbox process is stopping; connecting again in 0.5 s.");
    expect(lines).toContainEqual(`Connected again to ${balancer.url}.`);
    await listener.close();
    await Promise.all([receiver.close(), balancer.close()]);
  });
});
