// The mock with real Prism in this process: the errors Prism itself raises reach the caller as
// the contract's problems, and close() leaves nothing listening.
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { importPeer, startPrism, withoutDeprecationWarnings } from "../../src/mock/prism.ts";
import { startMock, type RunningMock } from "../../src/mock/server.ts";
import { openapi, openapiBundle } from "../support/documents.ts";

let mock: RunningMock;
beforeAll(async () => {
  mock = await startMock({ port: 0 });
});
afterAll(() => mock?.close());

const auth = { authorization: "Bearer tok_test", "content-type": "application/json" };

describe("the mock with Prism", () => {
  it("answers a method the path does not have with 405 method_not_allowed", async () => {
    const res = await fetch(`${mock.url}/api/v1/send/counterparties/`, { method: "DELETE", headers: auth });
    expect(res.status).toBe(405);
    expect(res.headers.get("content-type")).toBe("application/problem+json");
    expect(await res.json()).toMatchObject({
      type: "https://docs.payin.example.com/problems/method_not_allowed",
      status: 405,
      code: "method_not_allowed",
    });
  });

  it("answers a path the contract does not have with 404 not_found", async () => {
    const res = await fetch(`${mock.url}/api/v1/nowhere/`, { headers: auth });
    expect(res.status).toBe(404);
    expect(await res.json()).toMatchObject({ type: "https://docs.payin.example.com/problems/not_found", status: 404, code: "not_found" });
  });

  it(
    "names the path a slash away that the contract has, where Prism finds none, " + "and leaves other unknown paths to Prism's words",
    async () => {
      for (const [method, path, near, slash] of [
        ["POST", "/api/v1/earn/payment-sessions", "/api/v1/earn/payment-sessions/", "with"],
        ["GET", "/api/v1/earn/transactions/txn_1", "/api/v1/earn/transactions/txn_1/", "with"],
        ["GET", "/webhooks/", "/webhooks", "without"],
      ]) {
        const res = await fetch(`${mock.url}${path}`, { method, headers: auth, ...(method === "POST" ? { body: "{}" } : {}) });
        expect(res.status, path).toBe(404);
        expect(res.headers.get("content-type")).toBe("application/problem+json");
        expect(await res.json()).toMatchObject({
          status: 404,
          code: "not_found",
          detail: `No operation at ${path}; the contract's path is ${near} (${slash} the trailing slash).`,
        });
      }
      const elsewhere = await fetch(`${mock.url}/api/v1/nowhere`, { headers: auth });
      expect(await elsewhere.json()).toMatchObject({
        status: 404,
        detail: "The route /api/v1/nowhere hasn't been found in the specification file",
      });
    },
  );

  it("names the caller's invalid fields in a 422", async () => {
    const res = await fetch(`${mock.url}/api/v1/send/counterparties/`, {
      method: "POST",
      headers: auth,
      body: JSON.stringify({ name: 5 }),
    });
    expect(res.status).toBe(422);
    const problem = await res.json();
    expect(problem.code).toBe("validation_failed");
    expect(problem.errors).toContainEqual(expect.objectContaining({ field: "type" }));
  });

  it("is one server: Prism answers in process, and close() leaves nothing listening", async () => {
    const listening = () => process.getActiveResourcesInfo().filter((r) => r === "TCPServerWrap").length;
    const before = listening();
    const other = await startMock({ port: 0 });
    expect(listening(), "the front alone").toBe(before + 1);
    expect((await fetch(`${other.url}/api/v1/nowhere/`, { headers: auth })).status).toBe(404);
    await other.close();
    await vi.waitFor(() => expect(listening()).toBe(before));
    await expect(fetch(`${other.url}/api/v1/nowhere/`)).rejects.toThrow();
  });

  it("answers a valid request with the documented example, as prism mock does by default", async () => {
    const res = await fetch(`${mock.url}/api/v1/send/counterparties/`, {
      method: "POST",
      headers: auth,
      body: JSON.stringify({
        type: "INDIVIDUAL",
        payment_rail: "PAYIN",
        first_name: "Ana",
        last_name: "Li",
        email: "ana@example.com",
        phone_number: "+34600000000",
      }),
    });
    expect(res.status).toBe(201);
    expect(await res.json()).toEqual(openapi.components.examples.Counterparty.value);
    // Browsers may call it from another origin (a docs page's "try it"), as with `prism mock`.
    expect(res.headers.get("access-control-allow-origin")).toBe("*");
  });

  it("checks the bearer token the contract's security asks for", async () => {
    const res = await fetch(`${mock.url}/api/v1/send/counterparties/schema/?payment_rail=PAYIN&type=INDIVIDUAL`);
    expect(res.status).toBe(401);
  });
});

describe("what Prism's own server did, done in process", () => {
  it("lists the violations in sl-violations, the caller's under request, as prism mock does", async () => {
    const res = await fetch(`${mock.url}/api/v1/send/counterparties/`, {
      method: "POST",
      headers: auth,
      body: JSON.stringify({ name: 5 }),
    });
    const violations = JSON.parse(res.headers.get("sl-violations")!);
    expect(violations).toContainEqual({
      location: ["request", "body"],
      severity: "Error",
      code: "required",
      message: "Request body must have required property 'type'",
    });
    expect(violations.every((v: { location: string[] }) => v.location[0] === "request")).toBe(true);
  });

  it("sends no sl-violations with a valid request", async () => {
    const res = await fetch(`${mock.url}/api/v1/earn/transactions/txn_1/`, { headers: auth });
    expect(res.status).toBe(200);
    expect(res.headers.has("sl-violations")).toBe(false);
  });

  it("routes against the server Prism's __server parameter names, as prism mock does", async () => {
    // The contract's servers are templates: this copy has one fixed server.
    const dir = mkdtempSync(path.join(tmpdir(), "payin-prism-"));
    const document = path.join(dir, "openapi.json");
    writeFileSync(document, JSON.stringify({ ...openapi, servers: [{ url: "https://api.example.com" }] }));
    const other = await startMock({ port: 0, document });
    const transaction = `${other.url}/api/v1/earn/transactions/txn_1/`;
    try {
      expect((await fetch(`${transaction}?__server=https://api.example.com`, { headers: auth })).status).toBe(200);
      const res = await fetch(`${transaction}?__server=https://elsewhere.example.com`, { headers: auth });
      expect(res.status).toBe(404);
      expect((await res.json()).detail).toMatch(/^The server url https:\/\/elsewhere.example.com/);
    } finally {
      await other.close();
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it("lists an example that breaks its schema in sl-violations, under response, and still answers with it", async () => {
    const document = structuredClone(openapiBundle);
    const { id, ...withoutId } = document.components.examples.TransactionCompleted.value;
    document.components.examples.TransactionCompleted.value = withoutId;
    const prism = await startPrism(document, false);
    const answer = await prism.answer({
      method: "GET",
      url: "/api/v1/earn/transactions/txn_1/",
      headers: { authorization: "Bearer t" },
      body: null,
    });
    expect(id).toBeTypeOf("string");
    expect(answer).toMatchObject({ kind: "output", status: 200, body: withoutId, violations: [] });
    expect(JSON.parse((answer as { headers: Record<string, string> }).headers["sl-violations"]!)).toEqual([
      { location: ["response", "body"], severity: "Error", code: "required", message: "Response body must have required property 'id'" },
    ]);
  });

  it("sends the CORS headers with Prism's errors too, each * unless the request names its own", async () => {
    const res = await fetch(`${mock.url}/api/v1/nowhere/`, { headers: auth });
    expect(res.status).toBe(404);
    expect(Object.fromEntries(res.headers)).toMatchObject({
      "access-control-allow-origin": "*",
      "access-control-allow-headers": "*",
      "access-control-allow-credentials": "true",
      "access-control-expose-headers": "*",
    });
    const named = await fetch(`${mock.url}/api/v1/nowhere/`, {
      headers: {
        ...auth,
        origin: "https://docs.example.com",
        "access-control-request-headers": "authorization",
        "access-control-expose-headers": "sl-violations",
      },
    });
    expect(Object.fromEntries(named.headers)).toMatchObject({
      "access-control-allow-origin": "https://docs.example.com",
      "access-control-allow-headers": "authorization",
      "access-control-expose-headers": "sl-violations",
    });
  });

  it("hands Prism a repeated query parameter with all its values, as prism mock does", async () => {
    const schema = `${mock.url}/api/v1/send/counterparties/schema/?payment_rail=PAYIN&type=INDIVIDUAL`;
    expect((await fetch(schema, { headers: auth })).status).toBe(200);
    const res = await fetch(`${schema}&type=INDIVIDUAL`, { headers: auth });
    expect(res.status).toBe(422);
    const { errors } = await res.json();
    expect(errors).toContainEqual({ field: "type", message: "Request query parameter type must be string" });
    expect(errors.map((e: { field: string }) => e.field)).toEqual(["type", "type"]);
  });

  it("answers an Accept it has no content for with 406, and the next request as if it had not been asked", async () => {
    const res = await fetch(`${mock.url}/api/v1/earn/transactions/txn_1/`, { headers: { ...auth, accept: "application/xml" } });
    expect(res.status).toBe(406);
    expect(await res.json()).toMatchObject({ status: 406, code: "invalid_request", detail: "Unable to find content for application/xml" });
    const next = await fetch(`${mock.url}/api/v1/earn/transactions/txn_1/`, { headers: auth });
    expect(next.status).toBe(200);
    expect(next.headers.get("content-type")).toBe("application/json");
  });

  it("answers with a generated body when Prefer asks for a dynamic one", async () => {
    const res = await fetch(`${mock.url}/api/v1/earn/transactions/txn_1/`, { headers: { ...auth, prefer: "dynamic=true" } });
    expect(res.status).toBe(200);
    const body = await res.json();
    expect(Object.keys(body)).toEqual(expect.arrayContaining(["id", "status", "amount", "currency"]));
    expect(body).not.toEqual(openapi.components.examples.TransactionCompleted.value);
  });

  it("answers with the status and the example that Prefer asks for", async () => {
    const res = await fetch(`${mock.url}/api/v1/earn/transactions/txn_1/`, { headers: { ...auth, prefer: "code=404" } });
    expect(res.status).toBe(404);
    expect(res.headers.get("content-type")).toBe("application/problem+json");
    expect(await res.json()).toMatchObject({ status: 404, code: "not_found" });
  });

  it("honours Prism's query parameters when there is no Prefer header", async () => {
    const res = await fetch(`${mock.url}/api/v1/earn/transactions/txn_1/?__code=404`, { headers: auth });
    expect(res.status).toBe(404);
  });

  it("turns a Prefer it cannot read into the contract's problem, with Prism's reason", async () => {
    const res = await fetch(`${mock.url}/api/v1/earn/transactions/txn_1/`, { headers: { ...auth, prefer: "code=abc" } });
    expect(res.status).toBe(422);
    expect(res.headers.get("content-type")).toBe("application/problem+json");
    const problem = await res.json();
    expect(problem).toMatchObject({
      type: "https://docs.payin.example.com/problems/invalid_request",
      status: 422,
      code: "invalid_request",
    });
    expect(problem.detail).toContain('cannot decode "abc", should be a number');
  });

  it("answers a browser's preflight with 204 and the CORS headers it asked for", async () => {
    const res = await fetch(`${mock.url}/api/v1/send/counterparties/`, {
      method: "OPTIONS",
      headers: {
        origin: "https://docs.example.com",
        "access-control-request-method": "POST",
        "access-control-request-headers": "authorization",
      },
    });
    expect(res.status).toBe(204);
    expect(Object.fromEntries(res.headers)).toMatchObject({
      "access-control-allow-origin": "https://docs.example.com",
      "access-control-allow-headers": "authorization",
      "access-control-allow-credentials": "true",
      "access-control-expose-headers": "*",
      "access-control-allow-methods": "POST",
      vary: "origin",
    });
    expect(await res.text()).toBe("");
  });

  it("leaves an OPTIONS that is not a preflight to Prism's router", async () => {
    expect((await fetch(`${mock.url}/api/v1/send/counterparties/`, { method: "OPTIONS", headers: auth })).status).toBe(405);
    const noOrigin = await fetch(`${mock.url}/api/v1/send/counterparties/`, {
      method: "OPTIONS",
      headers: { ...auth, "access-control-request-method": "POST" },
    });
    expect(noOrigin.status).toBe(405);
  });

  it("answers a GET that carries preflight headers as a GET", async () => {
    const res = await fetch(`${mock.url}/api/v1/earn/transactions/txn_1/`, {
      headers: { ...auth, origin: "https://docs.example.com", "access-control-request-method": "GET" },
    });
    expect(res.status).toBe(200);
    expect(res.headers.get("access-control-allow-origin")).toBe("https://docs.example.com");
    expect(res.headers.has("access-control-allow-methods")).toBe(false);
  });
});

describe("starting Prism", () => {
  it("refuses a document with no operation to serve", async () => {
    await expect(startPrism({ openapi: "3.1.0", info: { title: "empty", version: "1" }, paths: {} }, false)).rejects.toThrow(
      "The OpenAPI document has no operations for Prism to serve.",
    );
  });

  it("reads the parsed document, its $refs resolved, and leaves it as it was", async () => {
    const document = structuredClone(openapiBundle);
    const prism = await startPrism(document, false);
    expect(document).toEqual(openapiBundle);
    const answer = await prism.answer({
      method: "GET",
      url: "/api/v1/earn/transactions/txn_1/",
      headers: { authorization: "Bearer t" },
      body: null,
    });
    expect(answer).toMatchObject({
      kind: "output",
      status: 200,
      body: openapi.components.examples.TransactionCompleted.value,
      violations: [],
    });
  });

  it("writes Prism's log to stdout as JSON lines, from its info level up, only when verbose", async () => {
    const invalid = {
      method: "POST",
      url: "/api/v1/send/counterparties/",
      headers: { authorization: "Bearer t", "content-type": "application/json" },
      body: {},
    };
    // pino writes through process.stdout.write once it is not Node's own.
    const written: string[] = [];
    const write = vi.spyOn(process.stdout, "write").mockImplementation((chunk) => (written.push(String(chunk)), true));
    const logged = async (verbose: boolean) => {
      written.length = 0;
      await (await startPrism(openapiBundle, verbose)).answer(invalid);
      return written
        .join("")
        .split("\n")
        .filter((line) => line.startsWith('{"level":'));
    };
    try {
      const raw = await logged(true);
      // pino repeats "name" for each child logger; Prism's own comes first.
      for (const line of raw) expect(line).toMatch(/^\{"level":\d+,"name":"PRISM",/);
      const lines = raw.map((line) => JSON.parse(line));
      expect(lines).toContainEqual(
        expect.objectContaining({ level: 50, name: "VALIDATOR", msg: "Request body must have required property 'type'" }),
      );
      expect(lines).toContainEqual(expect.objectContaining({ level: 30 }));
      expect(lines.every((line) => line.level >= 30)).toBe(true);
      expect(await logged(false)).toEqual([]);
    } finally {
      write.mockRestore();
    }
  });

  it("passes on any other failure to load one of Prism's modules", async () => {
    await expect(importPeer("data:text/javascript,throw new Error('Prism broke')")).rejects.toThrow(/^Prism broke$/);
  });

  it("says what to install when one of Prism's packages is missing", async () => {
    await expect(importPeer("@stoplight/prism-nothing")).rejects.toThrow(
      "The mock runs Prism, and @stoplight/prism-nothing is not installed: " +
        "npm install --save-dev @stoplight/prism-http-server (or @stoplight/prism-cli, which brings it).",
    );
  });

  // Prism's node-fetch 2 loads Node's punycode, which Node 22 warns about at every start
  // (the package's tests run the installed payin-mock on Node 22.13 and holds its stderr empty).
  it.each([undefined, false, true])(
    "loads Prism with deprecation warnings off, then puts them back as they were (noDeprecation %s), even when it fails",
    async (before) => {
      const outside = process.noDeprecation;
      process.noDeprecation = before;
      try {
        let during: boolean | undefined;
        await withoutDeprecationWarnings(async () => void (during = process.noDeprecation));
        expect([during, process.noDeprecation]).toEqual([true, before]);
        await expect(withoutDeprecationWarnings(() => Promise.reject(new Error("Prism broke")))).rejects.toThrow("Prism broke");
        expect(process.noDeprecation).toBe(before);
      } finally {
        process.noDeprecation = outside;
      }
    },
  );
});
