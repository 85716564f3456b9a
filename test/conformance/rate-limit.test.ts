// The kit's calls to a target with a rate limit (rate-limit.ts, through Target): a 429 is waited
// out for its Retry-After and the request sent again, as the package's client does; a wait that
// would pass the call's timeout is not made, and the 429 is the answer; any other status, 503
// with its Retry-After included, is the answer as it comes. No test waits on the clock: the
// waits asked for are 0 s, or longer than the timeout.
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { afterEach, expect, it } from "vitest";
import { Target } from "../../src/conformance/target.ts";

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
  const target = new Target(url, "token", 15_000);
  const { answer } = await target.call("GET", "/webhooks");
  expect([answer.status, requests(), target.rateLimits.counted.requests]).toEqual([200, 3, 2]);
});

it("takes the 429 as the answer when waiting as it asks would pass the call's timeout", async () => {
  const { url, requests } = await targetAnswering(() => ({ status: 429, retryAfter: "30" }));
  const target = new Target(url, "token", 15_000);
  const started = performance.now();
  const { answer } = await target.call("GET", "/webhooks");
  expect([answer.status, requests(), target.rateLimits.counted]).toEqual([429, 1, { requests: 0, waitedMs: 0 }]);
  expect(performance.now() - started).toBeLessThan(5000);
});

it("takes any other status as the answer, a 503 with Retry-After too", async () => {
  const { url, requests } = await targetAnswering(() => ({ status: 503, retryAfter: "0" }));
  const target = new Target(url, "token", 15_000);
  expect([(await target.call("GET", "/webhooks")).answer.status, requests(), target.rateLimits.counted.requests]).toEqual([503, 1, 0]);
});
