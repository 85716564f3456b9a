// One tenant of a hosted sandbox attacking the others' share of it, for the test that holds the
// fair-shares goal (test/sandbox/fair-shares.test.ts) and the bench that measures it
// (fair-shares.ts): two payin-sandbox processes on one throwaway PostgreSQL, started as the
// hosting guide's company starts them (--accounts issued --rate-limit 50 --retention 30d, its
// balancer on loopback); a victim tenant that sends 20 requests a second whatever the answers
// (open loop) and receives its deliveries; an attacker that stays inside its rate limit. Each
// attack is measured alike: the victim alone, then the victim while the attack runs; where the
// attack's requests are ones no rate limit counts, also the database commits it adds, the
// attack alone against the sandbox idle.
import { spawn, type ChildProcess } from "node:child_process";
import { randomBytes } from "node:crypto";
import { Agent, createServer, request } from "node:http";
import type { AddressInfo } from "node:net";
import { setTimeout as sleep } from "node:timers/promises";
import pg from "pg";
import { newCounterparty, sessionBody } from "../../src/conformance/fixtures.ts";
import { RETRY_JITTER, RETRY_SCHEDULE_SECONDS } from "../../src/lib/contract-facts.ts";
import { Store } from "../../src/sandbox/store/index.ts";
import { startPostgres } from "../lib/temp-postgres.ts";

/** Every process's flags: a company's hosted sandbox (the hosting guide), its load balancer on loopback. */
export const HOSTED_FLAGS = ["--accounts", "issued", "--rate-limit", "50", "--retention", "30d", "--trusted-proxy", "127.0.0.0/8"];
/** Requests a second each token may make to each process (`--rate-limit`), with a burst of as many at once. */
export const RATE_LIMIT = 50;
const PROCESSES = 2;
/** The victim's pace: a request every 50 ms, sent whatever became of the ones before. */
export const VICTIM_PER_SECOND = 20;
/** Every fifth victim request creates a session, whose session-created is then delivered to the victim's endpoint. */
const CREATE_EVERY = 5;
/** A victim request unanswered this long is a timeout, cut there: the bound a hosted sandbox gives its database. */
export const VICTIM_TIMEOUT_MS = 5000;
/** An attacker's request is cut after this long, so that stopping an attack takes a bounded time. */
const ATTACKER_TIMEOUT_MS = 10_000;
/** How long an attack's requests under way may take to end once it stops, before they are cut. */
const STOP_GRACE_MS = 2000;
/**
 * How long a backend may keep its commits before pg_stat_database counts them (PostgreSQL 15's PGSTAT_IDLE_INTERVAL): a
 * busy one hands them over at most once a second, but one that goes idle within a second of its last hand-over waits
 * 10 s, or until it exits. Commits are counted only this long after the last request before the count.
 */
const STATS_IDLE_FLUSH_MS = 10_500;
/** A busy backend hands its counts over at most once a second: a count waits this long after the work. */
const STATS_FLUSH_MS = 1200;
/** The longest a sandbox is waited for to finish what the last attack left. */
const QUIET_WITHIN_MS = 15_000;
/** Attempts a delivery log holds per event: the first and the seven retries of the contract's schedule. */
const ATTEMPTS_PER_EVENT = 8;

/** The goal the fixes must reach, while an attacker stays inside its rate limit. */
export const GOALS = {
  /** The victim's p99 attacked stays under this many times its p99 alone... */
  p99Times: 3,
  /** ...or its p99 alone and this much, the larger. */
  p99PlusMs: 100,
  /** Each of the victim's deliveries arrives within this long of its due time. */
  latenessMs: 2000,
  /** A flood of requests no rate limit counts adds at most this many database commits a second per process. */
  commitsPerSecond: 3,
} as const;

export type Goals = { readonly [K in keyof typeof GOALS]: number };

/** How much of each thing a run makes: the test's are a few seconds each, the bench's the review's own figures. */
export interface Sizes {
  /** Victim requests alone, then while attacked. */
  alone: number;
  attacked: number;
  /** Events due in the attacker's backlog. */
  backlogEvents: number;
  /** Delivery attempts in the attacker's log. */
  logAttempts: number;
  /** How long the commits are counted: the sandbox idle, then from the attack's start, each this long (whole two seconds). */
  commitWindowMs: number;
  /** Whether every window measures the victim's deliveries, or only those of an attack on deliveries (each wait costs a retry's delay). */
  everyLateness: boolean;
}

/** A tenant as the balancer passes it on: its token, and the client address the balancer names in X-Forwarded-For. */
export interface Party {
  token: string;
  address: string;
}

type Account = Party & { id: number };

export interface HostedSandbox {
  urls: string[];
  /** The first retry's delay the processes were given, in seconds. */
  firstRetrySeconds: number;
  /** The test's own connections to the sandbox's database: rows put in as the sandbox writes them, and its records read. */
  sql: pg.Pool;
  /** The sandbox's database, where `payin-sandbox accounts` issues and revokes accounts. */
  database: string;
  /** The commits of the sandbox's database so far (`pg_stat_database.xact_commit`, read from another database). */
  commits(): Promise<number>;
  /**
   * Resolves once no statement is under way in the sandbox's database (what an attack left, such as a list cut by its
   * client, runs on to its timeout), for at most QUIET_WITHIN_MS: a victim alone is measured alone.
   */
  quiet(): Promise<void>;
  /** The last lines each process wrote to stderr, for a failure's message. */
  logTail(): string;
  stop(): Promise<void>;
}

/**
 * A throwaway PostgreSQL (`settings` as temp-postgres.ts takes them) and two processes of `cli` on one database of it,
 * with the hosted flags and, when given, `retrySchedule` (seconds).
 */
export async function startHostedSandbox({
  cli,
  settings = "test",
  retrySchedule,
}: {
  cli: string;
  settings?: "test" | "sandbox";
  retrySchedule?: readonly number[];
}): Promise<HostedSandbox> {
  const cluster = startPostgres(settings);
  const children: ChildProcess[] = [];
  const tails: string[][] = [];
  const opened: Array<{ end(): Promise<void> }> = [];
  const stop = async () => {
    for (const child of children) child.kill("SIGKILL");
    await Promise.all(opened.map((o) => o.end().catch(() => {})));
    cluster.stop();
  };
  try {
    const database = cluster.createDatabase();
    // The schema is made here, once, before the processes start.
    await (await Store.open({ postgres: database })).close();
    const sql = new pg.Pool({ connectionString: database, max: 2 });
    opened.push(sql);
    const admin = new pg.Client({ connectionString: cluster.adminUrl });
    await admin.connect();
    opened.push(admin);
    // Autovacuum's workers visit each database a minute apart, a transaction a table, and the database's commits count
    // theirs with the sandbox's: a burst of them in a window would be taken for the attack's.
    await admin.query("ALTER SYSTEM SET autovacuum = off");
    await admin.query("SELECT pg_reload_conf()");
    const name = new URL(database).pathname.slice(1);
    const schedule = retrySchedule ? ["--retry-schedule", retrySchedule.join(",")] : [];
    const urls = await Promise.all(
      Array.from({ length: PROCESSES }, () => {
        const tail: string[] = [];
        tails.push(tail);
        return startProcess(cli, ["--database", database, ...HOSTED_FLAGS, ...schedule], children, tail);
      }),
    );
    const sandbox: HostedSandbox = {
      urls,
      firstRetrySeconds: (retrySchedule ?? RETRY_SCHEDULE_SECONDS)[0] ?? 0,
      sql,
      database,
      async commits() {
        const { rows } = await admin.query<{ commits: string }>("SELECT xact_commit AS commits FROM pg_stat_database WHERE datname = $1", [
          name,
        ]);
        return Number(rows[0]!.commits);
      },
      async quiet() {
        const busy = async () =>
          Number(
            (
              await admin.query<{ busy: string }>(
                "SELECT COUNT(*) AS busy FROM pg_stat_activity WHERE datname = $1 AND state IN ('active', 'idle in transaction')",
                [name],
              )
            ).rows[0]!.busy,
          );
        const deadline = performance.now() + QUIET_WITHIN_MS;
        // Twice in a row, a poll apart: a statement between two others of the same request leaves no gap that long.
        for (let calm = 0; calm < 2 && performance.now() < deadline; calm = (await busy()) === 0 ? calm + 1 : 0) await sleep(100);
      },
      // Each line marked as the process's, so that no runner takes its stack's lines for the failure's own.
      logTail: () => tails.map((tail, i) => tail.map((line) => `process ${i + 1} | ${line}`).join("\n")).join("\n"),
      stop,
    };
    // A process's first requests compile its code: a tenant's traffic first, so that no victim's figures alone count that.
    const warm = await newVictim(sandbox, "192.0.2.1");
    await victimWindow(sandbox, warm, 20, false);
    await warm.endpoint.close();
    await revoke(sandbox, warm);
    return sandbox;
  } catch (error) {
    await stop();
    throw error;
  }
}

/** A payin-sandbox process, once it says where it listens; the last lines of its stderr kept in `tail`. */
function startProcess(cli: string, args: string[], children: ChildProcess[], tail: string[]): Promise<string> {
  const child = spawn(process.execPath, [cli, "--port", "0", ...args], { stdio: ["ignore", "pipe", "pipe"] });
  children.push(child);
  child.stderr!.on("data", (chunk: Buffer) => {
    tail.push(...chunk.toString().trimEnd().split("\n"));
    tail.splice(0, Math.max(0, tail.length - 10));
  });
  return new Promise((resolve, reject) => {
    // Read to the end, so that a full pipe never stops the process.
    child.stdout!.on("data", (chunk: Buffer) => {
      const found = chunk.toString().match(/listening on (http:\/\/\S+)/)?.[1];
      if (found) resolve(found);
    });
    child.once("exit", (code) => reject(new Error(`payin-sandbox exited with ${code}: ${tail.join("\n")}`)));
  });
}

/**
 * Kept-alive connections for every party's requests. node:http rather than fetch: a flood of 1,000 requests a second
 * costs this process a third of fetch's CPU, which the sandbox's processes would otherwise lose on two shared cores.
 */
const agent = new Agent({ keepAlive: true });

/** A request as a party sends it through the balancer, and its answer's status and text. */
function call(
  url: string,
  party: Party | undefined,
  method: string,
  path: string,
  body?: unknown,
  signal?: AbortSignal,
): Promise<{ status: number; text: string }> {
  const payload = body === undefined ? undefined : JSON.stringify(body);
  return new Promise((resolve, reject) => {
    const headers = {
      ...(party ? { Authorization: `Bearer ${party.token}`, "X-Forwarded-For": party.address } : {}),
      ...(payload === undefined ? {} : { "Content-Type": "application/json", "Content-Length": String(Buffer.byteLength(payload)) }),
    };
    const req = request(url + path, { method, headers, agent, ...(signal ? { signal } : {}) }, (res) => {
      const chunks: Buffer[] = [];
      res.on("data", (chunk: Buffer) => chunks.push(chunk));
      res.on("end", () => resolve({ status: res.statusCode!, text: Buffer.concat(chunks).toString() }));
      res.on("error", reject);
    });
    req.on("error", reject);
    req.end(payload);
  });
}

/** The answer's JSON, or a throw naming what could not be set up. */
function must(answer: { status: number; text: string }, what: string) {
  if (answer.status >= 300) throw new Error(`${what}: answered ${answer.status} ${answer.text}`);
  return JSON.parse(answer.text) as { id: string };
}

/**
 * The store in this process for one operation, opened and closed as `payin-sandbox accounts` does: a store kept open
 * listens on the database's channel, and a listening connection reads every message sent there in a transaction of its
 * own, which would count among the sandbox's commits.
 */
async function withStore<T>(sandbox: HostedSandbox, use: (store: Store) => Promise<T>): Promise<T> {
  const store = await Store.open({ postgres: sandbox.database });
  try {
    return await use(store);
  } finally {
    await store.close();
  }
}

/** An account issued to a tenant, as `payin-sandbox accounts create` does it. */
async function issue(sandbox: HostedSandbox, name: string, address: string): Promise<Account> {
  const { id, token } = await withStore(sandbox, (store) => store.accounts.issue(name));
  return { id, token, address };
}

/**
 * Revokes the account with all it held, so that nothing of one attack (a backlog still delivered) reaches the next. Its
 * deliveries are stopped first, under the store: an attempt recorded while the revocation deletes (a process's, which
 * claimed the event before) fails the deletion on the attempts' key to the account. Again after a pause when it fails.
 */
async function revoke(sandbox: HostedSandbox, account: Account) {
  await sandbox.sql.query(
    `UPDATE events SET state = 'failed', due_ms = NULL, claim = NULL, claim_until_ms = NULL
     WHERE account_id = $1 AND state IN ('pending', 'waiting')`,
    [account.id],
  );
  for (let tries = 1; ; tries++)
    try {
      await withStore(sandbox, (store) => store.revoke(account.id));
      return;
    } catch (error) {
      if (tries === 5) throw error;
      await sleep(500);
    }
}

/** A loopback port that nothing listens on: a webhook URL there is refused at once, every attempt failing. */
async function closedPort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  await new Promise((resolve) => server.close(resolve));
  return port;
}

/** Each event the victim's endpoint got: its session, when it was first due (its timestamp), when each attempt arrived. */
interface Received {
  sessionId: string;
  dueMs: number;
  arrivals: number[];
}

/** The victim's webhook endpoint: it refuses the first attempt of every event (500), so that each has a retry, and takes the rest. */
async function startEndpoint() {
  const events = new Map<string, Received>();
  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on("data", (chunk: Buffer) => chunks.push(chunk));
    req.on("end", () => {
      const at = Date.now();
      const id = String(req.headers["webhook-id"]);
      let event = events.get(id);
      if (!event) {
        const body = JSON.parse(Buffer.concat(chunks).toString()) as { timestamp: string; data: { session_id: string } };
        events.set(id, (event = { sessionId: body.data.session_id, dueMs: Date.parse(body.timestamp), arrivals: [] }));
      }
      event.arrivals.push(at);
      res.writeHead(event.arrivals.length === 1 ? 500 : 204).end();
    });
  });
  server.keepAliveTimeout = 60_000;
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/webhooks`,
    events,
    close: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      }),
  };
}

export type Victim = Account & { endpoint: Awaited<ReturnType<typeof startEndpoint>>; counterpartyId: string };

/** A tenant with an issued token, a webhook URL (its endpoint) and a counterparty to make sessions for. */
async function newVictim(sandbox: HostedSandbox, address: string): Promise<Victim> {
  const account = await issue(sandbox, "victim", address);
  const endpoint = await startEndpoint();
  const url = sandbox.urls[0]!;
  must(await call(url, account, "POST", "/webhooks", { url: endpoint.url }), "registering the victim's webhook");
  const counterparty = must(
    await call(url, account, "POST", "/api/v1/send/counterparties/", newCounterparty()),
    "the victim's counterparty",
  );
  return { ...account, endpoint, counterpartyId: counterparty.id };
}

/** How late the victim's deliveries arrived: each first attempt from its event's time, each retry from when it was due. */
export interface Lateness {
  deliveries: number;
  /** Those more than GOALS.latenessMs late, or not arrived by then. */
  late: number;
  worstMs: number;
}

export interface VictimFigures {
  requests: number;
  p50Ms: number;
  /** Nearest rank: of fewer than 100 requests, the slowest. */
  p99Ms: number;
  serverErrors: number;
  tooMany: number;
  timeouts: number;
  /** Any other answer but a 2xx (a 401, a 404): the victim's requests are all valid. */
  otherFailures: number;
  /** Where measured. */
  lateness?: Lateness;
}

/** The value at percentile `p` of `values` by nearest rank. */
export function percentile(values: readonly number[], p: number): number {
  if (values.length === 0) return Number.NaN;
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.max(0, Math.ceil((p / 100) * sorted.length) - 1))]!;
}

/**
 * `count` victim requests at VICTIM_PER_SECOND, through the processes in turn: GET /webhooks, and every fifth a create
 * payment session; then, with `deliveries`, its sessions' deliveries, waited for until each has arrived twice (the
 * endpoint refuses the first) or is late past the goal.
 */
async function victimWindow(sandbox: HostedSandbox, victim: Victim, count: number, deliveries: boolean): Promise<VictimFigures> {
  const latencies: number[] = [];
  const figures = { requests: count, serverErrors: 0, tooMany: 0, timeouts: 0, otherFailures: 0 };
  const sessions: Array<{ id: string; createdAtMs: number }> = [];
  const send = async (i: number) => {
    const url = sandbox.urls[i % sandbox.urls.length]!;
    const create = i % CREATE_EVERY === CREATE_EVERY - 1;
    const started = performance.now();
    try {
      const answer = create
        ? await call(
            url,
            victim,
            "POST",
            "/api/v1/earn/payment-sessions/",
            sessionBody(victim.counterpartyId),
            AbortSignal.timeout(VICTIM_TIMEOUT_MS),
          )
        : await call(url, victim, "GET", "/webhooks", undefined, AbortSignal.timeout(VICTIM_TIMEOUT_MS));
      latencies.push(performance.now() - started);
      if (answer.status >= 500) figures.serverErrors++;
      else if (answer.status === 429) figures.tooMany++;
      else if (answer.status >= 300) figures.otherFailures++;
      else if (create) sessions.push({ id: (JSON.parse(answer.text) as { id: string }).id, createdAtMs: Date.now() });
    } catch {
      // Cut at the timeout, or no connection: either way no answer.
      latencies.push(VICTIM_TIMEOUT_MS);
      figures.timeouts++;
    }
  };
  const started = performance.now();
  const sent: Array<Promise<void>> = [];
  for (let i = 0; i < count; i++) {
    const wait = started + (i * 1000) / VICTIM_PER_SECOND - performance.now();
    if (wait > 0) await sleep(wait);
    sent.push(send(i));
  }
  await Promise.all(sent);
  return {
    ...figures,
    p50Ms: percentile(latencies, 50),
    p99Ms: percentile(latencies, 99),
    ...(deliveries ? { lateness: await lateness(sandbox, victim, sessions) } : {}),
  };
}

/**
 * Waits for each session's session-created to have arrived twice, or until it would be late past the goal; then how
 * late each attempt was: the first from the event's timestamp (the victim's clock is never advanced: real time), the
 * retry from the time the sandbox recorded it due (`next_attempt_at_ms`, read under the store), or at the latest its
 * schedule allows when no record says. An attempt not arrived counts as late as it is by now.
 */
async function lateness(sandbox: HostedSandbox, victim: Victim, sessions: Array<{ id: string; createdAtMs: number }>): Promise<Lateness> {
  const retryLatestMs = sandbox.firstRetrySeconds * (1 + RETRY_JITTER) * 1000;
  const deadline = Date.now() + retryLatestMs + GOALS.latenessMs + 500;
  const received = () => {
    const bySession = new Map<string, [string, Received]>();
    for (const [id, event] of victim.endpoint.events) bySession.set(event.sessionId, [id, event]);
    return bySession;
  };
  while (Date.now() < deadline && !sessions.every((s) => (received().get(s.id)?.[1].arrivals.length ?? 0) >= 2)) await sleep(50);
  const now = Date.now();
  const { rows } = await sandbox.sql.query<{ event_id: string; next_attempt_at_ms: string | null }>(
    "SELECT event_id, next_attempt_at_ms FROM delivery_attempts WHERE account_id = $1 AND attempt = 1",
    [victim.id],
  );
  const retryDue = new Map(rows.map((row) => [row.event_id, row.next_attempt_at_ms === null ? undefined : Number(row.next_attempt_at_ms)]));
  const bySession = received();
  const late: number[] = [];
  for (const session of sessions) {
    const found = bySession.get(session.id);
    if (!found) {
      late.push(now - session.createdAtMs);
      continue;
    }
    const [id, event] = found;
    const first = event.arrivals[0]!;
    late.push(first - event.dueMs);
    late.push((event.arrivals[1] ?? now) - (retryDue.get(id) ?? first + retryLatestMs));
  }
  return { deliveries: late.length, late: late.filter((ms) => ms > GOALS.latenessMs).length, worstMs: Math.max(0, ...late) };
}

/** What an attacker sent and how it was answered, by status ("cut": no answer before it stopped or timed out). */
export interface AttackerFigures {
  requests: number;
  seconds: number;
  statuses: Record<string, number>;
}

interface Runner {
  stop(): Promise<AttackerFigures>;
}

/** An attacker's requests: each counted by its answer's status, cut when the attack stops (after a grace) or times out. */
class Requests {
  readonly statuses: Record<string, number> = {};
  readonly #cut = new AbortController();
  readonly #started = performance.now();
  readonly #under = new Set<Promise<void>>();
  requests = 0;

  send(request: (signal: AbortSignal) => Promise<number>): Promise<void> {
    this.requests++;
    const count = (status: string) => void (this.statuses[status] = (this.statuses[status] ?? 0) + 1);
    const sent = request(AbortSignal.any([this.#cut.signal, AbortSignal.timeout(ATTACKER_TIMEOUT_MS)])).then(
      (status) => count(String(status)),
      () => count("cut"),
    );
    const under = sent.finally(() => this.#under.delete(under));
    this.#under.add(under);
    return under;
  }

  get underWay() {
    return this.#under.size;
  }

  /** Once `loops` end: the requests under way get the grace, then are cut. */
  async end(loops: Promise<unknown>): Promise<AttackerFigures> {
    const seconds = (performance.now() - this.#started) / 1000;
    const ended = Promise.all([loops, ...this.#under]);
    await Promise.race([ended, sleep(STOP_GRACE_MS)]);
    this.#cut.abort();
    await Promise.allSettled([loops, ...this.#under]);
    return { requests: this.requests, seconds, statuses: this.statuses };
  }
}

/**
 * `workers` loops, each sending `step`'s request and then the next, all together at `perSecond` at most: a slot missed
 * while every worker waited for an answer is not made up, so the pace never bursts past the rate.
 */
function paced(perSecond: number, workers: number, step: (worker: number, signal: AbortSignal) => Promise<number>): Runner {
  const requests = new Requests();
  const interval = 1000 / perSecond;
  let nextAt = performance.now();
  let stopped = false;
  const loops = Promise.all(
    Array.from({ length: workers }, async (_, worker) => {
      while (!stopped) {
        const now = performance.now();
        const at = Math.max(nextAt, now);
        nextAt = at + interval;
        if (at > now) await sleep(at - now);
        if (!stopped) await requests.send((signal) => step(worker, signal));
      }
    }),
  );
  return {
    stop() {
      stopped = true;
      return requests.end(loops);
    },
  };
}

/** Every `everyMs`, `size` requests at once to each process (`step` numbered by wave and place), whatever became of the last wave. */
function waves(everyMs: number, size: number, step: (wave: number, i: number, signal: AbortSignal) => Promise<number>): Runner {
  const requests = new Requests();
  let stopped = false;
  const loop = (async () => {
    for (let wave = 0; !stopped; wave++) {
      const at = performance.now();
      // Bounded in any case: a sandbox that answers nothing gets no more than ten waves under way.
      if (requests.underWay < 10 * size * PROCESSES)
        for (let i = 0; i < size * PROCESSES; i++) void requests.send((signal) => step(wave, i, signal));
      while (!stopped && performance.now() < at + everyMs) await sleep(Math.max(0, Math.min(50, at + everyMs - performance.now())));
    }
  })();
  return {
    stop() {
      stopped = true;
      return requests.end(loop);
    },
  };
}

/** Several runners as one attack. */
const together = (...runners: Runner[]): Runner => ({
  async stop() {
    const all = await Promise.all(runners.map((r) => r.stop()));
    const statuses: Record<string, number> = {};
    for (const f of all) for (const [status, n] of Object.entries(f.statuses)) statuses[status] = (statuses[status] ?? 0) + n;
    return { requests: all.reduce((sum, f) => sum + f.requests, 0), seconds: Math.max(...all.map((f) => f.seconds)), statuses };
  },
});

/** A request's status, its body read and dropped. */
const status = (answer: Promise<{ status: number }>) => answer.then((a) => a.status);

export interface AttackContext {
  sandbox: HostedSandbox;
  attacker: Account;
  victim: Victim;
  sizes: Sizes;
}

export interface Attack {
  title: string;
  /** How long it runs before the victim's window, for its harm to build up (a bucket to empty, a backlog to come due). */
  leadMs: number;
  /** It concerns deliveries: the victim's must arrive within GOALS.latenessMs of due. */
  deliveries: boolean;
  /** Its requests are ones no rate limit counts: the commits it adds are held to GOALS.commitsPerSecond. */
  commits: boolean;
  /** What the attacker's account holds before it starts. */
  prepare?(context: AttackContext): Promise<void>;
  start(context: AttackContext): Promise<Runner>;
}

/** Through process 1, the attacker makes a counterparty and a session: with no URL registered, its event waits. */
async function attackerSession({ sandbox, attacker }: AttackContext): Promise<string> {
  const url = sandbox.urls[0]!;
  const counterparty = must(
    await call(url, attacker, "POST", "/api/v1/send/counterparties/", newCounterparty()),
    "the attacker's counterparty",
  );
  return must(await call(url, attacker, "POST", "/api/v1/earn/payment-sessions/", sessionBody(counterparty.id)), "the attacker's session")
    .id;
}

/**
 * Copies the account's session `sessionId`, with its events, `count` times, as the sandbox writes them (the copies'
 * ids are the original's with a number for its last seven characters), in SQL: a client would take hours at its rate.
 * The events keep their state unless `finished`: then each has failed after ATTEMPTS_PER_EVENT attempts.
 */
async function copySession({ sandbox, attacker }: AttackContext, sessionId: string, count: number, finished = false) {
  const numbered = (column: string) => `left(${column}, length(${column}) - 7) || lpad(n::text, 7, '0')`;
  const copies = "generate_series(1, $3::int) AS n WHERE t.account_id = $1";
  await copyRows(sandbox.sql, "payment_sessions", { id: numbered("t.id") }, `payment_sessions t, ${copies} AND t.id = $2`, [
    attacker.id,
    sessionId,
    count,
  ]);
  const failed = { state: "'failed'", due_ms: "NULL", attempts: String(ATTEMPTS_PER_EVENT), claim: "NULL", claim_until_ms: "NULL" };
  const events = { id: numbered("t.id"), session_id: numbered("t.session_id"), ...(finished ? failed : {}) };
  await copyRows(sandbox.sql, "events", events, `events t, ${copies} AND t.session_id = $2`, [attacker.id, sessionId, count]);
}

/**
 * INSERT … SELECT into `table` from `from` (the rows copied aliased `t`): every column the sandbox's schema has now,
 * taken from `t` unless `values` gives it another expression, so that a column a later migration adds is copied too.
 */
async function copyRows(sql: pg.Pool, table: string, values: Record<string, string>, from: string, parameters: unknown[]) {
  const columns = await writableColumns(sql, table);
  const expressions = columns.map((column) => values[column] ?? `t.${column}`);
  await sql.query(`INSERT INTO ${table} (${columns.join(", ")}) SELECT ${expressions.join(", ")} FROM ${from}`, parameters);
}

/** The columns of `table` an insert writes (not an identity's), in their order. */
async function writableColumns(sql: pg.Pool, table: string): Promise<string[]> {
  const { rows } = await sql.query<{ name: string }>(
    `SELECT column_name AS name FROM information_schema.columns
     WHERE table_schema = current_schema() AND table_name = $1 AND is_identity = 'NO' AND is_generated = 'NEVER'
     ORDER BY ordinal_position`,
    [table],
  );
  return rows.map((row) => row.name);
}

const deliveriesPath = "/_sandbox/v1/deliveries";

/** The attacks of the review, each inside the attacker's rate limit. */
export const ATTACKS = {
  backlog: {
    title: "a backlog of due events to a URL that refuses every attempt",
    leadMs: 500,
    deliveries: true,
    commits: false,
    async prepare(context) {
      // Its sessions made while no URL was registered: every event waits for one.
      await copySession(context, await attackerSession(context), context.sizes.backlogEvents - 1);
    },
    async start({ sandbox, attacker }) {
      // Registering a URL makes every waiting event due at once.
      const url = `http://127.0.0.1:${await closedPort()}/hook`;
      const requests = new Requests();
      await requests.send((signal) => status(call(sandbox.urls[0]!, attacker, "POST", "/webhooks", { url }, signal)));
      return { stop: () => requests.end(Promise.resolve()) };
    },
  },
  bursts: {
    title: "waves of 50 at once per process: clock advances of an empty account, then webhook registrations, in turn",
    leadMs: 300,
    deliveries: false,
    commits: false,
    async start({ sandbox, attacker }) {
      const url = `http://127.0.0.1:${await closedPort()}/hook`;
      // A wave a little over a second apart: each finds its token's bucket full again, so none is refused for the rate.
      return waves(1100, RATE_LIMIT, (wave, i, signal) => {
        const to = sandbox.urls[i % sandbox.urls.length]!;
        return status(
          wave % 2 === 0
            ? call(to, attacker, "POST", "/_sandbox/v1/clock/advance", { seconds: 1 }, signal)
            : call(to, attacker, "POST", "/webhooks", { url }, signal),
        );
      });
    },
  },
  lists: {
    title:
      "the delivery log listed by twelve clients at once per process: half page through it by next_cursor, half ask with no parameters",
    leadMs: 500,
    deliveries: false,
    commits: false,
    async prepare(context) {
      const { sandbox, attacker, sizes } = context;
      const sessionId = await attackerSession(context);
      must(await call(sandbox.urls[0]!, attacker, "POST", "/webhooks", { url: `http://127.0.0.1:${await closedPort()}/hook` }), "the URL");
      // One attempt made by the sandbox, the model of the log's rows.
      const deadline = Date.now() + 10_000;
      const attempts = async () =>
        (await sandbox.sql.query("SELECT 1 FROM delivery_attempts WHERE account_id = $1", [attacker.id])).rowCount ?? 0;
      while ((await attempts()) === 0)
        if (Date.now() > deadline) throw new Error("the attacker's first attempt was never recorded");
        else await sleep(50);
      const events = Math.ceil(sizes.logAttempts / ATTEMPTS_PER_EVENT);
      await copySession(context, sessionId, events, true);
      // Each copied event's attempts, made a second apart an hour ago, the model's answer and request headers each; an
      // attempt names its event by id and, where the schema keeps it (the log's paging reads it), by number.
      const attempted = "t.attempted_at_ms - 3600000 + e.seq * 10 + a";
      await copyRows(
        sandbox.sql,
        "delivery_attempts",
        {
          event_id: "e.id",
          event_seq: "e.seq",
          attempt: "a",
          attempted_at_ms: attempted,
          next_attempt_at_ms: `CASE WHEN a < $2 THEN ${attempted} + 1000 END`,
        },
        `events e, generate_series(1, $2::int) AS a, (SELECT * FROM delivery_attempts WHERE account_id = $1 ORDER BY attempt LIMIT 1) AS t
         WHERE e.account_id = $1 AND e.session_id <> $3`,
        [attacker.id, ATTEMPTS_PER_EVENT, sessionId],
      );
    },
    async start({ sandbox, attacker }) {
      // Twelve at once to each process, 45 a second at most (inside the rate limit of 50): more than its pool's ten.
      const lister = (to: string) => {
        const cursors: Array<string | undefined> = [];
        return paced(45, 12, async (worker, signal) => {
          if (worker % 2 === 1) return status(call(to, attacker, "GET", deliveriesPath, undefined, signal));
          const cursor = cursors[worker];
          const path = `${deliveriesPath}?limit=100${cursor ? `&cursor=${encodeURIComponent(cursor)}` : ""}`;
          const answer = await call(to, attacker, "GET", path, undefined, signal);
          // Read from the text, not parsed: a sandbox that pages nothing answers megabytes.
          cursors[worker] = answer.status === 200 ? /"next_cursor"\s*:\s*"([^"]+)"/.exec(answer.text)?.[1] : undefined;
          return answer.status;
        });
      };
      return together(...sandbox.urls.map(lister));
    },
  },
  refusedTokens: {
    title: "20 invented tokens a second from the victim's own address (a shared NAT)",
    leadMs: 1200,
    deliveries: false,
    commits: false,
    async start({ sandbox, victim }) {
      // Ten to each process at the start of each second: the refusals' burst of 20 an address is spent within the lead.
      return waves(1000, 10, (_, i, signal) => {
        const invented = { token: `payin_sbx_${randomBytes(32).toString("base64url")}`, address: victim.address };
        return status(call(sandbox.urls[i % sandbox.urls.length]!, invented, "GET", "/webhooks", undefined, signal));
      });
    },
  },
  listenerAnswers: {
    title: "800 listener answers a second, for deliveries no listener holds",
    leadMs: 300,
    deliveries: false,
    commits: true,
    async start({ sandbox, attacker }) {
      let turn = 0;
      return paced(800, 32, (_, signal) => {
        const delivery = `dlv_${Date.now().toString(36)}${randomBytes(12).toString("base64url")}`;
        const to = sandbox.urls[turn++ % sandbox.urls.length]!;
        return status(call(to, attacker, "POST", `/_sandbox/v1/listen/deliveries/${delivery}`, { status: 204 }, signal));
      });
    },
  },
  anonymous: {
    title: "anonymous floods of /_sandbox/health (787 a second) and /_sandbox/metrics (223 a second)",
    leadMs: 300,
    deliveries: false,
    commits: true,
    async start({ sandbox }) {
      let turn = 0;
      const flood = (perSecond: number, workers: number, path: string) =>
        paced(perSecond, workers, (_, signal) =>
          status(call(sandbox.urls[turn++ % sandbox.urls.length]!, undefined, "GET", path, undefined, signal)),
        );
      return together(flood(787, 24, "/_sandbox/health"), flood(223, 8, "/_sandbox/metrics"));
    },
  },
} satisfies Record<string, Attack>;

export type AttackName = keyof typeof ATTACKS;

export interface AttackFigures {
  name: AttackName;
  attack: Attack;
  alone: VictimFigures;
  attacked: VictimFigures;
  attacker: AttackerFigures;
  /** Where counted: the commits a second per process the attack alone added to the idle sandbox's, and its own rate then. */
  commits?: { addedPerSecond: number; idlePerSecond: number; attacker: AttackerFigures };
}

/**
 * The commits a second per process the attack adds: counted over `windowMs` of the sandbox idle, once the last
 * request before is counted, then over as long from the attack's start, the attack running until the count's end; the
 * idle count, in proportion, taken from the attack's. The windows last whole two seconds, so that every timer of the
 * sandbox that commits (each second's look for due work and deliveries, each two seconds' listener leases) falls about
 * as many times in each; whole ten seconds (the bench's) see the ten seconds' look for dead listeners as often too.
 */
async function commitsAdded(context: AttackContext, attack: Attack, windowMs: number) {
  const { sandbox, attacker: party } = context;
  const until = (at: number) => sleep(Math.max(0, at - performance.now()));
  /**
   * The database's commits once every backend that took part has handed its counts over: a second after a busy one's
   * last hand-over, each process's listening connection made to run a query (a request's look-up of its account asks
   * that connection whether it is caught up), at whose end that backend hands over what it keeps. It keeps them
   * otherwise, well past PGSTAT_IDLE_INTERVAL: the transactions in which it answered such questions, and read messages.
   * Each window ends with one: their own commits are in both.
   */
  const handedOver = async () => {
    await sleep(STATS_FLUSH_MS);
    for (const url of sandbox.urls) must(await call(url, party, "GET", "/_sandbox/v1/faults"), "asking each process to hand over");
    await sleep(300);
    return sandbox.commits();
  };
  const countTakesMs = STATS_FLUSH_MS + 400;
  // The parties' set-up (and whatever came before) counted before the count begins.
  await sleep(STATS_IDLE_FLUSH_MS);
  const idleFrom = await handedOver();
  const idleStarted = performance.now();
  await until(idleStarted + windowMs - countTakesMs);
  const attackFrom = await handedOver();
  const idleSeconds = (performance.now() - idleStarted) / 1000;
  const attackStarted = performance.now();
  const runner = await attack.start(context);
  await until(attackStarted + windowMs - countTakesMs);
  const attacker = await runner.stop();
  const attackCommits = (await handedOver()) - attackFrom;
  const idle = attackFrom - idleFrom;
  const added = attackCommits - (idle * (performance.now() - attackStarted)) / 1000 / idleSeconds;
  return { addedPerSecond: added / attacker.seconds / PROCESSES, idlePerSecond: idle / idleSeconds / PROCESSES, attacker };
}

/**
 * One attack, measured: the attacker's account made ready, the commits the attack adds counted where its requests are
 * ones no rate limit counts, a new victim alone, then the victim again while the attack runs (its deliveries waited for
 * while it still runs). `round` makes the parties' addresses their own, so that no attack's refusals reach another's victim.
 * Both accounts are revoked after, and what they held goes with them.
 */
export async function runAttack(sandbox: HostedSandbox, name: AttackName, sizes: Sizes, round: number): Promise<AttackFigures> {
  const attack: Attack = ATTACKS[name];
  const victim = await newVictim(sandbox, `198.51.100.${round}`);
  const attacker = await issue(sandbox, `attacker ${name}`, `203.0.113.${round}`);
  try {
    const context = { sandbox, attacker, victim, sizes };
    // A tenant has used its token before it attacks: each process knows its account, and no count below includes the
    // one read of it that a process's first request makes.
    for (const url of sandbox.urls) must(await call(url, attacker, "GET", "/_sandbox/v1/faults"), "the attacker's first request");
    await attack.prepare?.(context);
    await sandbox.quiet();
    // Before the victim's first window, whose deliveries would still be coming while the idle sandbox is counted.
    const commits = attack.commits ? await commitsAdded(context, attack, sizes.commitWindowMs) : undefined;
    const alone = await victimWindow(sandbox, victim, sizes.alone, sizes.everyLateness);
    const runner = await attack.start(context);
    let attacked: VictimFigures;
    let attackerFigures: AttackerFigures;
    try {
      await sleep(attack.leadMs);
      attacked = await victimWindow(sandbox, victim, sizes.attacked, sizes.everyLateness || attack.deliveries);
    } finally {
      attackerFigures = await runner.stop();
    }
    return { name, attack, alone, attacked, attacker: attackerFigures, ...(commits ? { commits } : {}) };
  } finally {
    await victim.endpoint.close();
    await revoke(sandbox, attacker);
    await revoke(sandbox, victim);
  }
}

/** The p99 the victim's attacked requests must stay under. */
export const p99Bound = (alone: VictimFigures, goals: Goals = GOALS) =>
  Math.max(goals.p99Times * alone.p99Ms, alone.p99Ms + goals.p99PlusMs);

/** Each part of the goal the attack broke, in words; empty when it holds. */
/** The goals unmet by an attack's figures; `goals` the review's by default. */
export function unmetGoals(f: AttackFigures, goals: Goals = GOALS): string[] {
  const unmet: string[] = [];
  const { alone, attacked } = f;
  const failures = (v: VictimFigures) => v.serverErrors + v.tooMany + v.timeouts + v.otherFailures;
  if (failures(alone) > 0) unmet.push(`the victim alone already failed ${failures(alone)} requests: the measure is void`);
  if (attacked.serverErrors > 0) unmet.push(`${attacked.serverErrors} of the victim's requests answered 5xx`);
  if (attacked.tooMany > 0) unmet.push(`${attacked.tooMany} of the victim's requests answered 429`);
  if (attacked.timeouts > 0) unmet.push(`${attacked.timeouts} of the victim's requests unanswered within ${VICTIM_TIMEOUT_MS} ms`);
  if (attacked.otherFailures > 0) unmet.push(`${attacked.otherFailures} of the victim's requests answered another failure`);
  if (attacked.p99Ms > p99Bound(alone, goals))
    unmet.push(`the victim's p99 ${ms(attacked.p99Ms)} over its bound ${ms(p99Bound(alone, goals))} (alone ${ms(alone.p99Ms)})`);
  if (f.attack.deliveries && attacked.lateness && attacked.lateness.late > 0)
    unmet.push(
      `${attacked.lateness.late} of the victim's ${attacked.lateness.deliveries} deliveries more than ${GOALS.latenessMs} ms late ` +
        `(the worst ${ms(attacked.lateness.worstMs)})`,
    );
  if (f.commits && f.commits.addedPerSecond > GOALS.commitsPerSecond)
    unmet.push(`${f.commits.addedPerSecond.toFixed(1)} commits a second per process added (at most ${GOALS.commitsPerSecond})`);
  return unmet;
}

const ms = (value: number) => `${value.toFixed(1)} ms`;

/** The attack's figures on one line, for a failure's message. */
export function describeFigures(f: AttackFigures): string {
  const victim = (v: VictimFigures) =>
    `p50 ${ms(v.p50Ms)} p99 ${ms(v.p99Ms)}, 5xx ${v.serverErrors}, 429 ${v.tooMany}, timeouts ${v.timeouts}, ` +
    `other ${v.otherFailures}` +
    (v.lateness ? `, deliveries late ${v.lateness.late} of ${v.lateness.deliveries} (worst ${ms(v.lateness.worstMs)})` : "");
  const attacker = (a: AttackerFigures) => `${a.requests} requests in ${a.seconds.toFixed(1)} s (${JSON.stringify(a.statuses)})`;
  return (
    `${f.name}: alone ${victim(f.alone)}; attacked ${victim(f.attacked)}; attacker ${attacker(f.attacker)}` +
    (f.commits
      ? `; commits added ${f.commits.addedPerSecond.toFixed(1)}/s per process (idle ${f.commits.idlePerSecond.toFixed(1)}/s), ` +
        `the attack alone ${attacker(f.commits.attacker)}`
      : "")
  );
}
