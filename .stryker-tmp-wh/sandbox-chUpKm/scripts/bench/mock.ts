// @ts-nocheck
// The mock (front server + Prism) against Prism alone, in the same run: time from start to
// first answer, then request rate and latency of create payment session under autocannon.
import { spawn, type ChildProcess } from "node:child_process";
import path from "node:path";
import autocannon from "autocannon";
import { freePort } from "../../src/mock/server.ts";
import { bin, root } from "../lib/paths.ts";

const BODY = JSON.stringify({ amount: 49.99, currency: "EUR", counterparty_id: "cp_7Hq2Lx9RbT4m", redirect_url: "https://shop.example.com/thanks" });

interface Contender {
  name: string;
  start(port: number): ChildProcess;
}

const contenders: Contender[] = [
  { name: "npm run mock (front + Prism)", start: (port) => spawn(process.execPath, [path.join(root, "src/mock/cli.ts"), "--port", String(port)], { stdio: "ignore" }) },
  { name: "Prism alone (reference)", start: (port) => spawn(bin("prism"), ["mock", "generated/openapi.yaml", "-h", "127.0.0.1", "-p", String(port)], { cwd: root, stdio: "ignore" }) },
];

export interface MockFigures {
  name: string;
  startupMs: number;
  requestsPerSecond: number;
  latencyP50Ms: number;
  latencyP99Ms: number;
  non2xx: number;
}

export async function benchMock(durationSeconds: number): Promise<MockFigures[]> {
  const figures: MockFigures[] = [];
  for (const contender of contenders) {
    const port = await freePort();
    const started = performance.now();
    const child = contender.start(port);
    try {
      await firstAnswer(`http://127.0.0.1:${port}/webhooks`);
      const startupMs = performance.now() - started;
      const result = await autocannon({
        url: `http://127.0.0.1:${port}/api/v1/earn/payment-sessions/`,
        method: "POST",
        headers: { "Content-Type": "application/json", Authorization: "Bearer bench" },
        body: BODY,
        connections: 10,
        duration: durationSeconds,
      });
      figures.push({
        name: contender.name,
        startupMs,
        requestsPerSecond: result.requests.average,
        latencyP50Ms: result.latency.p50,
        latencyP99Ms: result.latency.p99,
        non2xx: result.non2xx,
      });
    } finally {
      child.kill("SIGTERM");
      await new Promise((resolve) => child.once("exit", resolve));
    }
  }
  return figures;
}

async function firstAnswer(url: string) {
  const deadline = Date.now() + 60_000;
  while (Date.now() < deadline) {
    try {
      await fetch(url, { headers: { Authorization: "Bearer bench" } });
      return;
    } catch {
      await new Promise((resolve) => setTimeout(resolve, 20));
    }
  }
  throw new Error(`${url} did not answer within 60 s`);
}
