// The sandbox on PostgreSQL against the sandbox on SQLite (in memory and on a file), in one run on one machine: the rate of
// create payment session and the latency of one flow (simulate to the endpoint's receipt of
// transaction-completed, one at a time), with one SQLite process, one PostgreSQL process, and two
// PostgreSQL processes on one database; then PostgreSQL at scale: a database holding N sessions
// against an empty one. Each is the compiled bin; the cluster is a throwaway one (temp-postgres.ts).
import { spawn, type ChildProcess } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import autocannon from "autocannon";
import { openDatabase, Store } from "../../src/sandbox/store/index.ts";
import { root } from "../lib/paths.ts";
import { startPostgres } from "../lib/temp-postgres.ts";
import { sandboxCli, withEarlierSandbox } from "./earlier.ts";
import { fill } from "./fill.ts";
import { startFlowSandbox, type FlowFigures } from "./flows.ts";
import { median } from "./measure.ts";
import { newCounterparty, sessionBody, TOKEN } from "./sandbox.ts";

const CLI = path.join(root, "dist/src/sandbox/cli.js");
const FLOWS = 300;

export interface CreateFigures {
  rate: number;
  p99: number;
}

export interface SharedRow {
  name: string;
  create: CreateFigures;
  flow: FlowFigures;
}

/** The compiled payin-sandbox (or another entry point, `cli`) with `args`, once it says where it listens. */
export async function startBin(args: string[], cli = CLI): Promise<{ child: ChildProcess; url: string }> {
  const child = spawn(process.execPath, [cli, "--port", "0", ...args], { stdio: ["ignore", "pipe", "inherit"] });
  const url = await new Promise<string>((resolve, reject) => {
    child.stdout!.on("data", (chunk: Buffer) => {
      const found = chunk.toString().match(/listening on (http:\/\/\S+)/)?.[1];
      if (found) resolve(found);
    });
    child.once("exit", (code) => reject(new Error(`payin-sandbox ${args.join(" ")} exited with ${code}`)));
  });
  return { child, url };
}

/** A configuration under load: its processes, all serving one sandbox. */
interface Contender {
  name: string;
  args: string[];
  processes: number;
  /** The entry point, when not the compiled bin of the working tree. */
  cli?: string;
}

/**
 * Create payment session under autocannon, 10 connections to each process at once, in rounds
 * that alternate between the contenders; each one's median rate (summed over its processes) and p99.
 */
async function createLoad(contenders: Contender[], seconds: number, roundSeconds = 2): Promise<CreateFigures[]> {
  const started = await Promise.all(
    contenders.map(async (c) => {
      const bins = [];
      for (let i = 0; i < c.processes; i++) bins.push(await startBin(c.args, c.cli));
      const body = sessionBody(await newCounterparty(bins[0]!.url));
      return { bins, body };
    }),
  );
  try {
    const rounds: Array<Array<{ rate: number; p99: number }>> = contenders.map(() => []);
    for (let round = 0; round < Math.max(1, Math.round(seconds / roundSeconds)); round++)
      for (const [i, { bins, body }] of started.entries()) {
        const results = await Promise.all(
          bins.map(({ url }) =>
            autocannon({
              url: `${url}/api/v1/earn/payment-sessions/`,
              method: "POST",
              headers: { "Content-Type": "application/json", Authorization: `Bearer ${TOKEN}` },
              body,
              connections: 10,
              duration: roundSeconds,
            }),
          ),
        );
        rounds[i]!.push({
          rate: results.reduce((sum, r) => sum + r.requests.average, 0),
          p99: Math.max(...results.map((r) => r.latency.p99)),
        });
      }
    return rounds.map((r) => ({ rate: median(r.map((x) => x.rate)), p99: median(r.map((x) => x.p99)) }));
  } finally {
    for (const { bins } of started) for (const { child } of bins) child.kill("SIGKILL");
  }
}

async function flowLatency({ args, processes, cli = CLI }: Contender): Promise<FlowFigures> {
  const sandbox = await startFlowSandbox(cli, args, processes);
  try {
    await sandbox.run(50, 1); // warm-up
    return await sandbox.run(FLOWS, 1);
  } finally {
    await sandbox.stop();
  }
}

/** The commit before the sandbox waited for its commits to be on disk: what durability costs is measured against it. */
export const BEFORE_DURABLE_COMMITS = "88ea946";

/**
 * SQLite, in memory (the default) and on a file (durable, as PostgreSQL is), against PostgreSQL
 * with one and with two processes; and one PostgreSQL process of the sandbox that did not wait
 * for its commits to be on disk (both from source, so that they differ in that alone).
 */
export async function benchShared(seconds: number): Promise<SharedRow[]> {
  return withEarlierSandbox(BEFORE_DURABLE_COMMITS, async (before) => {
    const cluster = startPostgres("sandbox");
    const folder = mkdtempSync(path.join(tmpdir(), "payin-bench-sqlite-"));
    try {
      const contenders: Contender[] = [
        { name: "SQLite (in memory), 1 process", args: [], processes: 1 },
        { name: "SQLite (file), 1 process", args: ["--db", path.join(folder, "sandbox.db")], processes: 1 },
        { name: "PostgreSQL, 1 process", args: ["--database", cluster.createDatabase()], processes: 1 },
        { name: "PostgreSQL, 2 processes", args: ["--database", cluster.createDatabase()], processes: 2 },
        { name: "PostgreSQL, 1 process, from source", args: ["--database", cluster.createDatabase()], processes: 1, cli: sandboxCli() },
        {
          name: `PostgreSQL, 1 process, ${BEFORE_DURABLE_COMMITS}`,
          args: ["--database", cluster.createDatabase()],
          processes: 1,
          cli: before.cli,
        },
      ];
      const creates = await createLoad(contenders, seconds);
      const rows: SharedRow[] = [];
      for (const [i, contender] of contenders.entries())
        rows.push({ name: contender.name, create: creates[i]!, flow: await flowLatency(contender) });
      return rows;
    } finally {
      cluster.stop();
      rmSync(folder, { recursive: true, force: true });
    }
  });
}

/** Fills a PostgreSQL database through the create handlers; resolves to the seconds it took. */
async function fillDatabase(url: string, sessions: number): Promise<number> {
  const started = performance.now();
  const db = await openDatabase({ postgres: url });
  const store = new Store(db);
  await fill(store, sessions, Math.max(4, Math.round(sessions / 1000)));
  await db.run("ANALYZE");
  await store.close();
  return (performance.now() - started) / 1000;
}

export interface SharedScaleFigures {
  sessions: number;
  fillSeconds: number;
  empty: { create: CreateFigures; flow: FlowFigures };
  full: { create: CreateFigures; flow: FlowFigures };
}

/** One PostgreSQL process on a database of `sessions` sessions against one on an empty database. */
export async function benchSharedScale(sessions: number, seconds: number): Promise<SharedScaleFigures> {
  const cluster = startPostgres("sandbox");
  try {
    const [emptyUrl, fullUrl] = [cluster.createDatabase(), cluster.createDatabase()];
    const fillSeconds = await fillDatabase(fullUrl, sessions);
    const contenders: Contender[] = [
      { name: "empty", args: ["--database", emptyUrl], processes: 1 },
      { name: "full", args: ["--database", fullUrl], processes: 1 },
    ];
    const [emptyCreate, fullCreate] = await createLoad(contenders, seconds);
    const emptyFlow = await flowLatency(contenders[0]!);
    const fullFlow = await flowLatency(contenders[1]!);
    return { sessions, fillSeconds, empty: { create: emptyCreate!, flow: emptyFlow }, full: { create: fullCreate!, flow: fullFlow } };
  } finally {
    cluster.stop();
  }
}
