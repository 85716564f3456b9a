// payin-listen on the shared sandbox: two compiled payin-sandbox processes on one throwaway
// PostgreSQL, the compiled payin-listen connected to one, the events made through the other.
// From a session's creation (its request sent, so the commit is inside) to the local endpoint's
// receipt of its session-created, one event at a time; beside it, in alternating rounds, the same
// through a URL registered for another account (the path a listener replaces). Then the CPU the
// three processes spend over 10 s with the listener connected and nothing happening.
import { spawn, type ChildProcess } from "node:child_process";
import { createServer } from "node:http";
import type { AddressInfo } from "node:net";
import path from "node:path";
import { root } from "../lib/paths.ts";
import { startPostgres } from "../lib/temp-postgres.ts";
import { cpuMs } from "./measure.ts";
import { sessionBody } from "./sandbox.ts";
import { startBin } from "./shared.ts";

const LISTEN_CLI = path.join(root, "dist/src/listen/cli.js");
const ROUNDS = 4;
const IDLE_SECONDS = 10;
const SETTLE_SECONDS = 20;

export interface Latency {
  p50Ms: number;
  p99Ms: number;
}

export interface ListenFigures {
  events: number;
  listener: Latency;
  url: Latency;
  /** Percent of one core over IDLE_SECONDS, per process. */
  idle: { sandboxes: number; listener: number; sandboxesWithout: number };
}

const percentile = (sorted: number[], p: number) => sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)]!;

async function call(url: string, token: string, route: string, body: unknown) {
  const res = await fetch(url + route, {
    method: "POST",
    headers: { Authorization: `Bearer ${token}`, "Content-Type": "application/json" },
    body: JSON.stringify(body),
  });
  if (!res.ok) throw new Error(`${route} answered ${res.status}: ${await res.text()}`);
  return (await res.json()) as { id: string };
}

/** An endpoint on loopback that answers 204 and keeps when each session's first delivery arrived. */
async function startEndpoint() {
  const arrivals = new Map<string, number>();
  const waiting = new Map<string, (at: number) => void>();
  const server = createServer((req, res) => {
    const at = performance.now();
    let body = "";
    req.on("data", (chunk: Buffer) => void (body += chunk));
    req.on("end", () => {
      res.writeHead(204).end();
      const sessionId = (JSON.parse(body) as { data: { session_id: string } }).data.session_id;
      if (arrivals.has(sessionId)) return;
      arrivals.set(sessionId, at);
      waiting.get(sessionId)?.(at);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/webhooks`,
    /** When the first delivery about the session arrived, or will (it may come before the create's answer). */
    receipt: (sessionId: string) => arrivals.get(sessionId) ?? new Promise<number>((resolve) => void waiting.set(sessionId, resolve)),
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

/** The compiled payin-listen, resolved once it printed the secret. */
async function startListener(baseUrl: string, token: string, forwardTo: string): Promise<ChildProcess> {
  const child = spawn(process.execPath, [LISTEN_CLI, "--base-url", baseUrl, "--token", token, "--forward-to", forwardTo], {
    stdio: ["ignore", "pipe", "inherit"],
  });
  await new Promise<void>((resolve, reject) => {
    child.stdout!.on("data", (chunk: Buffer) => {
      if (/whsec_/.test(chunk.toString())) resolve();
    });
    child.once("exit", (code) => reject(new Error(`payin-listen exited with ${code}`)));
  });
  return child;
}

export async function benchListen(events = 200): Promise<ListenFigures> {
  const cluster = startPostgres("sandbox");
  const children: ChildProcess[] = [];
  try {
    const database = cluster.createDatabase();
    const [one, two] = await Promise.all([startBin(["--database", database]), startBin(["--database", database])]);
    children.push(one!.child, two!.child);
    const endpoint = await startEndpoint();
    const accounts = { listener: `bench-listen-${Date.now()}`, url: `bench-url-${Date.now()}` };
    await call(two!.url, accounts.url, "/webhooks", { url: endpoint.url });
    const counterparties = {
      listener: (await call(two!.url, accounts.listener, "/api/v1/send/counterparties/", counterparty("listener"))).id,
      url: (await call(two!.url, accounts.url, "/api/v1/send/counterparties/", counterparty("url"))).id,
    };

    const sandboxes = [one!.child.pid!, two!.child.pid!];
    const idleCpu = async (pids: number[]) => {
      // What the last work left settles first: a Node process that used fetch keeps compiling and
      // collecting for some 20 s after (measured: 180 ms of CPU a 10 s then, 30 ms once settled).
      await new Promise((resolve) => setTimeout(resolve, SETTLE_SECONDS * 1000));
      const before = pids.map(cpuMs);
      await new Promise((resolve) => setTimeout(resolve, IDLE_SECONDS * 1000));
      return pids.map((pid, i) => (cpuMs(pid) - before[i]!) / (IDLE_SECONDS * 10));
    };
    const sandboxesWithout = Math.max(...(await idleCpu(sandboxes)));
    const listener = await startListener(one!.url, accounts.listener, endpoint.url);
    children.push(listener);

    const latencies: Record<keyof typeof accounts, number[]> = { listener: [], url: [] };
    const oneEvent = async (through: keyof typeof accounts) => {
      const sent = performance.now();
      const body = JSON.parse(sessionBody(counterparties[through]));
      const session = await call(two!.url, accounts[through], "/api/v1/earn/payment-sessions/", body);
      return (await endpoint.receipt(session.id)) - sent;
    };
    for (const through of ["listener", "url"] as const) for (let i = 0; i < 20; i++) await oneEvent(through); // warm-up
    for (let round = 0; round < ROUNDS; round++)
      for (const through of ["listener", "url"] as const)
        for (let i = 0; i < events / ROUNDS; i++) latencies[through].push(await oneEvent(through));

    const [listenerIdle, ...sandboxesIdle] = await idleCpu([listener.pid!, ...sandboxes]);
    await endpoint.close();
    const figures = (values: number[]): Latency => {
      const sorted = [...values].sort((a, b) => a - b);
      return { p50Ms: percentile(sorted, 50), p99Ms: percentile(sorted, 99) };
    };
    return {
      events,
      listener: figures(latencies.listener),
      url: figures(latencies.url),
      idle: { sandboxes: Math.max(...sandboxesIdle), listener: listenerIdle!, sandboxesWithout },
    };
  } finally {
    for (const child of children) child.kill("SIGKILL");
    cluster.stop();
  }
}

const counterparty = (who: string) => ({
  type: "INDIVIDUAL",
  payment_rail: "PAYIN",
  first_name: "Ana",
  last_name: "Li",
  email: `bench+${who}@example.com`,
  phone_number: "+34600000000",
});
