// The memory a sandbox process keeps per token it has seen: two compiled bins on one
// throwaway PostgreSQL, each asked GET /webhooks 200,000 times, 50 requests in flight: one with
// 1,000 distinct tokens (each asked 200 times), the other with 200,000 (each a new account, as a
// CI run's token is). The same load, so that the difference in their RSS after it is what the
// tokens kept (V8 keeps the heap it grew under load for a while, whatever it holds).
import { setTimeout as sleep } from "node:timers/promises";
import { startPostgres } from "../lib/temp-postgres.ts";
import { rssMiB } from "./measure.ts";
import { startBin } from "./shared.ts";

export interface TokenMemory {
  requests: number;
  /** RSS after the load, MiB: with 1,000 distinct tokens, and with as many tokens as requests. */
  fewTokensMiB: number;
  manyTokensMiB: number;
  seconds: number;
}

/** Sends `requests` GET /webhooks, `inFlight` at a time, the n-th with token `token(n)`. */
async function ask(url: string, requests: number, token: (n: number) => string, inFlight = 50) {
  let next = 0;
  await Promise.all(
    Array.from({ length: inFlight }, async () => {
      while (next < requests) {
        const res = await fetch(`${url}/webhooks`, { headers: { Authorization: `Bearer ${token(next++)}` } });
        await res.arrayBuffer();
        if (res.status !== 404) throw new Error(`GET /webhooks answered ${res.status}`);
      }
    }),
  );
}

/** One fresh process under the load; its RSS once the load is over. */
async function rssAfter(database: string, requests: number, token: (n: number) => string): Promise<number> {
  const { child, url } = await startBin(["--database", database]);
  try {
    await ask(url, requests, token);
    await sleep(2000);
    return rssMiB(child.pid!);
  } finally {
    child.kill("SIGKILL");
  }
}

export async function benchTokenMemory(requests = 200_000): Promise<TokenMemory> {
  const cluster = startPostgres("sandbox");
  try {
    const started = performance.now();
    const fewTokensMiB = await rssAfter(cluster.createDatabase(), requests, (n) => `few-${n % 1000}`);
    const seconds = (performance.now() - started) / 1000;
    const manyTokensMiB = await rssAfter(cluster.createDatabase(), requests, (n) => `many-${n}`);
    return { requests, fewTokensMiB, manyTokensMiB, seconds };
  } finally {
    cluster.stop();
  }
}
