// What one paid flow costs the sandbox, counted rather than timed: the statements and
// transactions PostgreSQL ran for it (its own count, pg_stat_statements, BEGIN and COMMIT
// included), and the CPU of the sandbox's process (and of PostgreSQL's) per flow, on SQLite in
// memory, SQLite on a file and PostgreSQL, side by side in alternating rounds. Flows go one at a
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

/** What was used over a window: wall time, the sandbox's CPU, and on PostgreSQL its statements (by text) and its CPU. */
interface Usage {
  ms: number;
  sandboxCpuMs: number;
  databaseCpuMs: number;
  statements: Map<string, number>;
}

export interface EngineCost {
  name: string;
  postgres: boolean;
  flows: number;
  /** Per flow, the idle background subtracted. */
  perFlow: { statements: number; transactions: number; sandboxCpuMs: number; databaseCpuMs: number };
  /** One flow to its fourth delivery, one at a time. */
  wallP50Ms: number;
  /** Per request, on an account with no webhook; `rest` is the flow less its three requests: the settlement and the five deliveries. */
  perOperation: Record<CostRow, { statements: number; transactions: number; sandboxCpuMs: number }>;
  /** Statements per flow by their text, most first (PostgreSQL). */
  byStatement: Array<[string, number]>;
  idle: { statementsPerSecond: number; sandboxCpuPercent: number };
}

export type CostRow = "create counterparty" | "create session" | "simulate, and its settlement" | "rest";
export const COST_ROWS: readonly CostRow[] = ["create counterparty", "create session", "simulate, and its settlement", "rest"];

const sum = (m: Map<string, number>) => [...m.values()].reduce((a, b) => a + b, 0);
const begins = (m: Map<string, number>) => m.get("BEGIN") ?? 0;

class Meter {
  readonly #pid: number;
  readonly #cluster: TestPostgres | undefined;
  readonly #admin: pg.Client | undefined;
  readonly #database: string | undefined;
  /** The background's rates, per ms, once measured. */
  #idle: Usage | undefined;

  constructor(pid: number, postgres?: { cluster: TestPostgres; admin: pg.Client; database: string }) {
    this.#pid = pid;
    this.#cluster = postgres?.cluster;
    this.#admin = postgres?.admin;
    this.#database = postgres?.database;
  }

  async #read(): Promise<Usage> {
    const statements = new Map<string, number>();
    if (this.#admin) {
      // Read from another database, so that the reading is not counted among the sandbox's statements.
      const { rows } = await this.#admin.query<{ query: string; calls: string }>(
        "SELECT s.query, s.calls FROM pg_stat_statements s JOIN pg_database d ON d.oid = s.dbid WHERE d.datname = $1",
        [this.#database],
      );
      for (const { query, calls } of rows) statements.set(query, (statements.get(query) ?? 0) + Number(calls));
    }
    return {
      ms: performance.now(),
      sandboxCpuMs: cpuExactMs(this.#pid),
      databaseCpuMs: this.#cluster?.cpuMs() ?? 0,
      statements,
    };
  }

  /** What `work` used, less what the sandbox uses idle over as long (once `idle` has measured it). */
  async measure(work: () => Promise<unknown>): Promise<Usage> {
    const before = await this.#read();
    await work();
    const after = await this.#read();
    const ms = after.ms - before.ms;
    const idle = this.#idle;
    const less = (value: number, idleValue = 0) => value - (idle ? (idleValue * ms) / idle.ms : 0);
    const statements = new Map<string, number>();
    for (const [query, calls] of after.statements) {
      const used = less(calls - (before.statements.get(query) ?? 0), idle?.statements.get(query));
      if (Math.abs(used) > 1e-9) statements.set(query, used);
    }
    return {
      ms,
      sandboxCpuMs: less(after.sandboxCpuMs - before.sandboxCpuMs, idle?.sandboxCpuMs),
      databaseCpuMs: less(after.databaseCpuMs - before.databaseCpuMs, idle?.databaseCpuMs),
      statements,
    };
  }

  async idle(ms: number) {
    this.#idle = undefined;
    this.#idle = await this.measure(() => new Promise((resolve) => setTimeout(resolve, ms)));
    return this.#idle;
  }
}

/** Sums usages: totals over the rounds. */
function add(into: Usage | undefined, u: Usage): Usage {
  if (!into) return { ...u, statements: new Map(u.statements) };
  into.ms += u.ms;
  into.sandboxCpuMs += u.sandboxCpuMs;
  into.databaseCpuMs += u.databaseCpuMs;
  for (const [q, c] of u.statements) into.statements.set(q, (into.statements.get(q) ?? 0) + c);
  return into;
}

interface Contender {
  name: string;
  args: string[];
  postgres: boolean;
}

interface Running extends Contender {
  meter: Meter;
  client: FlowClient;
  receiver: Receiver;
  stop(): void;
  /** The sequence number of the next flow, for unique orders and contacts. */
  next: number;
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

export async function benchCost(): Promise<EngineCost[]> {
  const cluster = startPostgres("sandbox", { statements: true });
  const folder = mkdtempSync(path.join(tmpdir(), "payin-bench-cost-"));
  const admin = new pg.Client({ connectionString: cluster.adminUrl });
  const running: Running[] = [];
  try {
    await admin.connect();
    const contenders: Contender[] = [
      { name: "SQLite (in memory)", args: [], postgres: false },
      { name: "SQLite (file)", args: ["--db", path.join(folder, "sandbox.db")], postgres: false },
      { name: "PostgreSQL", args: ["--database", cluster.createDatabase()], postgres: true },
    ];
    for (const c of contenders) {
      const bin = await startBin([...c.args, "--settlement-delay", "0"]);
      const database = c.postgres ? new URL(c.args[1]!).pathname.slice(1) : undefined;
      const receiver = await startReceiver();
      const client = new FlowClient([bin.url]);
      running.push({
        ...c,
        meter: new Meter(bin.child.pid!, database ? { cluster, admin, database } : undefined),
        client,
        receiver,
        next: 0,
        stop: () => {
          client.close();
          void receiver.close();
          bin.child.kill("SIGKILL");
        },
      });
      await client.register(FLOWS_TOKEN, receiver);
    }
    // Unmeasured: the code compiled, the statements prepared, the pool's connections open.
    for (const r of running) {
      await flowsOneAtATime(r, WARM_UP);
      await requestsApart(r, 20, async (_, work) => void (await work()));
    }
    const idle = new Map<Running, Usage>();
    for (const r of running) idle.set(r, await r.meter.idle(IDLE_MS));

    const flows = new Map<Running, { usage?: Usage; walls: number[] }>(running.map((r) => [r, { walls: [] }]));
    const apart = new Map<Running, Map<CostRow, Usage>>(running.map((r) => [r, new Map()]));
    for (let round = 0; round < ROUNDS; round++)
      for (const r of running) {
        const f = flows.get(r)!;
        let walls: number[] = [];
        f.usage = add(f.usage, await r.meter.measure(async () => (walls = await flowsOneAtATime(r, FLOWS_PER_ROUND))));
        f.walls.push(...walls);
        const rows = apart.get(r)!;
        await requestsApart(r, FLOWS_PER_ROUND, async (row, work) => void rows.set(row, add(rows.get(row), await r.meter.measure(work))));
      }

    const n = ROUNDS * FLOWS_PER_ROUND;
    return running.map((r): EngineCost => {
      const usage = flows.get(r)!.usage!;
      const rows = apart.get(r)!;
      const per = (u: Usage) => ({
        statements: sum(u.statements) / n,
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
        postgres: r.postgres,
        flows: n,
        perFlow: { ...flow, databaseCpuMs: usage.databaseCpuMs / n },
        wallP50Ms: percentile(flows.get(r)!.walls, 50),
        perOperation: {
          "create counterparty": requests[0]!,
          "create session": requests[1]!,
          "simulate, and its settlement": requests[2]!,
          rest,
        },
        byStatement: [...usage.statements].map(([q, c]): [string, number] => [q, c / n]).sort((a, b) => b[1] - a[1]),
        idle: { statementsPerSecond: (sum(i.statements) * 1000) / i.ms, sandboxCpuPercent: (100 * i.sandboxCpuMs) / i.ms },
      };
    });
  } finally {
    for (const r of running) r.stop();
    await admin.end().catch(() => {});
    cluster.stop();
    rmSync(folder, { recursive: true, force: true });
  }
}

export const COST_METHOD = { rounds: ROUNDS, flowsPerRound: FLOWS_PER_ROUND, warmUp: WARM_UP, idleMs: IDLE_MS };

const met = (ok: boolean) => (ok ? "met" : "NOT MET");
const ms = (v: number) => `${v.toFixed(2)} ms`;

/** The section's figures, the goals with met or not, and where the statements go. */
export function printCost(engines: EngineCost[]) {
  const { rounds, flowsPerRound, warmUp, idleMs } = COST_METHOD;
  console.log(
    `\ncost of one paid flow (counterparty and session created with an Idempotency-Key, simulate pay, five deliveries to an endpoint ` +
      `on loopback; compiled bin, --settlement-delay 0; one flow at a time, ${rounds} alternating rounds of ${flowsPerRound} after ` +
      `${warmUp} unmeasured; statements from pg_stat_statements, BEGIN and COMMIT included; CPU from /proc; the idle process's ` +
      `${idleMs / 1000} s subtracted):`,
  );
  const row = (label: string, cell: (e: EngineCost) => string) =>
    console.log(`  ${label.padEnd(36)}${engines.map((e) => cell(e).padStart(20)).join("")}`);
  const postgresOnly = (cell: (e: EngineCost) => string) => (e: EngineCost) => (e.postgres ? cell(e) : "—");
  row("", (e) => e.name);
  row(
    "statements per flow",
    postgresOnly((e) => e.perFlow.statements.toFixed(1)),
  );
  row(
    "  of which BEGIN (transactions)",
    postgresOnly((e) => e.perFlow.transactions.toFixed(1)),
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
  const [memory, file, postgres] = engines;
  const statements = postgres!.perFlow.statements;
  const ratio = postgres!.perFlow.sandboxCpuMs / memory!.perFlow.sandboxCpuMs;
  console.log(
    `  PostgreSQL: ${statements.toFixed(1)} statements per flow in ${postgres!.perFlow.transactions.toFixed(1)} transactions ` +
      `(goal: at most ${COST_GOALS.statementsPerFlow}): ${met(statements <= COST_GOALS.statementsPerFlow)}`,
  );
  const onFile = postgres!.perFlow.sandboxCpuMs / file!.perFlow.sandboxCpuMs;
  console.log(
    `  sandbox CPU per flow, PostgreSQL / SQLite in memory: ${ratio.toFixed(2)}x (goal: at most ${COST_GOALS.cpuRatio}x): ` +
      `${met(ratio <= COST_GOALS.cpuRatio)}; / SQLite on a file: ${onFile.toFixed(2)}x`,
  );
  console.log(
    "  per request, each on its own on an account with no webhook (nothing delivered); the rest is the flow less its requests: " +
      "the settlement's share of its look for due work and the five deliveries:",
  );
  console.log(
    `  ${"".padEnd(36)}${"statements".padStart(12)}${"BEGIN".padStart(8)}${engines.map((e) => `CPU, ${e.name}`.padStart(26)).join("")}`,
  );
  for (const row of COST_ROWS) {
    const pg = postgres!.perOperation[row];
    const label = row === "rest" ? "the rest, per delivery (÷ 5)" : row;
    const divide = row === "rest" ? 5 : 1;
    console.log(
      `  ${label.padEnd(36)}${(pg.statements / divide).toFixed(1).padStart(12)}${(pg.transactions / divide).toFixed(1).padStart(8)}` +
        engines.map((e) => ms(e.perOperation[row].sandboxCpuMs / divide).padStart(26)).join(""),
    );
  }
  console.log("  PostgreSQL's statements per flow, by statement (calls per flow, most first; those under 0.5 summed):");
  let others = 0;
  for (const [query, calls] of postgres!.byStatement) {
    if (calls < 0.5) others += calls;
    else console.log(`  ${calls.toFixed(2).padStart(7)}  ${query.replace(/\s+/g, " ").slice(0, 124)}`);
  }
  console.log(`  ${others.toFixed(2).padStart(7)}  (the others)`);
}
