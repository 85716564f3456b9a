// The HTTP transport's bounds (http-transport.ts): one deadline, the delivery timeout, for the
// whole attempt, whatever it waits on (the host's look-up, the receiver's answer), so that an
// attempt ends before its claim does; and a kept-alive connection the receiver had closed tried
// once more on a new one, and only that. The answer's first bytes come back with its status, but
// never from a hosted sandbox (D21). The deadline is measured on a clock the test moves: it ends
// an attempt when the test says, and no test waits for a timeout on the system's clock.
import { createServer, type IncomingMessage, type Server, type ServerResponse } from "node:http";
import type { AddressInfo, Socket } from "node:net";
import { afterEach, describe, expect, it } from "vitest";
import { Destinations } from "../../src/sandbox/delivery/destinations.ts";
import { ManualClock } from "../support/manual-clock.ts";
import { HttpTransport } from "../../src/sandbox/delivery/http-transport.ts";
import type { WebhookRequest } from "../../src/sandbox/delivery/transport.ts";

const servers: Server[] = [];
afterEach(() => {
  for (const server of servers.splice(0)) server.close();
});

/** A receiver on loopback; `handle` gets each request with its connection's number and the request's number on it (from 1). */
async function receiver(handle: (req: IncomingMessage, res: ServerResponse, at: { connection: number; n: number }) => void) {
  const sockets = new Map<Socket, { connection: number; n: number }>();
  const seen: Array<{ connection: number; n: number }> = [];
  const server = createServer({ keepAliveTimeout: 60_000 }, (req, res) => {
    const at = sockets.get(req.socket) ?? { connection: sockets.size + 1, n: 0 };
    at.n++;
    sockets.set(req.socket, at);
    seen.push({ ...at });
    req.resume();
    handle(req, res, at);
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  servers.push(server);
  return { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/hook`, seen };
}

const request = (url: string, accountId = 1): WebhookRequest => ({
  accountId,
  url,
  listening: false,
  headers: { "Content-Type": "application/json" },
  body: "{}",
});

/** A transport on a clock of the test's own: `timeUp` moves it by the whole timeout, `pending` counts the timers that wait on it. */
function transportWith(settings: ConstructorParameters<typeof HttpTransport>[0] = {}) {
  const clock = new ManualClock();
  const transport = new HttpTransport({ ...settings, clock });
  return { transport, clock, timeUp: () => clock.advance(transport.timeoutMs) };
}

/** Lets the connection of an answered request go back to its pool. */
const settle = () => new Promise((resolve) => setImmediate(resolve));

describe("an attempt's deadline", () => {
  it("ends an attempt whose host's look-up never answers, saying so without the resolver's detail", async () => {
    const signals: AbortSignal[] = [];
    const destinations = new Destinations({
      hosted: true,
      resolve: (_hostname, signal) => {
        signals.push(signal);
        return new Promise(() => {});
      },
    });
    const { transport, clock } = transportWith({ allowedHosts: ["*"], destinations, timeoutMs: 15_000 });
    const sent = transport.send(request("https://stalled.example/hook"), new AbortController().signal);
    await expect.poll(() => signals.length).toBe(1);
    // The attempt has one deadline, of the whole timeout: a moment short of it, the look-up still waits.
    await clock.advance(14_999);
    expect(signals[0]!.aborted).toBe(false);
    await clock.advance(1);
    expect(await sent).toEqual({ error: "Not sent: stalled.example could not be resolved within 15 s." });
    // The resolver is told, so that c-ares cancels its question.
    expect(signals[0]!.aborted).toBe(true);
  });

  it("ends an attempt still waiting for a look-up slot that its account's other attempts hold", async () => {
    const asked: string[] = [];
    const destinations = new Destinations({
      hosted: true,
      lookups: { perAccount: 1, total: 10 },
      resolve: (hostname) => {
        asked.push(hostname);
        return new Promise(() => {});
      },
    });
    const { transport, timeUp } = transportWith({ allowedHosts: ["*"], destinations, timeoutMs: 15_000 });
    const { transport: other } = transportWith({ allowedHosts: ["*"], destinations, timeoutMs: 15_000 });
    void other.send(request("https://stalled.example/first"), new AbortController().signal);
    await expect.poll(() => asked).toEqual(["stalled.example"]);
    const waiting = transport.send(request("https://stalled.example/second"), new AbortController().signal);
    await timeUp();
    expect(await waiting).toEqual({ error: "Not sent: stalled.example could not be resolved within 15 s." });
    // The first still holds the account's one slot: the second never asked.
    expect(asked).toEqual(["stalled.example"]);
  });

  it("ends an attempt whose receiver never answers", async () => {
    const { url, seen } = await receiver(() => {});
    const { transport, timeUp } = transportWith({ timeoutMs: 2_000 });
    const sent = transport.send(request(url), new AbortController().signal);
    await expect.poll(() => seen.length).toBe(1);
    await timeUp();
    expect(await sent).toEqual({ error: "No answer within 2 s." });
  });
});

describe("a kept-alive connection", () => {
  it("that the receiver closed is tried once more on a new connection, within the same deadline", async () => {
    // A receiver that closes an idle connection as the next request on it arrives (its keep-alive timeout firing then).
    const { url, seen } = await receiver((req, res, { n }) => (n > 1 ? req.socket.destroy() : res.writeHead(204).end()));
    const { transport, clock } = transportWith();
    expect(await transport.send(request(url), new AbortController().signal)).toEqual({ status: 204, firstBytes: "" });
    await settle();
    expect(await transport.send(request(url), new AbortController().signal)).toEqual({ status: 204, firstBytes: "" });
    expect(seen).toEqual([
      { connection: 1, n: 1 },
      { connection: 1, n: 2 },
      { connection: 2, n: 1 },
    ]);
    // One deadline an attempt, the retry's included.
    expect(clock.pending).toBe(2);
  });

  it("is not tried again once the receiver began to answer", async () => {
    const { url, seen } = await receiver((req, res, { n }) => {
      if (n === 1) return res.writeHead(204).end();
      req.socket.write("HTTP/1.1 20");
      req.socket.destroy();
    });
    const { transport } = transportWith();
    await transport.send(request(url), new AbortController().signal);
    await settle();
    expect(await transport.send(request(url), new AbortController().signal)).toMatchObject({
      error: expect.stringMatching(/^The request failed: /),
    });
    expect(seen).toHaveLength(2);
  });

  it("is the only one tried again: a new connection dropped is the attempt's failure", async () => {
    const { url, seen } = await receiver((req) => req.socket.destroy());
    const { transport } = transportWith();
    expect(await transport.send(request(url), new AbortController().signal)).toEqual({ error: "The request failed: ECONNRESET." });
    expect(seen).toHaveLength(1);
  });
});

describe("the answer's first bytes", () => {
  it("come back with its status, 512 at most, as text; the rest is read, and the connection serves the next attempt", async () => {
    // Two bytes a character: the 512th byte ends the 256th.
    const { url, seen } = await receiver((_req, res) => res.writeHead(200, { "Content-Type": "text/plain" }).end("é".repeat(400)));
    const { transport } = transportWith();
    expect(await transport.send(request(url), new AbortController().signal)).toEqual({ status: 200, firstBytes: "é".repeat(256) });
    await settle();
    await transport.send(request(url), new AbortController().signal);
    expect(seen).toEqual([
      { connection: 1, n: 1 },
      { connection: 1, n: 2 },
    ]);
  });

  it("stand at the deadline as far as they came: an answer begun is not an attempt unanswered", async () => {
    const { url, seen } = await receiver((_req, res) => res.writeHead(500).write("never ends"));
    const { transport, timeUp } = transportWith({ timeoutMs: 2_000 });
    const sent = transport.send(request(url), new AbortController().signal);
    await expect.poll(() => seen.length).toBe(1);
    await timeUp();
    expect(await sent).toEqual({ status: 500, firstBytes: expect.stringMatching(/^(never ends)?$/) });
  });

  it("are never kept by a hosted sandbox: its status only, whatever the receiver answers", async () => {
    const destinations = new Destinations({ hosted: true, allowedNetworks: ["127.0.0.0/8"] });
    const { url } = await receiver((_req, res) => res.writeHead(200).end("the receiver's own words"));
    const { transport } = transportWith({ allowedHosts: ["127.0.0.1"], destinations });
    expect(await transport.send(request(url), new AbortController().signal)).toEqual({ status: 200 });
  });
});
