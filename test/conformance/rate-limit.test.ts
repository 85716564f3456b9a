// The kit's calls to a target with a rate limit (rate-limit.ts, through Target): a 429 is waited
// out for its Retry-After and the request sent again, as the package's client does; a wait that
// would pass the call's timeout is not made, and the 429 is the answer; any other status, 503
// with its Retry-After included, is the answer as it comes. No test waits on the system's clock:
// the waits asked for are 0 s, or longer than the timeout, or made on a clock the test moves.
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { afterEach, expect, it, vi } from "vitest";
import { Target } from "../../src/conformance/target.ts";
import { ManualClock, REAL_WORK } from "../support/manual-clock.ts";

let server: Server | undefined;
afterEach(() => void server?.close());

/** A target that answers its n-th request (from 1) with what `answer` says. */
async function targetAnswering(answer: (n: number) => { status: number; retryAfter?: string }) {
  let n = 0;
  server = createServer((req, res) => {
    req.resume();
    const { status, retryAfter } = answer(++n);
    res.writeHead(status, { "Content-Type": "application/json", ...(retryAfter ? { "Retry-After": retryAfter } : {}) }).end("{}");
  });
  await new Promise<void>((resolve) => server!.listen(0, "127.0.0.1", resolve));
  return { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, requests: () => n };
}

it("sends a request again after a 429's Retry-After, and counts it", async () => {
  const { url, requests } = await targetAnswering((n) => (n < 3 ? { status: 429, retryAfter: "0" } : { status: 200 }));
  const target = new Target(url, "token", { timeoutMs: 15_000 });
  const { answer } = await target.call("GET", "/webhooks");
  expect([answer.status, requests(), target.rateLimits.counted.requests]).toEqual([200, 3, 2]);
});

it("waits out a 429's Retry-After on the clock it is given, and counts the time waited on it", async () => {
  const { url, requests } = await targetAnswering((n) => (n === 1 ? { status: 429, retryAfter: "2" } : { status: 200 }));
  const clock = new ManualClock();
  const target = new Target(url, "token", { timeoutMs: 15_000, clock });
  const called = target.call("GET", "/webhooks");
  // Beside the call's timeout, its wait of 2 s: nothing sent again before it is over.
  await vi.waitFor(() => expect(clock.dueIn()).toEqual([2000, 15_000]), REAL_WORK);
  await clock.advance(1999);
  expect([requests(), target.rateLimits.counted]).toEqual([1, { requests: 1, waitedMs: 1999 }]);
  await clock.advance(1);
  expect((await called).answer.status).toBe(200);
  expect([requests(), target.rateLimits.counted]).toEqual([2, { requests: 1, waitedMs: 2000 }]);
});

it("takes the 429 as the answer when waiting as it asks would pass the call's timeout", async () => {
  const { url, requests } = await targetAnswering(() => ({ status: 429, retryAfter: "30" }));
  const target = new Target(url, "token", { timeoutMs: 15_000 });
  const started = performance.now();
  const { answer } = await target.call("GET", "/webhooks");
  expect([answer.status, requests(), target.rateLimits.counted]).toEqual([429, 1, { requests: 0, waitedMs: 0 }]);
  expect(performance.now() - started).toBeLessThan(5000);
});

it("takes any other status as the answer, a 503 with Retry-After too", async () => {
  const { url, requests } = await targetAnswering(() => ({ status: 503, retryAfter: "0" }));
  const target = new Target(url, "token", { timeoutMs: 15_000 });
  expect([(await target.call("GET", "/webhooks")).answer.status, requests(), target.rateLimits.counted.requests]).toEqual([503, 1, 0]);
});
