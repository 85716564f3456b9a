// The mock (front server + Prism in process) against the Prism CLI, in the same run: time from
// start to first answer, then request rate and latency of create payment session under
// autocannon. Each contender is a fresh process, started the way its users start it.
import { spawn, type ChildProcess } from "node:child_process";
import { createServer as createNetServer } from "node:net";
import path from "node:path";
import autocannon from "autocannon";
import { bin, root } from "../lib/paths.ts";
import { toolEnv } from "../lib/tool-env.ts";
import { median } from "./measure.ts";

const BODY = JSON.stringify({
  amount: 49.99,
  currency: "EUR",
  counterparty_id: "cp_7Hq2Lx9RbT4m",
  redirect_url: "https://shop.example.com/thanks",
});

interface Contender {
  name: string;
  /** Starts the server and resolves to its URL once it could be asked (not yet answered). */
  start(): Promise<{ child: ChildProcess; url: string }>;
}

const contenders: Contender[] = [
  {
    name: "npm run mock (front + Prism)",
    start: async () => {
      // Port 0, as a test would: the mock prints the URL it bound.
      const child = spawn(process.execPath, [path.join(root, "src/mock/cli.ts"), "--port", "0"], { stdio: ["ignore", "pipe", "ignore"] });
      const url = await new Promise<string>((resolve, reject) => {
        child.stdout!.on("data", (chunk: Buffer) => {
          const found = chunk.toString().match(/listening on (http:\/\/\S+)/)?.[1];
          if (found) resolve(found);
        });
        child.once("exit", (code) => reject(new Error(`the mock exited with ${code}`)));
      });
      return { child, url };
    },
  },
  {
    name: "Prism CLI (reference)",
    start: async () => {
      // The CLI needs a port number: probe one, then hand it over.
      const port = await freePort();
      const child = spawn(bin("prism"), ["mock", "generated/openapi.yaml", "-h", "127.0.0.1", "-p", String(port)], {
        cwd: root,
        stdio: "ignore",
        env: toolEnv(),
      });
      return { child, url: `http://127.0.0.1:${port}` };
    },
  },
];

export interface MockFigures {
  name: string;
  startupMs: number;
  requestsPerSecond: number;
  latencyP50Ms: number;
  latencyP99Ms: number;
  non2xx: number;
}

/** Each contender's start-up, the median of `startups` cold starts, then its rate. */
export async function benchMock(durationSeconds: number, startups = 3): Promise<MockFigures[]> {
  const startupRuns: Record<string, number[]> = {};
  // Start-ups alternate between the contenders, so that both see the same machine state.
  for (let i = 0; i < startups; i++)
    for (const contender of contenders) {
      const { ms, stop } = await timeToFirstAnswer(contender);
      (startupRuns[contender.name] ??= []).push(ms);
      await stop();
    }

  const figures: MockFigures[] = [];
  for (const contender of contenders) {
    const { url, stop } = await timeToFirstAnswer(contender);
    try {
      const result = await autocannon({
        url: `${url}/api/v1/earn/payment-sessions/`,
        method: "POST",
        headers: { "Content-Type": "application/json", Authorization: "Bearer bench" },
        body: BODY,
        connections: 10,
        duration: durationSeconds,
      });
      figures.push({
        name: contender.name,
        startupMs: median(startupRuns[contender.name]!),
        requestsPerSecond: result.requests.average,
        latencyP50Ms: result.latency.p50,
        latencyP99Ms: result.latency.p99,
        non2xx: result.non2xx,
      });
    } finally {
      await stop();
    }
  }
  return figures;
}

async function timeToFirstAnswer(contender: Contender) {
  const started = performance.now();
  const { child, url } = await contender.start();
  const stop = () =>
    new Promise<void>((resolve) => {
      if (child.exitCode !== null || child.signalCode !== null) return resolve();
      child.once("exit", () => resolve());
      child.kill("SIGTERM");
    });
  try {
    await firstAnswer(`${url}/webhooks`);
  } catch (error) {
    await stop();
    throw error;
  }
  return { ms: performance.now() - started, url, stop };
}

async function firstAnswer(url: string) {
  const deadline = Date.now() + 60_000;
  while (Date.now() < deadline) {
    try {
      await fetch(url, { headers: { Authorization: "Bearer bench" } });
      return;
    } catch {
      await new Promise((resolve) => setTimeout(resolve, 10));
    }
  }
  throw new Error(`${url} did not answer within 60 s`);
}

/** A port nobody listens on right now, for the Prism CLI, which cannot report the one it bound. */
export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const probe = createNetServer();
    probe.once("error", reject);
    probe.listen(0, "127.0.0.1", () => {
      const { port } = probe.address() as { port: number };
      probe.close(() => resolve(port));
    });
  });
}
