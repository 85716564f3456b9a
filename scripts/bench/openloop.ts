// Flows that arrive whether or not the sandbox keeps up (an open loop, as tenants' CI runs do):
// at a fixed rate, the arrivals a Poisson process drawn before the run (seeded, so each run sends
// the same), each flow on the next of 200 accounts, each paid flow three requests in order
// (paid-flow.ts) and five deliveries to an endpoint on loopback. When the sandbox falls behind,
// the flows queue and their latency shows it, where a closed loop (a fixed number in flight)
// would only slow down. Two compiled processes on one throwaway PostgreSQL, the requests taken by
// each in turn, against one process on a SQLite file for reference, on a ladder of rates, the two
// alternating at each rate; each step ends once its deliveries are in (or a deadline passed).
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { startPostgres } from "../lib/temp-postgres.ts";
import { FLOW_EVENTS, FlowClient, OPERATIONS, paidFlow, percentile, startReceiver, type Operation, type Receiver } from "./paid-flow.ts";
import { startBin } from "./shared.ts";

export const OPEN_LOOP_RATES = [25, 50, 75, 100, 150];
export const OPEN_LOOP_GOAL = { rate: 100, p99Ms: 100 };
const ACCOUNTS = 200;
/** How long a step's flows and deliveries may take after its last arrival before what is missing counts as lost. */
const DEADLINE_MS = 60_000;
const WARM_UP = { rate: 25, seconds: 4 };

export interface Latency {
  p50Ms: number;
  p99Ms: number;
}

export interface StepFigures {
  rate: number;
  flows: number;
  latency: Record<Operation | "delivery", Latency>;
  /** Answers of 500 or more, and requests with no answer; and what each was. */
  serverErrors: number;
  errors: string[];
  /** Flows not paid by the deadline, and events of paid flows not delivered by it. */
  unpaid: number;
  lost: number;
  /** How late the generator started flows, p99: it kept its schedule when this is a few ms. */
  lateP99Ms: number;
  /** The CPU of this process (the load and the endpoint) over the step, in % of one core. */
  generatorCpuPercent: number;
}

export interface TargetFigures {
  name: string;
  steps: StepFigures[];
}

/** Arrival times in seconds from the start: a Poisson process of `rate` a second over `seconds`, from a seeded generator. */
export function poissonArrivals(rate: number, seconds: number, seed = 1): number[] {
  let state = seed >>> 0;
  // mulberry32: small, fast and the same on every machine.
  const random = () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
  const arrivals: number[] = [];
  for (let at = -Math.log(1 - random()) / rate; at < seconds; at += -Math.log(1 - random()) / rate) arrivals.push(at);
  return arrivals;
}

interface Target {
  name: string;
  client: FlowClient;
  receiver: Receiver;
  tokens: string[];
  /** Flows started so far, for unique contacts and orders. */
  next: number;
  stop(): void;
}

async function startTarget(name: string, args: string[], processes: number): Promise<Target> {
  const bins: Array<Awaited<ReturnType<typeof startBin>>> = [];
  for (let i = 0; i < processes; i++) bins.push(await startBin([...args, "--settlement-delay", "0"]));
  const client = new FlowClient(bins.map((b) => b.url));
  const receiver = await startReceiver();
  const tokens = Array.from({ length: ACCOUNTS }, (_, i) => `bench-openloop-${i}`);
  for (const token of tokens) await client.register(token, receiver);
  return {
    name,
    client,
    receiver,
    tokens,
    next: 0,
    stop() {
      client.close();
      void receiver.close();
      for (const { child } of bins) child.kill("SIGKILL");
    },
  };
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** One step: flows arriving at `rate` a second for `seconds`, then until every flow and delivery is in or the deadline passed. */
async function step(target: Target, rate: number, seconds: number): Promise<StepFigures> {
  const { client, receiver } = target;
  const arrivals = poissonArrivals(rate, seconds, rate);
  const times: Record<Operation, number[]> = { "create counterparty": [], "create session": [], simulate: [] };
  const late: number[] = [];
  const sessions: string[] = [];
  const errorsBefore = client.serverErrors;
  const delaysBefore = receiver.delays.length;
  const cpuBefore = process.cpuUsage();
  const started = performance.now();
  const flows: Array<Promise<void>> = [];
  for (const at of arrivals) {
    const due = started + at * 1000;
    if (due - performance.now() > 1) await sleep(due - performance.now());
    late.push(performance.now() - due);
    const n = target.next++;
    flows.push(
      paidFlow(client, target.tokens[n % ACCOUNTS]!, n).then(
        ({ sessionId, timings }) => {
          for (const op of OPERATIONS) if (timings[op] !== undefined) times[op].push(timings[op]);
          if (sessionId) sessions.push(sessionId);
        },
        () => {}, // counted by the client as an error
      ),
    );
  }
  const deadline = performance.now() + DEADLINE_MS;
  await Promise.race([Promise.all(flows), sleep(DEADLINE_MS)]);
  while (sessions.some((id) => receiver.count(id) < FLOW_EVENTS) && performance.now() < deadline) await sleep(50);
  const cpu = process.cpuUsage(cpuBefore);
  const wallMs = performance.now() - started;
  const latency = (values: number[]): Latency => ({ p50Ms: percentile(values, 50), p99Ms: percentile(values, 99) });
  return {
    rate,
    flows: arrivals.length,
    latency: {
      "create counterparty": latency(times["create counterparty"]),
      "create session": latency(times["create session"]),
      simulate: latency(times.simulate),
      delivery: latency(receiver.delays.slice(delaysBefore)),
    },
    serverErrors: client.serverErrors - errorsBefore,
    errors: client.errors.slice(errorsBefore),
    unpaid: arrivals.length - sessions.length,
    lost: sessions.reduce((sum, id) => sum + Math.max(0, FLOW_EVENTS - receiver.count(id)), 0),
    lateP99Ms: percentile(late, 99),
    generatorCpuPercent: ((cpu.user + cpu.system) / 1000 / wallMs) * 100,
  };
}

/** The ladder of rates, each a step of `seconds` on each target in turn; without `reference`, on PostgreSQL alone. */
export async function benchOpenLoop(seconds: number, { rates = OPEN_LOOP_RATES, reference = true } = {}): Promise<TargetFigures[]> {
  const cluster = startPostgres("sandbox");
  const folder = mkdtempSync(path.join(tmpdir(), "payin-bench-openloop-"));
  const targets: Target[] = [];
  try {
    targets.push(await startTarget("PostgreSQL, 2 processes", ["--database", cluster.createDatabase()], 2));
    if (reference) targets.push(await startTarget("SQLite file, 1 process", ["--db", path.join(folder, "sandbox.db")], 1));
    for (const target of targets) await step(target, WARM_UP.rate, WARM_UP.seconds);
    const figures: TargetFigures[] = targets.map((t) => ({ name: t.name, steps: [] }));
    for (const rate of rates) for (const [i, target] of targets.entries()) figures[i]!.steps.push(await step(target, rate, seconds));
    return figures;
  } finally {
    for (const target of targets) target.stop();
    cluster.stop();
    rmSync(folder, { recursive: true, force: true });
  }
}

/** Whether a step met the goal's latency: every request's p99 under it, no 5xx, nothing unpaid or lost. */
export const held = (s: StepFigures) =>
  OPERATIONS.every((op) => s.latency[op].p99Ms < OPEN_LOOP_GOAL.p99Ms) && s.serverErrors === 0 && s.unpaid === 0 && s.lost === 0;

const ms = (v: number) => (Number.isNaN(v) ? "—" : v < 10 ? v.toFixed(1) : Math.round(v).toLocaleString("en-US"));
const pair = (l: Latency) => `${ms(l.p50Ms)}/${ms(l.p99Ms)}`.padStart(13);

/** The heading of a table of steps, and a step's line under it: `label` is the rate, or the run. */
const stepHeading = (label: string) =>
  console.log(
    `  ${label.padStart(8)} ${"flows".padStart(6)} ${"counterparty".padStart(13)} ${"session".padStart(13)} ` +
      `${"simulate".padStart(13)} ${"delivery".padStart(13)} ${"5xx".padStart(5)} ${"unpaid".padStart(7)} ${"lost".padStart(5)} ` +
      `${"late p99".padStart(9)} ${"load CPU".padStart(9)}`,
  );
const stepLine = (label: string, s: StepFigures) =>
  console.log(
    `  ${label.padStart(8)} ${String(s.flows).padStart(6)} ${pair(s.latency["create counterparty"])} ` +
      `${pair(s.latency["create session"])} ${pair(s.latency.simulate)} ${pair(s.latency.delivery)} ` +
      `${String(s.serverErrors).padStart(5)} ${String(s.unpaid).padStart(7)} ${String(s.lost).padStart(5)} ` +
      `${`${ms(s.lateP99Ms)} ms`.padStart(9)} ${`${s.generatorCpuPercent.toFixed(0)} %`.padStart(9)}`,
  );

const heading = (seconds: number, what: string) =>
  console.log(
    `\nopen loop: ${what} (Poisson, ${seconds} s a step) over ${ACCOUNTS} accounts, whether or not the ` +
      "sandbox keeps up; compiled bins, --settlement-delay 0; p50/p99 of each request from its sending, of each delivery from " +
      "its event's time (settlements apart), in ms:",
  );

export function printOpenLoop(figures: TargetFigures[], seconds: number) {
  heading(seconds, "paid flows arriving at a fixed rate");
  for (const target of figures) {
    console.log(`  ${target.name}:`);
    stepHeading("flows/s");
    for (const s of target.steps) stepLine(String(s.rate), s);
    for (const s of target.steps) for (const error of s.errors) console.log(`    at ${s.rate} flows/s: ${error}`);
    const highest = Math.max(0, ...target.steps.filter(held).map((s) => s.rate));
    console.log(
      `  highest rate with every request's p99 under ${OPEN_LOOP_GOAL.p99Ms} ms, no 5xx, nothing lost: ${highest || "none"} flows/s`,
    );
  }
  const postgres = figures[0]!.steps.find((s) => s.rate === OPEN_LOOP_GOAL.rate);
  console.log(
    `  goal: ${OPEN_LOOP_GOAL.rate} flows/s on PostgreSQL (2 processes) with p99 under ${OPEN_LOOP_GOAL.p99Ms} ms: ` +
      `${postgres ? (held(postgres) ? "met" : "NOT MET") : "not measured"}`,
  );
}

/** The goal's step alone, `runs` times, each on a fresh cluster and processes after the warm-up: PostgreSQL, 2 processes. */
export async function benchOpenLoopGoal(seconds: number, runs = 3): Promise<StepFigures[]> {
  const steps: StepFigures[] = [];
  for (let run = 0; run < runs; run++)
    steps.push((await benchOpenLoop(seconds, { rates: [OPEN_LOOP_GOAL.rate], reference: false }))[0]!.steps[0]!);
  return steps;
}

export function printOpenLoopGoal(steps: StepFigures[], seconds: number) {
  heading(
    seconds,
    `the goal's ${OPEN_LOOP_GOAL.rate} paid flows a second, ${steps.length} runs, each on PostgreSQL (2 processes) of its own`,
  );
  stepHeading("run");
  for (const [i, s] of steps.entries()) stepLine(String(i + 1), s);
  for (const [i, s] of steps.entries()) for (const error of s.errors) console.log(`    run ${i + 1}: ${error}`);
  const times = steps.filter(held).length;
  console.log(
    `  goal: every request's p99 under ${OPEN_LOOP_GOAL.p99Ms} ms, no 5xx, no request unanswered, every event delivered, ` +
      `in ${steps.length} runs of ${steps.length}: held in ${times} of ${steps.length}: ${times === steps.length ? "met" : "NOT MET"}`,
  );
}
