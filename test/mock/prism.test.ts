// The mock with real Prism in this process: the errors Prism itself raises reach the caller as
// the contract's problems, and close() leaves nothing listening.
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { importPeer, startPrism } from "../../src/mock/prism.ts";
import { startMock, type RunningMock } from "../../src/mock/server.ts";
import { openapi } from "../support/documents.ts";

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
    expect(await res.json()).toMatchObject({ type: "https://docs.payin.example.com/problems/method_not_allowed", status: 405, code: "method_not_allowed" });
  });

  it("answers a path the contract does not have with 404 not_found", async () => {
    const res = await fetch(`${mock.url}/api/v1/nowhere/`, { headers: auth });
    expect(res.status).toBe(404);
    expect(await res.json()).toMatchObject({ type: "https://docs.payin.example.com/problems/not_found", status: 404, code: "not_found" });
  });

  it("names the caller's invalid fields in a 422", async () => {
    const res = await fetch(`${mock.url}/api/v1/send/counterparties/`, { method: "POST", headers: auth, body: JSON.stringify({ name: 5 }) });
    expect(res.status).toBe(422);
    const problem = await res.json();
    expect(problem.code).toBe("validation_failed");
    expect(problem.errors).toContainEqual(expect.objectContaining({ field: "type" }));
  });

  it("close() leaves nothing listening: neither the front nor Prism", async () => {
    const listening = () => process.getActiveResourcesInfo().filter((r) => r === "TCPServerWrap").length;
    const before = listening();
    const other = await startMock({ port: 0 });
    expect(listening(), "the front and Prism").toBe(before + 2);
    expect((await fetch(`${other.url}/api/v1/nowhere/`, { headers: auth })).status).toBe(404);
    await other.close();
    // Prism's server stops listening a moment after its close() resolves.
    await vi.waitFor(() => expect(listening()).toBe(before), { timeout: 5000 });
    await expect(fetch(`${other.url}/api/v1/nowhere/`)).rejects.toThrow();
  });

  it("answers a valid request with the documented example, as prism mock does by default", async () => {
    const res = await fetch(`${mock.url}/api/v1/send/counterparties/`, {
      method: "POST",
      headers: auth,
      body: JSON.stringify({ type: "INDIVIDUAL", payment_rail: "PAYIN", first_name: "Ana", last_name: "Li", email: "ana@example.com", phone_number: "+34600000000" }),
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

describe("starting Prism", () => {
  it("refuses a document with no operation to serve", async () => {
    const dir = mkdtempSync(path.join(tmpdir(), "payin-prism-"));
    const document = path.join(dir, "empty.json");
    writeFileSync(document, JSON.stringify({ openapi: "3.1.0", info: { title: "empty", version: "1" }, paths: {} }));
    try {
      await expect(startPrism(document, false)).rejects.toThrow(`${document} has no operations for Prism to serve.`);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it("says what to install when one of Prism's packages is missing", async () => {
    await expect(importPeer("@stoplight/prism-nothing")).rejects.toThrow(
      "The mock runs Prism, and @stoplight/prism-nothing is not installed: npm install --save-dev @stoplight/prism-http-server (or @stoplight/prism-cli, which brings it).",
    );
  });
});
