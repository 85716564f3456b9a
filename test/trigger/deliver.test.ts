// deliver() in this process (the CLI test runs it as a child, where a mutant is never on):
// what it sends, when it retries and how long it waits, and what it reports.
import { createServer, type IncomingHttpHeaders, type Server } from "node:http";
import { afterEach, describe, expect, it, vi } from "vitest";
import { deliver, type AttemptReport } from "../../src/trigger/deliver.ts";
import { verifyWebhook } from "../../src/webhooks/index.ts";
import { EXAMPLE_SECRET, exampleEvent } from "../support/events.ts";

/** A receiver that answers each request with the next status of `statuses` (the last one repeats); `null` never answers. */
async function receiver(statuses: Array<number | null>) {
  const seen: Array<{ headers: IncomingHttpHeaders; body: string }> = [];
  const server: Server = createServer(async (req, res) => {
    let body = "";
    for await (const chunk of req) body += chunk;
    seen.push({ headers: req.headers, body });
    const status = statuses[Math.min(seen.length - 1, statuses.length - 1)];
    if (status !== null) res.writeHead(status!).end("ignored");
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const close = () => (server.closeAllConnections(), new Promise((resolve) => server.close(resolve)));
  return { url: `http://127.0.0.1:${(server.address() as { port: number }).port}/hook`, seen, close };
}

let stop: (() => Promise<unknown>) | undefined;
afterEach(async () => {
  vi.restoreAllMocks();
  await stop?.();
  stop = undefined;
});

const sessionCreated = () => exampleEvent("session-created");

describe("deliver", () => {
  it("posts each event, in order, signed so that verifyWebhook accepts it, as JSON from payin-trigger", async () => {
    const r = await receiver([204]);
    stop = r.close;
    const events = [sessionCreated(), exampleEvent("session-expired")];
    const reports = await deliver(events, { url: r.url, secret: EXAMPLE_SECRET });
    expect(reports.map((x) => [x.event.type, x.delivered, x.attempts.length])).toEqual([
      ["session-created", true, 1],
      ["session-expired", true, 1],
    ]);
    for (const [i, { headers, body }] of r.seen.entries()) {
      expect(body).toBe(JSON.stringify(events[i]));
      expect(headers["content-type"]).toBe("application/json");
      expect(headers["user-agent"]).toBe("payin-trigger");
      await expect(verifyWebhook(body, headers, EXAMPLE_SECRET)).resolves.toEqual(events[i]);
    }
  });

  it.each([
    [200, true],
    [299, true],
    [300, false],
    [400, false],
    [500, false],
  ])("takes %i as %s", async (status, ok) => {
    const r = await receiver([status]);
    stop = r.close;
    const [report] = await deliver([sessionCreated()], { url: r.url, secret: EXAMPLE_SECRET, attempts: 1 });
    expect(report!.delivered).toBe(ok);
    expect(report!.attempts).toMatchObject([{ attempt: 1, status, ok }]);
  });

  it("retries until a 2xx, with the same webhook-id, reporting every attempt as it ends", async () => {
    const r = await receiver([500, 503, 204, 500]);
    stop = r.close;
    const told: AttemptReport[] = [];
    const [report] = await deliver([sessionCreated()], {
      url: r.url,
      secret: EXAMPLE_SECRET,
      backoffMs: 1,
      onAttempt: (a) => told.push(a),
    });
    expect(report!.delivered).toBe(true);
    expect(report!.attempts.map((a) => [a.attempt, a.status, a.ok])).toEqual([
      [1, 500, false],
      [2, 503, false],
      [3, 204, true],
    ]);
    expect(told).toEqual(report!.attempts);
    for (const a of told) expect(a.ms).toBeGreaterThanOrEqual(0);
    expect(new Set(r.seen.map((s) => s.headers["webhook-id"]))).toEqual(new Set([sessionCreated().id]));
  });

  it("stops after the number of attempts given (default 4), undelivered", async () => {
    const r = await receiver([500]);
    stop = r.close;
    const [three] = await deliver([sessionCreated()], { url: r.url, secret: EXAMPLE_SECRET, attempts: 3, backoffMs: 1 });
    expect(three).toMatchObject({ delivered: false });
    expect(three!.attempts.map((a) => a.attempt)).toEqual([1, 2, 3]);
    const [byDefault] = await deliver([sessionCreated()], { url: r.url, secret: EXAMPLE_SECRET, backoffMs: 1 });
    expect(byDefault!.attempts).toHaveLength(4);
  });

  it("waits backoff × 2ⁿ before each retry, plus up to half of that as jitter (default 1 s)", async () => {
    const r = await receiver([500]);
    stop = r.close;
    // The waits deliver() asks for, told from fetch's own timers by where they are set.
    const delays: number[] = [];
    const realSetTimeout = globalThis.setTimeout;
    vi.spyOn(globalThis, "setTimeout").mockImplementation(((fn: () => void, ms?: number, ...rest: unknown[]) => {
      if (new Error().stack?.includes("trigger/deliver.ts")) delays.push(ms ?? 0);
      return realSetTimeout(fn, ms, ...rest);
    }) as typeof setTimeout);
    vi.spyOn(Math, "random").mockReturnValue(0);
    await deliver([sessionCreated()], { url: r.url, secret: EXAMPLE_SECRET, attempts: 4, backoffMs: 10 });
    expect(delays).toEqual([10, 20, 40]);
    vi.spyOn(Math, "random").mockReturnValue(0.999999);
    await deliver([sessionCreated()], { url: r.url, secret: EXAMPLE_SECRET, attempts: 3, backoffMs: 10 });
    expect(delays.slice(3).map((ms) => Math.round(ms))).toEqual([15, 30]);
    vi.spyOn(Math, "random").mockReturnValue(0);
    await deliver([sessionCreated()], { url: r.url, secret: EXAMPLE_SECRET, attempts: 2 });
    expect(delays.at(-1)).toBe(1000);
  });

  it("reports a receiver that does not answer in time, and one that is not there", async () => {
    const r = await receiver([null]);
    stop = r.close;
    const [slow] = await deliver([sessionCreated()], { url: r.url, secret: EXAMPLE_SECRET, attempts: 1, timeoutMs: 100 });
    expect(slow!.attempts).toMatchObject([{ status: "no answer within 100 ms", ok: false }]);
    await r.close();
    stop = undefined;
    const [gone] = await deliver([sessionCreated()], { url: r.url, secret: EXAMPLE_SECRET, attempts: 1 });
    expect(gone!.attempts[0]!.status).toMatch(/ECONNREFUSED/);
    expect(gone!.attempts[0]!.ok).toBe(false);
  });
});
