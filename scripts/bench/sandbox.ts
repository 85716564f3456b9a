// The sandbox against the Prism CLI and against a bare node:http server that answers a fixed
// body (the most any node:http server can do here), in one run: time from start to first
// answer, then request rate and latency of create payment session under autocannon. Each
// contender is a fresh process, started the way its users start it.
import { execFileSync, spawn, type ChildProcess } from "node:child_process";
import path from "node:path";
import autocannon from "autocannon";
import { bin, root } from "../lib/paths.ts";
import { toolEnv } from "../lib/tool-env.ts";
import { median } from "./measure.ts";
import { freePort } from "./mock.ts";

export const TOKEN = "bench";
const EXAMPLE_COUNTERPARTY = "cp_7Hq2Lx9RbT4m";
export const sessionBody = (counterparty_id: string) =>
  JSON.stringify({ amount: 49.99, currency: "EUR", counterparty_id, redirect_url: "https://shop.example.com/thanks" });

/** A server that reads the request and answers 201 with one fixed session, doing nothing else. */
const BARE_SERVER =
  `
const { createServer } = require("node:http");
const body = ${JSON.stringify(sessionBody(EXAMPLE_COUNTERPARTY))};
const server = createServer((req, res) => {
  req.resume();
  req.on("end", () => { res.writeHead(201, { "Content-Type": "application/json", ` +
  `"Content-Length": Buffer.byteLength(body) }); res.end(body); });
});
server.listen(0, "127.0.0.1", () => console.log("listening on http://127.0.0.1:" + server.address().port));
`;

export interface Contender {
  name: string;
  /** Starts the server; resolves to its URL once it could be asked (not yet answered). */
  start(): Promise<{ child: ChildProcess; url: string }>;
  /** The body to send, after anything the server needs first (the sandbox: a counterparty). */
  prepare(url: string): Promise<string>;
}

/** Spawns a server that prints `listening on <url>`, and resolves to that URL. */
export async function printsItsUrl(command: string, args: string[]) {
  const child = spawn(command, args, { cwd: root, stdio: ["ignore", "pipe", "ignore"] });
  const url = await new Promise<string>((resolve, reject) => {
    child.stdout!.on("data", (chunk: Buffer) => {
      const found = chunk.toString().match(/listening on (http:\/\/\S+)/)?.[1];
      if (found) resolve(found);
    });
    child.once("exit", (code) => reject(new Error(`${command} ${args.join(" ")} exited with ${code}`)));
  });
  return { child, url };
}

export async function newCounterparty(url: string): Promise<string> {
  const res = await fetch(`${url}/api/v1/send/counterparties/`, {
    method: "POST",
    headers: { Authorization: `Bearer ${TOKEN}`, "Content-Type": "application/json" },
    body: JSON.stringify({
      type: "INDIVIDUAL",
      payment_rail: "PAYIN",
      first_name: "Ana",
      last_name: "Li",
      email: `bench+${Date.now()}@example.com`,
      phone_number: "+34600000000",
    }),
  });
  return ((await res.json()) as { id: string }).id;
}

const SANDBOX_CONTENDERS: Contender[] = [
  {
    name: "bare node:http, fixed body (limit)",
    start: () => printsItsUrl(process.execPath, ["-e", BARE_SERVER]),
    prepare: async () => sessionBody(EXAMPLE_COUNTERPARTY),
  },
  {
    // The bin as a consumer runs it: compiled JavaScript from dist/.
    name: "payin-sandbox (compiled bin)",
    start: () => printsItsUrl(process.execPath, [path.join(root, "dist/src/sandbox/cli.js"), "--port", "0"]),
    prepare: async (url) => sessionBody(await newCounterparty(url)),
  },
  {
    // In the repository: Node strips the TypeScript of every module as it loads it.
    name: "npm run sandbox (TypeScript source)",
    start: () => printsItsUrl(process.execPath, [path.join(root, "src/sandbox/cli.ts"), "--port", "0"]),
    prepare: async (url) => sessionBody(await newCounterparty(url)),
  },
  {
    name: "Prism CLI (reference)",
    start: async () => {
      const port = await freePort();
      const child = spawn(bin("prism"), ["mock", "generated/openapi.yaml", "-h", "127.0.0.1", "-p", String(port)], {
        cwd: root,
        stdio: "ignore",
        env: toolEnv(),
      });
      return { child, url: `http://127.0.0.1:${port}` };
    },
    prepare: async () => sessionBody(EXAMPLE_COUNTERPARTY),
  },
];

export interface ServerFigures {
  name: string;
  startupMs: number;
  requestsPerSecond: number;
  latencyP50Ms: number;
  latencyP99Ms: number;
  non2xx: number;
}

/**
 * Each contender's start-up (median of `startups` cold starts), then its rate and latency
 * under load. Both alternate between the contenders, the load in rounds of `roundSeconds`,
 * so that all of them see the same machine state; each figure is the median of its rounds.
 */
export async function benchSandbox(
  durationSeconds: number,
  { contenders = SANDBOX_CONTENDERS, startups = 3, roundSeconds = 2, build = true } = {},
): Promise<ServerFigures[]> {
  // The compiled bin is measured as shipped: compile dist/ from today's sources first (not
  // needed when every contender runs from source).
  if (build) execFileSync(process.execPath, [path.join(root, "scripts/build-package.ts")], { stdio: "ignore" });
  const startupRuns: Record<string, number[]> = {};
  for (let i = 0; i < startups; i++)
    for (const contender of contenders) {
      const { ms, stop } = await timeToFirstAnswer(contender);
      (startupRuns[contender.name] ??= []).push(ms);
      await stop();
    }

  const running = [];
  try {
    for (const contender of contenders) {
      const started = await timeToFirstAnswer(contender);
      running.push({ contender, ...started, body: await contender.prepare(started.url) });
    }
    const rounds: Record<string, autocannon.Result[]> = {};
    for (let round = 0; round < Math.max(1, Math.round(durationSeconds / roundSeconds)); round++)
      for (const { contender, url, body } of running)
        (rounds[contender.name] ??= []).push(
          await autocannon({
            url: `${url}/api/v1/earn/payment-sessions/`,
            method: "POST",
            headers: { "Content-Type": "application/json", Authorization: `Bearer ${TOKEN}` },
            body,
            connections: 10,
            duration: roundSeconds,
          }),
        );
    return running.map(({ contender }) => {
      const results = rounds[contender.name]!;
      return {
        name: contender.name,
        startupMs: median(startupRuns[contender.name]!),
        requestsPerSecond: median(results.map((r) => r.requests.average)),
        latencyP50Ms: median(results.map((r) => r.latency.p50)),
        latencyP99Ms: median(results.map((r) => r.latency.p99)),
        non2xx: results.reduce((sum, r) => sum + r.non2xx, 0),
      };
    });
  } finally {
    await Promise.all(running.map((r) => r.stop()));
  }
}

/** Starts a contender and measures the time from spawn until it first answers a request. */
async function timeToFirstAnswer(contender: Contender) {
  const started = performance.now();
  const { child, url } = await contender.start();
  const stop = () =>
    new Promise<void>((resolve) => {
      if (child.exitCode !== null || child.signalCode !== null) return resolve();
      child.once("exit", () => resolve());
      child.kill("SIGTERM");
    });
  const deadline = Date.now() + 60_000;
  for (;;) {
    try {
      await fetch(`${url}/webhooks`, { headers: { Authorization: `Bearer ${TOKEN}` } });
      return { ms: performance.now() - started, url, stop };
    } catch {
      if (Date.now() > deadline) {
        await stop();
        throw new Error(`${contender.name} did not answer within 60 s`);
      }
      await new Promise((resolve) => setTimeout(resolve, 5));
    }
  }
}
