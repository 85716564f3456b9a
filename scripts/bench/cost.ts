// What one paid flow costs the sandbox, counted rather than timed: the statements and
// transactions PostgreSQL ran for it (its own count, pg_stat_statements, BEGIN and COMMIT
// included, with the time it spent planning and executing each), its commits (pg_stat_database),
// and the CPU of the sandbox's process (and of PostgreSQL's) per flow, on SQLite in memory, SQLite
// on a file and PostgreSQL, side by side in alternating rounds; store-cost.ts adds the tree before
// a change of the store to the same rounds. Flows go one at a
// time (paid-flow.ts), each awaited until the four events its requests made have reached the
// endpoint; the fifth, transaction-settled, comes with the sandbox's next look for due work
// (once a second, `--settlement-delay 0`), so a round ends once every flow's fifth is in. What the
// sandbox does when idle (its two looks a second) is measured alone and subtracted. Then each
// request on its own, on an account with no webhook (nothing is delivered), to tell where the cost is.
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import pg from "pg";
import { startPostgres, type TestPostgres } from "../lib/temp-postgres.ts";
import { cpuExactMs } from "./measure.ts";
import { FLOW_EVENTS, FlowClient, paidFlow, percentile, startReceiver, steps, type Receiver } from "./paid-flow.ts";
import { startBin } from "./shared.ts";

/** The goals the section prints against. */
export const COST_GOALS = { statementsPerFlow: 35, cpuRatio: 2 };
const ROUNDS = 5;
const FLOWS_PER_ROUND = 60;
const WARM_UP = 50;
const IDLE_MS = 5000;
/** Long enough for the sandbox's look for due work (every second) to have settled what was paid. */
const SETTLE_MS = 1500;
/** Long enough for the last attempt's record, written once the endpoint has answered, to be in the window. */
const RECORDED_MS = 200;
/**
 * How long a backend may keep its commits before pg_stat_database counts them (PostgreSQL 15's PGSTAT_IDLE_INTERVAL, as in
 * hosted-attacks.ts): a flows window's commits are read this long after it, and a window starts this long after other work.
 */
const STATS_IDLE_FLUSH_MS = 10_500;

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** What PostgreSQL counted for one statement's text: its calls, and the ms it spent planning and executing them. */
export interface StatementCost {
  calls: number;
  planMs: number;
  execMs: number;
}

/** What was used over a window: wall time, the sandbox's CPU, and on PostgreSQL its statements (by text), commits and CPU. */
interface Usage {
  ms: number;
  sandboxCpuMs: number;
  databaseCpuMs: number;
  statements: Map<string, StatementCost>;
  /** The sandbox's database's commits (pg_stat_database), over `commitsMs`: read later than the rest when the window asked. */
  commits: number;
  commitsMs: number;
}

export type Engine = "memory" | "file" | "postgres";

/** A sandbox to measure: where it keeps its state, and which code it runs. */
export interface CostContender {
  name: string;
  engine: Engine;
  /** Its entry point, run with `node`: the working tree's compiled bin by default. */
  cli?: string;
  /** Whether it is the code before the work measured (an earlier commit), rather than the working tree. */
  before?: boolean;
}

export interface EngineCost {
  name: string;
  engine: Engine;
  before: boolean;
  flows: number;
  /** Per flow, the idle background subtracted; statements, transactions, commits and the database's times on PostgreSQL. */
  perFlow: {
    statements: number;
    transactions: number;
    commits: number;
    planMs: number;
    execMs: number;
    sandboxCpuMs: number;
    databaseCpuMs: number;
  };
  /** One flow to its fourth delivery, one at a time. */
  wallP50Ms: number;
  /** Per request, on an account with no webhook; `rest` is the flow less its three requests: the settlement and the five deliveries. */
  perOperation: Record<CostRow, { statements: number; transactions: number; sandboxCpuMs: number }>;
  /** Per flow by statement text, most time (planning and execution) first (PostgreSQL). */
  byStatement: Array<[string, StatementCost]>;
  idle: { statementsPerSecond: number; sandboxCpuPercent: number };
}

export type CostRow = "create counterparty" | "create session" | "simulate, and its settlement" | "rest";
export const COST_ROWS: readonly CostRow[] = ["create counterparty", "create session", "simulate, and its settlement", "rest"];

const total = (m: Map<string, StatementCost>, key: keyof StatementCost) => [...m.values()].reduce((a, b) => a + b[key], 0);
const begins = (m: Map<string, StatementCost>) => m.get("BEGIN")?.calls ?? 0;
const none = (): StatementCost => ({ calls: 0, planMs: 0, execMs: 0 });
const plus = (a: StatementCost, b: StatementCost): StatementCost => ({
  calls: a.calls + b.calls,
  planMs: a.planMs + b.planMs,
  execMs: a.execMs + b.execMs,
});

interface Database {
  cluster: TestPostgres;
  /** A connection to another database of the cluster, whose statements are not the sandbox's. */
  admin: pg.Client;
  database: string;
}

class Meter {
  readonly #pid: number;
  readonly #postgres: Database | undefined;
  /** The background's rates, per ms, once measured. */
  #idle: Usage | undefined;

  constructor(pid: number, postgres?: Database) {
    this.#pid = pid;
    this.#postgres = postgres;
  }

  /** The database's commits so far (pg_stat_database.xact_commit): PostgreSQL counts a backend's late. */
  async #commits(): Promise<number> {
    if (!this.#postgres) return 0;
    const { admin, database } = this.#postgres;
    const { rows } = await admin.query<{ commits: string }>("SELECT xact_commit AS commits FROM pg_stat_database WHERE datname = $1", [
      database,
    ]);
    return Number(rows[0]!.commits);
  }

  async #read(): Promise<Usage> {
    const statements = new Map<string, StatementCost>();
    if (this.#postgres) {
      const { admin, database } = this.#postgres;
      // Read from another database, so that the reading is not counted among the sandbox's statements.
      const { rows } = await admin.query<{ query: string; calls: string; plan: number; exec: number }>(
        "SELECT s.query, s.calls, s.total_plan_time AS plan, s.total_exec_time AS exec " +
          "FROM pg_stat_statements s JOIN pg_database d ON d.oid = s.dbid WHERE d.datname = $1",
        [database],
      );
      for (const { query, calls, plan, exec } of rows)
        statements.set(query, plus(statements.get(query) ?? none(), { calls: Number(calls), planMs: plan, execMs: exec }));
    }
    const ms = performance.now();
    return {
      ms,
      sandboxCpuMs: cpuExactMs(this.#pid),
      databaseCpuMs: this.#postgres?.cluster.cpuMs() ?? 0,
      statements,
      commits: await this.#commits(),
      commitsMs: ms,
    };
  }

  /**
   * What `work` used, less what the sandbox uses idle over as long (once `idle` has measured it); with `commitsAfterMs`,
   * the commits read that long after the work, once its backends have handed them over.
   */
  async measure(work: () => Promise<unknown>, { commitsAfterMs = 0 } = {}): Promise<Usage> {
    const before = await this.#read();
    await work();
    const after = await this.#read();
    if (commitsAfterMs > 0) {
      await sleep(commitsAfterMs);
      after.commits = await this.#commits();
      after.commitsMs = performance.now();
    }
    const ms = after.ms - before.ms;
    const commitsMs = after.commitsMs - before.commitsMs;
    const idle = this.#idle;
    const less = (value: number, idleValue = 0, span = ms, idleSpan = idle?.ms ?? 1) => value - (idle ? (idleValue * span) / idleSpan : 0);
    const statements = new Map<string, StatementCost>();
    for (const [query, now] of after.statements) {
      const then = before.statements.get(query) ?? none();
      const quiet = idle?.statements.get(query) ?? none();
      const used = {
        calls: less(now.calls - then.calls, quiet.calls),
        planMs: less(now.planMs - then.planMs, quiet.planMs),
        execMs: less(now.execMs - then.execMs, quiet.execMs),
      };
      if (Math.abs(used.calls) + Math.abs(used.planMs) + Math.abs(used.execMs) > 1e-9) statements.set(query, used);
    }
    return {
      ms,
      sandboxCpuMs: less(after.sandboxCpuMs - before.sandboxCpuMs, idle?.sandboxCpuMs),
      databaseCpuMs: less(after.databaseCpuMs - before.databaseCpuMs, idle?.databaseCpuMs),
      statements,
      commits: less(after.commits - before.commits, idle?.commits, commitsMs, idle?.commitsMs),
      commitsMs,
    };
  }

  async idle(ms: number) {
    this.#idle = undefined;
    this.#idle = await this.measure(() => sleep(ms));
    return this.#idle;
  }
}

/** Sums usages: totals over the rounds. */
function add(into: Usage | undefined, u: Usage): Usage {
  if (!into) return { ...u, statements: new Map(u.statements) };
  into.ms += u.ms;
  into.sandboxCpuMs += u.sandboxCpuMs;
  into.databaseCpuMs += u.databaseCpuMs;
  into.commits += u.commits;
  into.commitsMs += u.commitsMs;
  for (const [q, c] of u.statements) into.statements.set(q, plus(into.statements.get(q) ?? none(), c));
  return into;
}

interface Running extends CostContender {
  meter: Meter;
  client: FlowClient;
  receiver: Receiver;
  /** The sequence number of the next flow, for unique orders and contacts. */
  next: number;
  /** When its last work ended: on PostgreSQL, a window starts once that work's commits are counted. */
  quietSince: number;
}

/** Waits, on PostgreSQL, until the commits of the contender's last work have been handed over to pg_stat_database. */
async function quiet(r: Running) {
  if (r.engine === "postgres") await sleep(Math.max(0, r.quietSince + STATS_IDLE_FLUSH_MS - performance.now()));
}

const FLOWS_TOKEN = "bench-cost-flows";
/** An account with no webhook: its requests deliver nothing. */
const REQUESTS_TOKEN = "bench-cost-requests";

/**
 * `flows` paid flows one at a time, each until the four events its requests made are in, then until every fifth is;
 * resolves to each flow's time to its fourth.
 */
async function flowsOneAtATime(r: Running, flows: number): Promise<number[]> {
  const walls: number[] = [];
  const sessions: string[] = [];
  for (let i = 0; i < flows; i++) {
    const started = performance.now();
    const { sessionId } = await paidFlow(r.client, FLOWS_TOKEN, r.next++);
    if (!sessionId) throw new Error(`${r.name}: a flow was refused`);
    await r.receiver.events(sessionId, FLOW_EVENTS - 1);
    walls.push(performance.now() - started);
    sessions.push(sessionId);
  }
  for (const id of sessions) await r.receiver.events(id, FLOW_EVENTS);
  await new Promise((resolve) => setTimeout(resolve, RECORDED_MS));
  return walls;
}

/** Each request of a flow `count` times on its own, on the account with no webhook; the payments then settled. */
async function requestsApart(r: Running, count: number, measure: (row: CostRow, work: () => Promise<unknown>) => Promise<void>) {
  const counterparties: string[] = [];
  const sessions: string[] = [];
  const ok = (a: { status: number; body: { id?: string } }, what: string) => {
    if (a.status >= 300) throw new Error(`${r.name}: ${what} answered ${a.status}`);
    return a.body.id!;
  };
  await measure("create counterparty", async () => {
    for (let i = 0; i < count; i++)
      counterparties.push(ok(await steps["create counterparty"](r.client, REQUESTS_TOKEN, r.next++), "create counterparty"));
  });
  await measure("create session", async () => {
    for (const id of counterparties)
      sessions.push(ok(await steps["create session"](r.client, REQUESTS_TOKEN, id, r.next++), "create session"));
  });
  await measure("simulate, and its settlement", async () => {
    for (const id of sessions) ok(await steps.simulate(r.client, REQUESTS_TOKEN, id), "simulate");
    await new Promise((resolve) => setTimeout(resolve, SETTLE_MS));
  });
}

/** The cost section's contenders: the working tree's compiled bin on each engine. */
export const COST_CONTENDERS: readonly CostContender[] = [
  { name: "SQLite (in memory)", engine: "memory" },
  { name: "SQLite (file)", engine: "file" },
  { name: "PostgreSQL", engine: "postgres" },
];

/** Each contender's cost per flow, in alternating rounds; each one on PostgreSQL has a throwaway cluster of its own. */
export async function benchCost(contenders: readonly CostContender[] = COST_CONTENDERS): Promise<EngineCost[]> {
  const folder = mkdtempSync(path.join(tmpdir(), "payin-bench-cost-"));
  // What was started, each with how to stop it: stopped last first.
  const started: Array<() => unknown> = [];
  const running: Running[] = [];
  try {
    for (const [i, c] of contenders.entries()) {
      let args: string[] = [];
      let postgres: Database | undefined;
      if (c.engine === "file") args = ["--db", path.join(folder, `${i}.db`)];
      if (c.engine === "postgres") {
        // A cluster each: its processes' CPU and its background are this contender's alone.
        const cluster = startPostgres("sandbox", { statements: true });
        started.push(() => cluster.stop());
        const admin = new pg.Client({ connectionString: cluster.adminUrl });
        await admin.connect();
        started.push(() => admin.end());
        const url = cluster.createDatabase();
        args = ["--database", url];
        postgres = { cluster, admin, database: new URL(url).pathname.slice(1) };
      }
      const bin = await startBin([...args, "--settlement-delay", "0"], c.cli);
      started.push(() => bin.child.kill("SIGKILL"));
      const receiver = await startReceiver();
      started.push(() => receiver.close());
      const client = new FlowClient([bin.url]);
      started.push(() => client.close());
      running.push({ ...c, meter: new Meter(bin.child.pid!, postgres), client, receiver, next: 0, quietSince: 0 });
      await client.register(FLOWS_TOKEN, receiver);
    }
    // Unmeasured: the code compiled, the statements prepared, the pool's connections open.
    for (const r of running) {
      await flowsOneAtATime(r, WARM_UP);
      await requestsApart(r, 20, async (_, work) => void (await work()));
      r.quietSince = performance.now();
    }
    const idle = new Map<Running, Usage>();
    for (const r of running) {
      await quiet(r);
      idle.set(r, await r.meter.idle(IDLE_MS));
    }

    const flows = new Map<Running, { usage?: Usage; walls: number[] }>(running.map((r) => [r, { walls: [] }]));
    const apart = new Map<Running, Map<CostRow, Usage>>(running.map((r) => [r, new Map()]));
    for (let round = 0; round < ROUNDS; round++)
      for (const r of running) {
        await quiet(r);
        const f = flows.get(r)!;
        let walls: number[] = [];
        const commitsAfterMs = r.engine === "postgres" ? STATS_IDLE_FLUSH_MS : 0;
        f.usage = add(f.usage, await r.meter.measure(async () => (walls = await flowsOneAtATime(r, FLOWS_PER_ROUND)), { commitsAfterMs }));
        f.walls.push(...walls);
        const rows = apart.get(r)!;
        await requestsApart(r, FLOWS_PER_ROUND, async (row, work) => void rows.set(row, add(rows.get(row), await r.meter.measure(work))));
        r.quietSince = performance.now();
      }

    const n = ROUNDS * FLOWS_PER_ROUND;
    return running.map((r): EngineCost => {
      const usage = flows.get(r)!.usage!;
      const rows = apart.get(r)!;
      const per = (u: Usage) => ({
        statements: total(u.statements, "calls") / n,
        transactions: begins(u.statements) / n,
        sandboxCpuMs: u.sandboxCpuMs / n,
      });
      const flow = per(usage);
      const requests = COST_ROWS.slice(0, 3).map((row) => per(rows.get(row)!));
      const rest = {
        statements: flow.statements - requests.reduce((s, x) => s + x.statements, 0),
        transactions: flow.transactions - requests.reduce((s, x) => s + x.transactions, 0),
        sandboxCpuMs: flow.sandboxCpuMs - requests.reduce((s, x) => s + x.sandboxCpuMs, 0),
      };
      const i = idle.get(r)!;
      return {
        name: r.name,
        engine: r.engine,
        before: r.before ?? false,
        flows: n,
        perFlow: {
          ...flow,
          commits: usage.commits / n,
          planMs: total(usage.statements, "planMs") / n,
          execMs: total(usage.statements, "execMs") / n,
          databaseCpuMs: usage.databaseCpuMs / n,
        },
        wallP50Ms: percentile(flows.get(r)!.walls, 50),
        perOperation: {
          "create counterparty": requests[0]!,
          "create session": requests[1]!,
          "simulate, and its settlement": requests[2]!,
          rest,
        },
        byStatement: [...usage.statements]
          .map(([q, c]): [string, StatementCost] => [q, { calls: c.calls / n, planMs: c.planMs / n, execMs: c.execMs / n }])
          .sort(([, a], [, b]) => b.planMs + b.execMs - (a.planMs + a.execMs)),
        idle: { statementsPerSecond: (total(i.statements, "calls") * 1000) / i.ms, sandboxCpuPercent: (100 * i.sandboxCpuMs) / i.ms },
      };
    });
  } finally {
    for (const stop of started.reverse())
      await Promise.resolve()
        .then(stop)
        .catch(() => {});
    rmSync(folder, { recursive: true, force: true });
  }
}

export const COST_METHOD = { rounds: ROUNDS, flowsPerRound: FLOWS_PER_ROUND, warmUp: WARM_UP, idleMs: IDLE_MS };

export const met = (ok: boolean) => (ok ? "met" : "NOT MET");
const ms = (v: number) => `${v.toFixed(2)} ms`;

/** Each contender's figures side by side, each request's share, and where each PostgreSQL one's statements and time go. */
export function printCost(engines: EngineCost[], how = "compiled bin") {
  const { rounds, flowsPerRound, warmUp, idleMs } = COST_METHOD;
  console.log(
    `\ncost of one paid flow (counterparty and session created with an Idempotency-Key, simulate pay, five deliveries to an endpoint ` +
      `on loopback; ${how}, --settlement-delay 0; one flow at a time, ${rounds} alternating rounds of ${flowsPerRound} after ` +
      `${warmUp} unmeasured; each PostgreSQL a throwaway cluster of its own; statements and their planning and execution time from ` +
      `pg_stat_statements, BEGIN and COMMIT included; commits from pg_stat_database, read ${STATS_IDLE_FLUSH_MS / 1000} s after ` +
      `the flows; CPU from /proc; the idle process's ${idleMs / 1000} s subtracted):`,
  );
  const width = 22;
  const row = (label: string, cell: (e: EngineCost) => string) =>
    console.log(`  ${label.padEnd(36)}${engines.map((e) => cell(e).padStart(width)).join("")}`);
  const postgresOnly = (cell: (e: EngineCost) => string) => (e: EngineCost) => (e.engine === "postgres" ? cell(e) : "—");
  row("", (e) => e.name);
  row(
    "statements per flow",
    postgresOnly((e) => e.perFlow.statements.toFixed(1)),
  );
  row(
    "  of which BEGIN (transactions)",
    postgresOnly((e) => e.perFlow.transactions.toFixed(1)),
  );
  row(
    "commits per flow (pg_stat_database)",
    postgresOnly((e) => e.perFlow.commits.toFixed(1)),
  );
  row(
    "planning per flow",
    postgresOnly((e) => ms(e.perFlow.planMs)),
  );
  row(
    "execution per flow",
    postgresOnly((e) => ms(e.perFlow.execMs)),
  );
  row("sandbox CPU per flow", (e) => ms(e.perFlow.sandboxCpuMs));
  row(
    "PostgreSQL's processes' CPU per flow",
    postgresOnly((e) => ms(e.perFlow.databaseCpuMs)),
  );
  row("wall time per flow (p50, 4 events)", (e) => ms(e.wallP50Ms));
  row(
    "idle: statements a second",
    postgresOnly((e) => e.idle.statementsPerSecond.toFixed(1)),
  );
  row("idle: CPU", (e) => `${e.idle.sandboxCpuPercent.toFixed(2)} %`);
  console.log(
    "  per request, each on its own on an account with no webhook (nothing delivered), statements (of which BEGIN) and sandbox CPU; " +
      "the rest is the flow less its requests: the settlement's share of its look for due work and the five deliveries:",
  );
  for (const operation of COST_ROWS) {
    const divide = operation === "rest" ? 5 : 1;
    row(operation === "rest" ? "the rest, per delivery (÷ 5)" : operation, (e) => {
      const o = e.perOperation[operation];
      const counted = e.engine === "postgres" ? `${(o.statements / divide).toFixed(1)} (${(o.transactions / divide).toFixed(1)}) ` : "";
      return `${counted}${ms(o.sandboxCpuMs / divide)}`;
    });
  }
  for (const e of engines.filter((x) => x.engine === "postgres")) {
    console.log(
      `  ${e.name}, per flow by statement, most time first: calls, planning and execution ms ` +
        "(those under 0.5 calls and 0.05 ms summed):",
    );
    const line = (c: StatementCost, text: string) =>
      console.log(`  ${c.calls.toFixed(2).padStart(7)} ${c.planMs.toFixed(3).padStart(7)} ${c.execMs.toFixed(3).padStart(7)}  ${text}`);
    let others = none();
    for (const [query, c] of e.byStatement)
      if (c.calls < 0.5 && c.planMs + c.execMs < 0.05) others = plus(others, c);
      else line(c, query.replace(/\s+/g, " ").slice(0, 110));
    line(others, "(the others)");
  }
}

/** The cost section's goals, on the working tree's compiled bin. */
export function printCostGoals(engines: EngineCost[]) {
  const find = (engine: Engine) => engines.find((e) => e.engine === engine && !e.before)!;
  const [memory, file, postgres] = [find("memory"), find("file"), find("postgres")];
  const statements = postgres.perFlow.statements;
  const ratio = postgres.perFlow.sandboxCpuMs / memory.perFlow.sandboxCpuMs;
  console.log(
    `  PostgreSQL: ${statements.toFixed(1)} statements per flow in ${postgres.perFlow.transactions.toFixed(1)} transactions ` +
      `(goal: at most ${COST_GOALS.statementsPerFlow}): ${met(statements <= COST_GOALS.statementsPerFlow)}`,
  );
  const onFile = postgres.perFlow.sandboxCpuMs / file.perFlow.sandboxCpuMs;
  console.log(
    `  sandbox CPU per flow, PostgreSQL / SQLite in memory: ${ratio.toFixed(2)}x (goal: at most ${COST_GOALS.cpuRatio}x): ` +
      `${met(ratio <= COST_GOALS.cpuRatio)}; / SQLite on a file: ${onFile.toFixed(2)}x`,
  );
}
