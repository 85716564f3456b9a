// The mock's front server, with Prism replaced by a stand-in that this file controls: what the
// front hands Prism, what it answers itself (400, 413, 503, Prism's errors as problems), and
// that close() stops it. Real Prism answers in test/mock/prism.test.ts.
import { request } from "node:http";
import { afterAll, beforeAll, beforeEach, describe, expect, it, vi } from "vitest";
import { MAX_BODY_BYTES } from "../../src/lib/request-body.ts";
import { startMock, type RunningMock } from "../../src/mock/server.ts";
import { startPrism, type PrismAnswer, type PrismRequest } from "../../src/mock/prism.ts";

vi.mock("../../src/mock/prism.ts", () => ({ startPrism: vi.fn() }));

const DRAIN_LIMIT_BYTES = 16 * 1024 * 1024;

/** What the stand-in for Prism was asked, and what it answers (`reply`). */
const prism = {
  received: [] as PrismRequest[],
  reply: (_request: PrismRequest): PrismAnswer => ok,
  answer: vi.fn(async (request: PrismRequest) => (prism.received.push(request), prism.reply(request))),
};
const ok: PrismAnswer = { status: 200, headers: { "content-type": "application/json" }, body: "{}", violations: [] };

let mock: RunningMock;

beforeAll(async () => {
  vi.mocked(startPrism).mockResolvedValue(prism);
  mock = await startMock({ port: 0 });
});
afterAll(() => mock.close());
beforeEach(() => {
  prism.received.length = 0;
  prism.reply = () => ok;
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
  it("hands Prism method, path, query, headers and the parsed body, and sends Prism's answer back", async () => {
    prism.reply = () => ({ status: 201, headers: { "content-type": "application/json", "x-from": "prism" }, body: '{"id":"cp_1"}', violations: [] });
    const res = await send("/api/v1/send/counterparties/?a=1", { method: "POST", headers: { ...json, authorization: "Bearer t" }, body: '{"name":"x"}' });
    expect(res.status).toBe(201);
    expect(await res.text()).toBe('{"id":"cp_1"}');
    expect(res.headers.get("x-from")).toBe("prism");
    const [seen] = prism.received;
    expect(seen).toMatchObject({ method: "POST", url: "/api/v1/send/counterparties/?a=1", body: { name: "x" } });
    expect(seen!.headers).toMatchObject({ authorization: "Bearer t", "content-type": "application/json" });
  });

  it("hands Prism null for an empty body, and the text of a body that is not JSON", async () => {
    await send("/api/v1/send/counterparties/schema/");
    expect(prism.received[0]).toMatchObject({ method: "GET", body: null });
    await send("/api/v1/send/counterparties/", { method: "POST", headers: { "content-type": "text/plain" }, body: "{" });
    expect(prism.received[1]!.body).toBe("{");
  });

  it("answers a body of exactly 64 KiB through Prism, and one byte more with 413, closing the connection", async () => {
    const body = (size: number) => JSON.stringify({ x: "a".repeat(size - 8) });
    expect(body(MAX_BODY_BYTES).length).toBe(64 * 1024);
    expect((await send("/api/v1/send/counterparties/", { method: "POST", headers: json, body: body(MAX_BODY_BYTES) })).status).toBe(200);
    expect(prism.received).toHaveLength(1);
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
    expect(prism.received).toHaveLength(1);
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
      expect(prism.received).toEqual([]);
    },
  );

  it.each(["text/plain", "application/x-json", "application/jsonx", "application/json-seq", "xapplication/json", "application/+json"])(
    "leaves a body sent as %j, which is not JSON, to Prism",
    async (type) => {
      await send("/api/v1/send/counterparties/", { method: "POST", headers: { "content-type": type }, body: "{" });
      expect(prism.received).toMatchObject([{ body: "{" }]);
    },
  );

  it("leaves a JSON request with an empty body to Prism", async () => {
    await send("/api/v1/send/counterparties/", { method: "POST", headers: json });
    expect(prism.received).toMatchObject([{ body: null }]);
  });

  it("puts Prism's violations into the 422 problem's errors[], naming the caller's fields", async () => {
    const violations = [
      { location: ["request", "body", "address"], severity: "Error", code: "required", message: "must have required property 'country_code'" },
      { location: ["request", "body", "name"], severity: "Error", code: "type", message: "must be string" },
    ];
    prism.reply = () => ({ status: 422, headers: { "content-type": "application/problem+json", "x-from": "prism" }, body: '{"status":422,"detail":"example","errors":[]}', violations });
    const res = await send("/api/v1/send/counterparties/", { method: "POST", headers: json, body: "{}" });
    expect(res.status).toBe(422);
    expect(res.headers.get("x-from")).toBe("prism");
    expect(await res.json()).toEqual({
      status: 422,
      detail: "The request has 2 invalid fields.",
      errors: [
        { field: "address.country_code", message: "must have required property 'country_code'" },
        { field: "name", message: "must be string" },
      ],
    });
    prism.reply = () => ({ status: 422, headers: {}, body: '{"status":422}', violations: violations.slice(1) });
    expect((await (await send("/x", { method: "POST", headers: json, body: "{}" })).json()).detail).toBe("The request has 1 invalid field.");
  });

  it("leaves a 422 without violations, another status with violations, and a 4xx that is not Prism's own error, as Prism gave them", async () => {
    const violations = [{ location: ["request", "header", "authorization"], severity: "Error", code: "x", message: "m" }];
    prism.reply = () => ({ status: 401, headers: {}, body: '{"status":401,"detail":"example"}', violations });
    expect(await (await send("/x")).text()).toBe('{"status":401,"detail":"example"}');
    prism.reply = () => ({ status: 422, headers: {}, body: '{"status":422,"detail":"example"}', violations: [] });
    expect(await (await send("/x", { method: "POST", headers: json, body: "{}" })).text()).toBe('{"status":422,"detail":"example"}');
    prism.reply = () => ({ status: 409, headers: {}, body: '{"status":409,"code":"duplicate"}', violations: [] });
    expect(await (await send("/x")).text()).toBe('{"status":409,"code":"duplicate"}');
  });

  it.each([
    [404, "not_found"],
    [405, "method_not_allowed"],
    [400, "invalid_request"],
  ])("turns Prism's own %i error into the contract's problem with code %s", async (status, code) => {
    prism.reply = () => ({ status, headers: { "content-type": "application/problem+json" }, body: "{}", violations: [], prismError: { title: "Prism says", detail: "Because." } });
    const res = await send("/x");
    expect(res.status).toBe(status);
    expect(res.headers.get("content-type")).toBe("application/problem+json");
    expect(await res.json()).toEqual({ type: `https://docs.payin.example.com/problems/${code}`, title: "Prism says", status, detail: "Because.", code });
  });

  it("fills in what Prism's error leaves out: the detail from its title, or both", async () => {
    prism.reply = () => ({ status: 404, headers: {}, body: "", violations: [], prismError: { title: "No path" } });
    expect(await (await send("/x")).json()).toMatchObject({ title: "No path", detail: "No path" });
    prism.reply = () => ({ status: 404, headers: {}, body: "", violations: [], prismError: {} });
    expect(await (await send("/x")).json()).toMatchObject({ title: "Invalid request", detail: "The mock cannot answer this request." });
  });

  // Once the body has been read Node marks the request `destroyed`: the guard must look at the
  // response, or these two get a dropped connection instead of the 503.
  it("answers 503 with Retry-After when Prism fails", async () => {
    prism.reply = () => {
      throw new Error("Prism broke");
    };
    const res = await send("/x");
    expect(res.status).toBe(503);
    expect(res.headers.get("retry-after")).toBe("1");
    expect(res.headers.get("content-type")).toBe("application/problem+json");
    expect(await res.json()).toEqual({
      type: "https://docs.payin.example.com/problems/service_unavailable",
      title: "Service unavailable",
      status: 503,
      detail: "The mock could not answer: Prism broke",
      code: "service_unavailable",
    });
  });

  it("answers 503 when a 422 of Prism's is not JSON", async () => {
    prism.reply = () => ({ status: 422, headers: {}, body: "not JSON", violations: [{ location: ["request", "body"], severity: "Error", code: "x", message: "m" }] });
    const res = await send("/x");
    expect(res.status).toBe(503);
    expect((await res.json()).detail).toMatch(/^The mock could not answer: Unexpected token/);
  });
});

describe("starting and stopping the mock", () => {
  it("close() stops the front", async () => {
    const started = await startMock({ port: 0, host: "127.0.0.1" });
    expect(started.url).toBe(`http://127.0.0.1:${started.port}`);
    expect((await fetch(`${started.url}/x`)).status).toBe(200);
    await started.close();
    await expect(fetch(`${started.url}/x`)).rejects.toThrow();
  });

  it("rejects when the port is taken", async () => {
    await expect(startMock({ port: mock.port })).rejects.toThrow(/EADDRINUSE/);
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
