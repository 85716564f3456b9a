// The installed shared sandbox under chaos, in the shape of a run nobody here wrote: three
// processes on one throwaway PostgreSQL (its own default `synchronous_commit = off`), with
// retention and a rate limit on, merchants running flows through whichever process is up, while
// processes are killed (SIGKILL) and started again, the database crashes and recovers, and a
// payin-listen is killed and started again; the merchants' endpoint refuses or leaves unanswered
// the first attempt of some events. Afterwards nothing is lost: every event that the database's
// final state implies arrives, signed with its account's secret, each session's in an order its
// state machines allow.
import { spawn, type ChildProcess } from "node:child_process";
import { createServer, type IncomingMessage } from "node:http";
import type { AddressInfo } from "node:net";
import pg from "pg";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { EVENT_RULES, type PayinEvent, type PayinEventType } from "../../generated/event-types.ts";
import { postgresMissing, startPostgres, type TestPostgres } from "../../scripts/lib/temp-postgres.ts";
import { orderViolation } from "../../src/conformance/event-order.ts";
import { newCounterparty } from "../../src/conformance/fixtures.ts";
import { tokenHash } from "../../src/sandbox/store/token-hash.ts";
import { verifyWebhook } from "../../src/webhooks/index.ts";
import { startLoadBalancer, type LoadBalancer } from "../support/load-balancer.ts";
import { cli, startBin, withPeers as project } from "./support/consumer.ts";

const ACCOUNTS = 8;
/** Five acts, one every 1.5 s: two processes killed, two database crashes, a listener killed. */
const CHAOS_MS = 7500;
// Short waits, as in CI; enough retries that a busy machine's slow answers are not a failure for good.
const SANDBOX_FLAGS = [
  "--retention",
  "1h",
  "--rate-limit",
  "100",
  "--settlement-delay",
  "1",
  "--delivery-timeout",
  "3",
  "--retry-schedule",
  "1,1,1,1,1,1,1,1,1,1",
];

/** The merchants' endpoint: each event's first attempt refused (500) for a fifth of the events and left unanswered for a tenth. */
function startEndpoint(secrets: Map<string, string>) {
  const received: Array<{ token: string; event: PayinEvent; at: number }> = [];
  const rejected: string[] = [];
  const seen = new Map<string, number>();
  const server = createServer(async (req: IncomingMessage, res) => {
    const chunks: Buffer[] = [];
    for await (const chunk of req) chunks.push(chunk as Buffer);
    const token = decodeURIComponent(req.url!.split("/").at(-1)!);
    const id = String(req.headers["webhook-id"]);
    const first = !seen.has(id);
    seen.set(id, (seen.get(id) ?? 0) + 1);
    const bucket = [...id].reduce((sum, c) => sum + c.charCodeAt(0), 0) % 10;
    if (first && bucket === 0) return; // Never answered: the sandbox's timeout ends the attempt.
    if (first && bucket <= 2) return void res.writeHead(500).end();
    try {
      const event = await verifyWebhook(Buffer.concat(chunks), req.headers, secrets.get(token)!);
      received.push({ token, event, at: performance.now() });
      res.writeHead(204).end();
    } catch {
      rejected.push(id);
      res.writeHead(400).end();
    }
  });
  return { server, received, rejected };
}

/** Answers 5xx other than 503 (the database away): none is expected, outage or not. */
const serverErrors: string[] = [];

/** A call that goes on through whichever processes are up, with one Idempotency-Key: what a merchant's retrying client does. */
async function persistently(urls: () => string[], token: string, method: string, route: string, body?: object) {
  const key = crypto.randomUUID();
  for (let attempt = 0; attempt < 200; attempt++) {
    const live = urls();
    const url = live[attempt % live.length]!;
    try {
      const res = await fetch(url + route, {
        method,
        headers: { Authorization: `Bearer ${token}`, "Content-Type": "application/json", "Idempotency-Key": key },
        ...(body ? { body: JSON.stringify(body) } : {}),
        signal: AbortSignal.timeout(5000),
      });
      if (res.status < 429 || (res.status > 429 && res.status < 500))
        return { status: res.status, body: await res.json().catch(() => undefined) };
      if (res.status >= 500 && res.status !== 503) serverErrors.push(`${method} ${route}: ${res.status} ${await res.text()}`);
    } catch {
      // The process went away, or did not answer: another is asked.
    }
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  throw new Error(`${method} ${route} got no answer through the chaos`);
}

describe.skipIf(postgresMissing)("the installed shared sandbox under chaos", () => {
  let cluster: TestPostgres;
  let database: string;
  const sandboxes: Array<{ child: ChildProcess; url: string }> = [];
  const secrets = new Map<string, string>();
  let endpoint: ReturnType<typeof startEndpoint>;
  let endpointUrl: string;
  let listener: ChildProcess | undefined;
  /** In front of the processes, as a hosting company's: the listener connects through it to whichever is up. */
  let balancer: LoadBalancer;
  const upstreams: string[] = [];
  const listening = `chaos-listening-${crypto.randomUUID()}`;

  const start = async () => {
    const started = startBin("payin-sandbox", process.execPath, project, ["--database", database, ...SANDBOX_FLAGS]);
    return { child: started.child, url: await started.url };
  };
  const startListener = () =>
    spawn(
      process.execPath,
      [cli("listen"), "--base-url", balancer.url, "--token", listening, "--forward-to", `${endpointUrl}/listen/${listening}`],
      {
        cwd: project,
        stdio: "ignore",
      },
    );

  beforeAll(async () => {
    cluster = startPostgres();
    database = cluster.createDatabase();
    endpoint = startEndpoint(secrets);
    await new Promise<void>((resolve) => endpoint.server.listen(0, "127.0.0.1", resolve));
    endpointUrl = `http://127.0.0.1:${(endpoint.server.address() as AddressInfo).port}`;
    for (let i = 0; i < 3; i++) sandboxes.push(await start());
    upstreams.push(...sandboxes.map((s) => s.url));
    balancer = await startLoadBalancer(upstreams);
  }, 60_000);
  afterAll(() => {
    listener?.kill("SIGKILL");
    void balancer?.close();
    for (const s of sandboxes) s.child.kill("SIGKILL");
    endpoint?.server.closeAllConnections();
    endpoint?.server.close();
    cluster?.stop();
  });

  it("loses nothing: every event the final state implies arrives, signed, each session's in order", async () => {
    const live = () => sandboxes.map((s) => s.url);
    const tokens = [listening, ...Array.from({ length: ACCOUNTS - 1 }, () => `chaos-${crypto.randomUUID()}`)];
    for (const token of tokens) {
      const registered = await persistently(live, token, "POST", "/webhooks", { url: `${endpointUrl}/hook/${encodeURIComponent(token)}` });
      secrets.set(token, registered.body.signing_secret);
    }
    listener = startListener();

    // Merchants: flows, one after another per account, paid or failed at random, through whichever process is up.
    let stopping = false;
    const merchants = tokens.map(async (token) => {
      while (!stopping) {
        const counterparty = await persistently(live, token, "POST", "/api/v1/send/counterparties/", newCounterparty());
        const session = await persistently(live, token, "POST", "/api/v1/earn/payment-sessions/", {
          amount: 10,
          currency: "EUR",
          counterparty_id: counterparty.body.id,
          redirect_url: "https://shop.example.com/thanks",
        });
        const outcome = Math.random() < 0.7 ? { outcome: "pay" } : { outcome: "fail", failure_reason: "card_declined" };
        await persistently(live, token, "POST", `/_sandbox/v1/payment-sessions/${session.body.id}/simulate`, outcome);
      }
    });
    // Chaos: a process killed and started again, the database crashed and recovered, the listener killed and started again.
    const chaos = (async () => {
      const acts = [
        async () => {
          const i = Math.floor(Math.random() * sandboxes.length);
          sandboxes[i]!.child.kill("SIGKILL");
          sandboxes[i] = await start();
          upstreams[i] = sandboxes[i]!.url;
        },
        async () => {
          cluster.crash();
          await new Promise((resolve) => setTimeout(resolve, 500));
          cluster.resume();
        },
        async () => {
          listener?.kill("SIGKILL");
          await new Promise((resolve) => setTimeout(resolve, 300));
          listener = startListener();
        },
      ];
      for (let round = 0; round * 1500 < CHAOS_MS; round++) {
        await new Promise((resolve) => setTimeout(resolve, 1500));
        await acts[round % acts.length]!();
      }
    })();
    await chaos;
    stopping = true;
    await Promise.all(merchants);

    // What the database's final state implies, per session: each change announced by its event.
    const db = new pg.Client(database);
    await db.connect();
    const implied = new Set<string>();
    const tokenOf = new Map((await db.query("SELECT id, token_hash FROM accounts")).rows.map((r) => [Number(r.id), r.token_hash]));
    const hashes = new Map(tokens.map((t) => [tokenHash(t), t]));
    const owner = (accountId: number) => hashes.get(tokenOf.get(Number(accountId))!)!;
    const announce = (token: string, type: PayinEventType, sessionId: string, transactionId?: string) =>
      implied.add(`${token} ${type} ${sessionId} ${transactionId ?? ""}`);
    for (const s of (await db.query("SELECT account_id, id, status FROM payment_sessions")).rows) {
      announce(owner(s.account_id), "session-created", s.id);
      if (s.status === "completed") announce(owner(s.account_id), "session-completed", s.id);
      if (s.status === "expired") announce(owner(s.account_id), "session-expired", s.id);
    }
    for (const t of (await db.query("SELECT account_id, id, session_id, status FROM transactions")).rows) {
      const by = owner(t.account_id);
      announce(by, "transaction-created", t.session_id, t.id);
      if (t.status === "failed") announce(by, "transaction-failed", t.session_id, t.id);
      if (t.status === "completed" || t.status === "settled") announce(by, "transaction-completed", t.session_id, t.id);
      if (t.status === "settled") announce(by, "transaction-settled", t.session_id, t.id);
    }
    await db.end();
    expect(implied.size).toBeGreaterThan(100);

    // Every one arrives, however long the retries take (a killed process's claims run out first): on failure, the
    // missing events with the state the database has of each of their sessions' events.
    const missing = () => {
      const arrived = new Set(endpoint.received.map(({ token, event }) => keyOf(token, event)));
      return [...implied].filter((key) => !arrived.has(key));
    };
    await expect
      .poll(missing, { timeout: 60_000, interval: 500 })
      .toEqual([])
      .catch(async (error: Error) => {
        throw new Error(`${error.message}\n${await explain(database, missing())}`);
      });
    expect(endpoint.rejected, "deliveries whose signature did not verify").toEqual([]);
    expect(serverErrors).toEqual([]);
    // In an order the state machines allow: each session's events by the time each first arrived.
    const bySession = new Map<string, PayinEvent[]>();
    for (const { event } of [...endpoint.received].sort((a, b) => a.at - b.at)) {
      const session = (event.data as { session_id: string }).session_id;
      const events = bySession.get(session) ?? [];
      if (!events.some((e) => e.id === event.id)) events.push(event);
      bySession.set(session, events);
    }
    const violations = [...bySession].map(([session, events]) => firstArrivalViolation(events, session)).filter(Boolean);
    expect(violations).toEqual([]);
  }, 150_000);
});

/** The session's events in the order they first arrived, judged as their timestamps would be: by rank, never down. */
function firstArrivalViolation(events: readonly PayinEvent[], session: string) {
  const arrivalOrdered = events.map((event, i) => ({ ...event, timestamp: new Date(Date.UTC(2026, 0, 1, 0, 0, i)).toISOString() }));
  return orderViolation(arrivalOrdered, session);
}

/** An event as the implied set names it: its account's token, type, session and transaction. */
function keyOf(token: string, event: PayinEvent) {
  const data = event.data as { session_id: string; transaction_id?: string };
  return `${token} ${event.type} ${data.session_id} ${EVENT_RULES[event.type].about === "transaction" ? data.transaction_id : ""}`;
}

/** What the database has of the missing events' sessions: each event's state, attempts and times, and each attempt's outcome. */
async function explain(database: string, missing: readonly string[]) {
  const db = new pg.Client(database);
  await db.connect();
  try {
    const lines: string[] = [];
    for (const session of new Set(missing.slice(0, 5).map((key) => key.split(" ")[2]!))) {
      const { rows } = await db.query(
        `SELECT e.seq, e.type, e.state, e.attempts, e.due_ms, e.claim_until_ms, d.attempt, d.response_status, d.error, d.attempted_at_ms
        FROM events e LEFT JOIN delivery_attempts d ON d.account_id = e.account_id AND d.event_id = e.id
        WHERE e.session_id = $1 ORDER BY e.seq, d.attempt`,
        [session],
      );
      lines.push(session, ...rows.map((r) => `  ${Object.values(r).join(" ")}`));
    }
    return `${missing.length} missing, at ${Date.now()}:\n${lines.join("\n")}`;
  } finally {
    await db.end();
  }
}
