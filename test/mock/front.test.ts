// The mock's front server, with Prism replaced by a stand-in upstream that this file controls:
// what the front forwards, what it answers itself (400, 413, 503, Prism's errors as problems),
// and that close() stops everything it started. Real Prism answers in test/mock/prism.test.ts.
import { createServer, request, type IncomingHttpHeaders, type IncomingMessage, type Server, type ServerResponse } from "node:http";
import type { Socket } from "node:net";
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it, vi, type Mock } from "vitest";
import { MAX_BODY_BYTES } from "../../src/lib/request-body.ts";
import { startMock, type RunningMock } from "../../src/mock/server.ts";
import { startPrism } from "../../src/mock/prism.ts";

vi.mock("../../src/mock/prism.ts", () => ({ startPrism: vi.fn() }));

const DRAIN_LIMIT_BYTES = 16 * 1024 * 1024;

/** A stand-in for Prism: answers with whatever `reply` says, and records what it was sent. */
interface Upstream {
  url: string;
  received: Array<{ method: string; url: string; headers: IncomingHttpHeaders; body: string }>;
  sockets: Set<Socket>;
  reply: (req: IncomingMessage, res: ServerResponse) => void;
  server: Server;
  close: Mock<() => Promise<void>>;
}

async function startUpstream(): Promise<Upstream> {
  const upstream = { received: [], sockets: new Set() } as unknown as Upstream;
  upstream.server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on("data", (c: Buffer) => chunks.push(c));
    req.on("end", () => {
      upstream.received.push({ method: req.method!, url: req.url!, headers: req.headers, body: Buffer.concat(chunks).toString() });
      upstream.reply(req, res);
    });
  });
  upstream.server.on("connection", (socket) => {
    upstream.sockets.add(socket);
    socket.on("close", () => upstream.sockets.delete(socket));
  });
  await new Promise<void>((resolve) => upstream.server.listen(0, "127.0.0.1", resolve));
  upstream.url = `http://127.0.0.1:${(upstream.server.address() as { port: number }).port}`;
  upstream.close = vi.fn(async () => {});
  upstream.reply = (_req, res) => res.writeHead(200, { "content-type": "application/json" }).end("{}");
  return upstream;
}

let upstream: Upstream;
let mock: RunningMock;

beforeAll(async () => {
  upstream = await startUpstream();
  vi.mocked(startPrism).mockResolvedValue({ url: upstream.url, close: upstream.close });
  mock = await startMock({ port: 0 });
});
afterAll(async () => {
  await mock.close();
  upstream.server.closeAllConnections();
  await new Promise((resolve) => upstream.server.close(resolve));
});
beforeEach(() => {
  upstream.received.length = 0;
  upstream.reply = (_req, res) => res.writeHead(200, { "content-type": "application/json" }).end("{}");
});

const send = (path: string, init: RequestInit = {}) => fetch(mock.url + path, init);
const json = { "content-type": "application/json" };

/** Sends `size` bytes of body without ending the request; resolves with the status if the mock answers first. */
function partialUpload(size: number, waitMs: number): Promise<{ answeredEarly: number | undefined; finish: () => Promise<number> }> {
  return new Promise((resolve, reject) => {
    let status: number | undefined;
    let answered: (s: number) => void;
    const done = new Promise<number>((r) => (answered = r));
    const req = request(`${mock.url}/api/v1/send/counterparties/`, { method: "POST", headers: { ...json, "transfer-encoding": "chunked" } }, (res) => {
      status = res.statusCode;
      res.resume();
      answered(res.statusCode!);
    });
    req.on("error", (e) => (status === undefined ? reject(e) : undefined));
    const chunk = Buffer.alloc(64 * 1024, 0x20);
    let sent = 0;
    const pump = () => {
      while (sent < size) {
        const piece = chunk.subarray(0, Math.min(chunk.length, size - sent));
        sent += piece.length;
        if (!req.write(piece)) return void req.once("drain", pump);
      }
      setTimeout(() => resolve({ answeredEarly: status, finish: () => (req.end(), done) }), waitMs);
    };
    pump();
  });
}

describe("the mock's front", () => {
  it("forwards method, path, query, headers and body to Prism, and Prism's answer back", async () => {
    upstream.reply = (_req, res) => res.writeHead(201, { "content-type": "application/json", "x-from": "prism", "content-encoding": "identity" }).end('{"id":"cp_1"}');
    const res = await send("/api/v1/send/counterparties/?a=1", { method: "POST", headers: { ...json, authorization: "Bearer t" }, body: '{"name":"x"}' });
    expect(res.status).toBe(201);
    expect(await res.text()).toBe('{"id":"cp_1"}');
    expect(res.headers.get("x-from")).toBe("prism");
    expect(res.headers.get("content-encoding")).toBeNull();
    const [seen] = upstream.received;
    expect(seen).toMatchObject({ method: "POST", url: "/api/v1/send/counterparties/?a=1", body: '{"name":"x"}' });
    expect(seen!.headers).toMatchObject({ authorization: "Bearer t", "content-type": "application/json", "content-length": "12" });
    expect(seen!.headers.host).toBe(new URL(upstream.url).host);
  });

  it("forwards a request without a body without one", async () => {
    await send("/api/v1/send/counterparties/schema/");
    expect(upstream.received[0]).toMatchObject({ method: "GET", body: "" });
    expect(upstream.received[0]!.headers["content-length"]).toBeUndefined();
  });

  it("answers a body of exactly 64 KiB through Prism, and one byte more with 413, closing the connection", async () => {
    const body = (size: number) => JSON.stringify({ x: "a".repeat(size - 8) });
    expect(body(MAX_BODY_BYTES).length).toBe(64 * 1024);
    expect((await send("/api/v1/send/counterparties/", { method: "POST", headers: json, body: body(MAX_BODY_BYTES) })).status).toBe(200);
    expect(upstream.received).toHaveLength(1);
    const res = await send("/api/v1/send/counterparties/", { method: "POST", headers: json, body: body(MAX_BODY_BYTES + 1) });
    expect(res.status).toBe(413);
    expect(res.headers.get("connection")).toBe("close");
    expect(res.headers.get("content-type")).toBe("application/problem+json");
    expect(await res.json()).toEqual({
      type: "https://docs.payin.example.com/problems/payload_too_large",
      title: "Payload too large",
      status: 413,
      detail: "The request body is larger than 64 KiB.",
      code: "payload_too_large",
    });
    expect(upstream.received).toHaveLength(1);
  });

  it("reads an oversized body to its end before answering, up to the drain limit", async () => {
    const upload = await partialUpload(DRAIN_LIMIT_BYTES, 300);
    expect(upload.answeredEarly, "answered before the body ended").toBeUndefined();
    expect(await upload.finish()).toBe(413);
  });

  it("answers 413 without waiting for the rest once a body passes the drain limit", async () => {
    const upload = await partialUpload(DRAIN_LIMIT_BYTES + 1, 300);
    expect(upload.answeredEarly).toBe(413);
  });

  it.each(["application/json", "application/problem+json", "Application/JSON; charset=utf-8", "application/json ;charset=utf-8", "application/vnd.payin.v1+json"])(
    "answers a malformed body sent as %j with 400, without asking Prism",
    async (type) => {
      const res = await send("/api/v1/send/counterparties/", { method: "POST", headers: { "content-type": type }, body: "{" });
      expect(res.status).toBe(400);
      expect(res.headers.get("content-type")).toBe("application/problem+json");
      const problem = await res.json();
      expect(problem).toMatchObject({ type: "https://docs.payin.example.com/problems/malformed_request", title: "Malformed request", status: 400, code: "malformed_request" });
      expect(problem.detail).toMatch(/^The request body is not valid JSON: Expected property name .*\.$/);
      expect(upstream.received).toEqual([]);
    },
  );

  it.each(["text/plain", "application/x-json", "application/jsonx", "application/json-seq", "xapplication/json", "application/+json"])(
    "leaves a body sent as %j, which is not JSON, to Prism",
    async (type) => {
      await send("/api/v1/send/counterparties/", { method: "POST", headers: { "content-type": type }, body: "{" });
      expect(upstream.received).toHaveLength(1);
    },
  );

  it("leaves a JSON request with an empty body to Prism", async () => {
    await send("/api/v1/send/counterparties/", { method: "POST", headers: json });
    expect(upstream.received).toHaveLength(1);
  });

  it("puts Prism's violations into the 422 problem's errors[], naming the caller's fields", async () => {
    const violations = [
      { location: ["request", "body", "address"], code: "required", message: "must have required property 'country_code'" },
      { location: ["request", "body", "name"], code: "type", message: "must be string" },
    ];
    upstream.reply = (_req, res) =>
      res.writeHead(422, { "content-type": "application/problem+json", "sl-violations": JSON.stringify(violations) }).end('{"status":422,"detail":"example","errors":[]}');
    const res = await send("/api/v1/send/counterparties/", { method: "POST", headers: json, body: "{}" });
    expect(res.status).toBe(422);
    expect(await res.json()).toEqual({
      status: 422,
      detail: "The request has 2 invalid fields.",
      errors: [
        { field: "address.country_code", message: "must have required property 'country_code'" },
        { field: "name", message: "must be string" },
      ],
    });
    upstream.reply = (_req, res) => res.writeHead(422, { "sl-violations": JSON.stringify(violations.slice(1)) }).end('{"status":422}');
    expect((await (await send("/x", { method: "POST", headers: json, body: "{}" })).json()).detail).toBe("The request has 1 invalid field.");
  });

  it("leaves a 422 without violations, and a 4xx that is not Prism's own error, as Prism gave them", async () => {
    upstream.reply = (_req, res) => res.writeHead(422, { "content-type": "application/problem+json" }).end('{"status":422,"detail":"example"}');
    expect(await (await send("/x", { method: "POST", headers: json, body: "{}" })).text()).toBe('{"status":422,"detail":"example"}');
    upstream.reply = (_req, res) => res.writeHead(409, { "content-type": "application/problem+json" }).end('{"status":409,"code":"duplicate"}');
    expect(await (await send("/x")).text()).toBe('{"status":409,"code":"duplicate"}');
  });

  it.each([
    [404, "not_found"],
    [405, "method_not_allowed"],
    [400, "invalid_request"],
  ])("turns Prism's own %i error into the contract's problem with code %s", async (status, code) => {
    upstream.reply = (_req, res) =>
      res.writeHead(status, { "content-type": "application/problem+json" }).end(JSON.stringify({ type: `https://stoplight.io/prism/errors#X`, title: "Prism says", detail: "Because." }));
    const res = await send("/x");
    expect(res.status).toBe(status);
    expect(await res.json()).toEqual({ type: `https://docs.payin.example.com/problems/${code}`, title: "Prism says", status, detail: "Because.", code });
  });

  it("fills in what Prism's error leaves out: the detail from its title, or both", async () => {
    upstream.reply = (_req, res) => res.writeHead(404).end(JSON.stringify({ type: "https://stoplight.io/prism/errors#NO_PATH", title: "No path" }));
    expect(await (await send("/x")).json()).toMatchObject({ title: "No path", detail: "No path" });
    upstream.reply = (_req, res) => res.writeHead(404).end(JSON.stringify({ type: "https://stoplight.io/prism/errors#NO_PATH" }));
    expect(await (await send("/x")).json()).toMatchObject({ title: "Invalid request", detail: "The mock cannot answer this request." });
  });

  // Once the body has been read Node marks the request `destroyed`: the guard must look at the
  // response, or these two get a dropped connection instead of the 503.
  it("answers 503 with Retry-After when Prism's answer cannot be read", async () => {
    upstream.reply = (_req, res) => res.writeHead(404).end("https://stoplight.io/prism/errors# is not JSON");
    const res = await send("/x");
    expect(res.status).toBe(503);
    expect(res.headers.get("retry-after")).toBe("1");
    expect(res.headers.get("content-type")).toBe("application/problem+json");
    const problem = await res.json();
    expect(problem).toMatchObject({ type: "https://docs.payin.example.com/problems/service_unavailable", title: "Service unavailable", status: 503, code: "service_unavailable" });
    expect(problem.detail).toMatch(/^The mock could not answer: Unexpected token/);
  });

  it("answers 503 with Retry-After when Prism is gone", async () => {
    upstream.reply = (req) => req.socket.destroy();
    const res = await send("/x");
    expect(res.status).toBe(503);
    expect(res.headers.get("retry-after")).toBe("1");
    expect((await res.json()).detail).toMatch(/^The mock could not answer: socket hang up/);
  });
});

describe("starting and stopping the mock", () => {
  let other: Upstream;
  beforeEach(async () => {
    other = await startUpstream();
    vi.mocked(startPrism).mockResolvedValue({ url: other.url, close: other.close });
  });
  afterEach(async () => {
    other.server.closeAllConnections();
    await new Promise((resolve) => other.server.close(resolve));
  });

  it("close() stops the front, its connections to Prism, and Prism", async () => {
    const started = await startMock({ port: 0, host: "127.0.0.1" });
    expect(started.url).toBe(`http://127.0.0.1:${started.port}`);
    expect((await fetch(`${started.url}/x`)).status).toBe(200);
    expect(other.sockets.size).toBeGreaterThan(0);
    await started.close();
    expect(other.close).toHaveBeenCalledOnce();
    await expect(fetch(`${started.url}/x`)).rejects.toThrow();
    await vi.waitFor(() => expect(other.sockets.size).toBe(0));
  });

  it("stops Prism again when the front cannot listen", async () => {
    const first = await startMock({ port: 0 });
    await expect(startMock({ port: first.port })).rejects.toThrow(/EADDRINUSE/);
    expect(other.close).toHaveBeenCalledOnce();
    await first.close();
  });

  it("names the document it cannot read", async () => {
    await expect(startMock({ port: 0, document: "/nowhere/openapi.json" })).rejects.toThrow(
      /^The mock needs the bundled OpenAPI document as JSON \(\/nowhere\/openapi\.json\): ENOENT/,
    );
    expect(startPrism).not.toHaveBeenCalledWith("/nowhere/openapi.json", expect.anything());
  });

  it("passes the document and verbosity to Prism, listening on 127.0.0.1 by default", async () => {
    vi.mocked(startPrism).mockClear();
    const started = await startMock({ port: 0, verbose: true });
    expect(vi.mocked(startPrism).mock.calls[0]![0]).toMatch(/generated\/openapi\.json$/);
    expect(vi.mocked(startPrism).mock.calls[0]![1]).toBe(true);
    expect(started.url).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
    await started.close();
    await startMock({ port: 0 }).then((m) => m.close());
    expect(vi.mocked(startPrism).mock.calls[1]![1]).toBe(false);
  });
});
