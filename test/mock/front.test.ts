// The mock's front server, with Prism replaced by a stand-in that this file controls: what the
// front hands Prism, what it answers itself (400, 413, 503, Prism's errors as problems), and
// that close() stops it. Real Prism answers in test/mock/prism.test.ts.
import { request } from "node:http";
import { afterAll, beforeAll, beforeEach, describe, expect, it, vi } from "vitest";
import { PortTaken } from "../../src/lib/bind-port.ts";
import { MAX_BODY_BYTES } from "../../src/lib/request-body.ts";
import { startMock, type RunningMock } from "../../src/mock/server.ts";
import { serialize } from "@stoplight/prism-http-server/dist/serialize.js";
import { startPrism, type PrismAnswer, type PrismDiagnostic, type PrismRequest } from "../../src/mock/prism.ts";
import { openapiBundle } from "../support/documents.ts";

vi.mock("../../src/mock/prism.ts", () => ({ startPrism: vi.fn() }));

const DRAIN_LIMIT_BYTES = 16 * 1024 * 1024;

/** What the stand-in for Prism was asked, and what it answers (`reply`). */
const prism = {
  received: [] as PrismRequest[],
  reply: (_request: PrismRequest): PrismAnswer | Promise<PrismAnswer> => ok,
  answer: vi.fn(async (request: PrismRequest) => (prism.received.push(request), prism.reply(request))),
  // Prism's own serializer, which the real Prism hands the front.
  serialize: (body: unknown, contentType: string | undefined) => serialize(body, contentType) as string | undefined,
};
const output = (
  status: number,
  body: unknown,
  violations: PrismDiagnostic[] = [],
  headers: Record<string, string> = { "content-type": "application/json" },
): PrismAnswer => ({
  kind: "output",
  status,
  headers,
  body,
  violations,
});
const ok = output(200, {});

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
    const req = request(
      `${mock.url}/api/v1/send/counterparties/`,
      { method: "POST", headers: { ...json, "transfer-encoding": "chunked" } },
      (res) => {
        status = res.statusCode;
        res.resume();
        answered(res.statusCode!);
      },
    );
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
    prism.reply = () => output(201, { id: "cp_1" }, [], { "content-type": "application/json", "x-from": "prism" });
    const res = await send("/api/v1/send/counterparties/?a=1", {
      method: "POST",
      headers: { ...json, authorization: "Bearer t" },
      body: '{"name":"x"}',
    });
    expect(res.status).toBe(201);
    expect(await res.text()).toBe('{"id":"cp_1"}');
    expect(res.headers.get("x-from")).toBe("prism");
    const [seen] = prism.received;
    expect(seen).toMatchObject({ method: "POST", url: "/api/v1/send/counterparties/?a=1", body: { name: "x" } });
    expect(seen!.headers).toMatchObject({ authorization: "Bearer t", "content-type": "application/json" });
  });

  it("writes Prism's body as Prism's serializer does for the answer's content type", async () => {
    prism.reply = () => output(200, "plain", [], { "content-type": "text/plain" });
    expect(await (await send("/x")).text()).toBe("plain");
    prism.reply = () => output(200, "plain", [], { "content-type": "application/json" });
    expect(await (await send("/x")).text()).toBe('"plain"');
  });

  it("answers a preflight's output, which has no body, with nothing", async () => {
    prism.reply = () => output(204, undefined, [], { "access-control-allow-methods": "POST" });
    const res = await send("/x", { method: "OPTIONS" });
    expect(res.status).toBe(204);
    expect(res.headers.get("access-control-allow-methods")).toBe("POST");
    expect(await res.text()).toBe("");
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

  it.each([
    "application/json",
    "application/problem+json",
    "Application/JSON; charset=utf-8",
    "application/json ;charset=utf-8",
    "application/vnd.payin.v1+json",
  ])("answers a malformed body sent as %j with 400, without asking Prism", async (type) => {
    const res = await send("/api/v1/send/counterparties/", { method: "POST", headers: { "content-type": type }, body: "{" });
    expect(res.status).toBe(400);
    expect(res.headers.get("content-type")).toBe("application/problem+json");
    const problem = await res.json();
    expect(problem).toMatchObject({
      type: "https://docs.payin.example.com/problems/malformed_request",
      title: "Malformed request",
      status: 400,
      code: "malformed_request",
    });
    expect(problem.detail).toMatch(/^The request body is not valid JSON: Expected property name .*\.$/);
    expect(prism.received).toEqual([]);
  });

  it("answers a JSON body in another charset than UTF-8 with 415, without asking Prism", async () => {
    const res = await send("/api/v1/send/counterparties/", {
      method: "POST",
      headers: { "content-type": "application/json; charset=latin1" },
      body: "{}",
    });
    expect(res.status).toBe(415);
    expect(res.headers.get("content-type")).toBe("application/problem+json");
    expect(await res.json()).toEqual({
      type: "https://docs.payin.example.com/problems/unsupported_media_type",
      title: "Unsupported media type",
      status: 415,
      detail: "Send the body as UTF-8 JSON: charset=latin1 is not taken.",
      code: "unsupported_media_type",
    });
    expect(prism.received).toEqual([]);
  });

  it("answers a JSON body that is not UTF-8 with 400, without asking Prism", async () => {
    const res = await send("/api/v1/send/counterparties/", { method: "POST", headers: json, body: Buffer.from([0x7b, 0xff, 0x7d]) });
    expect(res.status).toBe(400);
    expect(await res.json()).toMatchObject({ code: "malformed_request", detail: "The request body is not valid UTF-8." });
    expect(prism.received).toEqual([]);
  });

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
      { path: ["body", "address"], severity: 0, code: "required", message: "must have required property 'country_code'" },
      { path: ["body", "name"], severity: 0, code: "type", message: "must be string" },
    ];
    prism.reply = () =>
      output(422, { status: 422, detail: "example", errors: [] }, violations, { "content-type": "application/json", "x-from": "prism" });
    const res = await send("/api/v1/send/counterparties/", { method: "POST", headers: json, body: "{}" });
    expect(res.status).toBe(422);
    expect(res.headers.get("x-from")).toBe("prism");
    expect(res.headers.get("content-type")).toBe("application/problem+json");
    // The contract's 422, naming the caller's fields, not the example's.
    expect(await res.json()).toEqual({
      type: "https://docs.payin.example.com/problems/validation_failed",
      title: "Validation failed",
      status: 422,
      detail: "The request has 2 invalid fields.",
      code: "validation_failed",
      errors: [
        { field: "address.country_code", message: "must have required property 'country_code'" },
        { field: "name", message: "must be string" },
      ],
    });
    prism.reply = () => output(422, { status: 422 }, violations.slice(1));
    expect((await (await send("/x", { method: "POST", headers: json, body: "{}" })).json()).detail).toBe(
      "The request has 1 invalid field.",
    );
  });

  it(
    "leaves a 422 without violations, another status with violations, " + "and a 4xx that is not Prism's own error, as Prism gave them",
    async () => {
      const violations = [{ path: ["header", "authorization"], severity: 0, code: "x", message: "m" }];
      prism.reply = () => output(401, { status: 401, detail: "example" }, violations);
      expect(await (await send("/x")).text()).toBe('{"status":401,"detail":"example"}');
      prism.reply = () => output(422, { status: 422, detail: "example" });
      expect(await (await send("/x", { method: "POST", headers: json, body: "{}" })).text()).toBe('{"status":422,"detail":"example"}');
      prism.reply = () => output(409, { status: 409, code: "duplicate" });
      expect(await (await send("/x")).text()).toBe('{"status":409,"code":"duplicate"}');
    },
  );

  const euros = (amount: number) => ({ amount, currency: "EUR" });
  const tooPrecise = { field: "amount", message: "must have at most 2 decimals: the minor units of EUR" };

  it("answers a request Prism let through but the amount rule refuses with the document's 422 problem, with Prism's headers", async () => {
    prism.reply = () => output(201, { id: "ps_1" }, [], { "content-type": "application/json", "x-from": "prism" });
    const res = await send("/x", { method: "POST", headers: json, body: JSON.stringify(euros(10.001)) });
    expect(res.status).toBe(422);
    expect(res.headers.get("content-type")).toBe("application/problem+json");
    expect(res.headers.get("x-from")).toBe("prism");
    expect(await res.json()).toEqual({
      type: "https://docs.payin.example.com/problems/validation_failed",
      title: "Validation failed",
      status: 422,
      detail: "The request has 1 invalid field.",
      code: "validation_failed",
      errors: [tooPrecise],
    });
    expect(await (await send("/x", { method: "POST", headers: json, body: JSON.stringify(euros(10.01)) })).text()).toBe('{"id":"ps_1"}');
  });

  it("adds the amount rule's error to Prism's violations, unless they name the amount already", async () => {
    const name = { path: ["body", "name"], severity: 0, code: "type", message: "must be string" };
    prism.reply = () => output(422, { status: 422 }, [name]);
    expect((await (await send("/x", { method: "POST", headers: json, body: JSON.stringify(euros(10.001)) })).json()).errors).toEqual([
      { field: "name", message: "must be string" },
      tooPrecise,
    ]);
    const amount = { path: ["body", "amount"], severity: 0, code: "minimum", message: "must be >= 0.01" };
    prism.reply = () => output(422, { status: 422 }, [amount]);
    expect((await (await send("/x", { method: "POST", headers: json, body: JSON.stringify(euros(0.001)) })).json()).errors).toEqual([
      { field: "amount", message: "must be >= 0.01" },
    ]);
  });

  it.each([300, 401, 409])("leaves a %i of Prism's as it is, whatever the amount", async (status) => {
    prism.reply = () => output(status, { status });
    const res = await send("/x", { method: "POST", headers: json, body: JSON.stringify(euros(10.001)) });
    expect(res.status).toBe(status);
    expect(await res.text()).toBe(`{"status":${status}}`);
  });

  it.each([
    [404, "not_found", "Not found"],
    [405, "method_not_allowed", "Method not allowed"],
    [400, "invalid_request", "Invalid request"],
  ])("turns Prism's own %i error into the contract's problem with code %s", async (status, code, title) => {
    prism.reply = () => ({ kind: "error", status, title: "Prism says", detail: "Because.", headers: { "x-from": "prism" } });
    const res = await send("/x");
    expect(res.status).toBe(status);
    expect(res.headers.get("content-type")).toBe("application/problem+json");
    expect(res.headers.get("x-from")).toBe("prism");
    expect(await res.json()).toEqual({ type: `https://docs.payin.example.com/problems/${code}`, title, status, detail: "Because.", code });
  });

  it("says why in the detail: Prism's detail, else its title, else that the mock cannot answer", async () => {
    prism.reply = () => ({ kind: "error", status: 404, title: "No path", detail: undefined, headers: {} });
    expect(await (await send("/x")).json()).toMatchObject({ title: "Not found", detail: "No path" });
    prism.reply = () => ({ kind: "error", status: 404, title: "No path", detail: "", headers: {} });
    expect(await (await send("/x")).json()).toMatchObject({ title: "Not found", detail: "No path" });
    // An Error of Prism's without a message.
    prism.reply = () => ({ kind: "error", status: 500, title: "", detail: undefined, headers: {} });
    expect(await (await send("/x")).json()).toMatchObject({ title: "Invalid request", detail: "The mock cannot answer this request." });
  });

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

  it("keeps answering after a client that left before Prism failed", async () => {
    let fail!: () => void;
    prism.reply = () => new Promise((_, reject) => (fail = () => reject(new Error("Prism broke"))));
    const abort = new AbortController();
    const gone = send("/x", { signal: abort.signal });
    await vi.waitFor(() => expect(prism.received).toHaveLength(1));
    abort.abort();
    await expect(gone).rejects.toThrow();
    fail();
    prism.reply = () => ok;
    expect((await send("/x")).status).toBe(200);
  });

  it.each([
    ["a text", "not a problem"],
    ["nothing", null],
    ["no body", undefined],
  ])("answers a 422 of Prism's with violations and %s for its body with the contract's problem", async (_, body) => {
    prism.reply = () => output(422, body, [{ path: ["body", "email"], severity: 0, code: "format", message: "must match format" }]);
    const res = await send("/x");
    expect(res.status).toBe(422);
    expect(await res.json()).toMatchObject({ code: "validation_failed", errors: [{ field: "email", message: "must match format" }] });
  });

  it("answers 503 when Prism's serializer cannot write the body for its content type", async () => {
    prism.reply = () => output(200, { id: "cp_1" }, [], {});
    const res = await send("/x");
    expect(res.status).toBe(503);
    expect((await res.json()).detail).toBe("The mock could not answer: Cannot find serializer for undefined");
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

  it("close() ends the connections still waiting for an answer", async () => {
    const started = await startMock({ port: 0 });
    prism.reply = () => new Promise(() => {});
    const waiting = fetch(`${started.url}/x`);
    await vi.waitFor(() => expect(prism.received).toHaveLength(1));
    // Closing does not wait for the answer that never comes: it resolves, and the request fails.
    await expect(started.close()).resolves.toBeUndefined();
    await expect(waiting).rejects.toThrow();
  });

  it("rejects when the port is taken, naming the port and the host", async () => {
    const error = await startMock({ port: mock.port }).then(
      () => undefined,
      (e: unknown) => e,
    );
    expect(error).toBeInstanceOf(PortTaken);
    expect(error).toMatchObject({
      code: "EADDRINUSE",
      port: mock.port,
      host: "127.0.0.1",
      message: `Port ${mock.port} on 127.0.0.1 is taken by another process (EADDRINUSE); pick another port, or 0 for any free one.`,
    });
  });

  it("names the document it cannot read", async () => {
    vi.mocked(startPrism).mockClear();
    await expect(startMock({ port: 0, document: "/nowhere/openapi.json" })).rejects.toThrow(
      /^The mock needs the bundled OpenAPI document as JSON \(\/nowhere\/openapi\.json\): ENOENT/,
    );
    expect(startPrism).not.toHaveBeenCalled();
  });

  it("passes the document it read, parsed, and verbosity to Prism, listening on 127.0.0.1 by default", async () => {
    vi.mocked(startPrism).mockClear();
    const started = await startMock({ port: 0, verbose: true });
    expect(vi.mocked(startPrism).mock.calls[0]![0]).toEqual(openapiBundle);
    expect(vi.mocked(startPrism).mock.calls[0]![1]).toBe(true);
    expect(started.url).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
    await started.close();
    await startMock({ port: 0 }).then((m) => m.close());
    expect(vi.mocked(startPrism).mock.calls[1]![1]).toBe(false);
  });
});
