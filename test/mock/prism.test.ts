// The mock with real Prism in this process: the errors Prism itself raises reach the caller as
// the contract's problems, and close() leaves nothing listening.
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { startMock, type RunningMock } from "../../src/mock/server.ts";

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
});
