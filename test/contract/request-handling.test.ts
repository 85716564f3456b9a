// How requests that are not even well-formed are answered: always a 4xx problem, never a 5xx
// or a hang.
import { describe, expect, it } from "vitest";
import { baseUrl, send, token } from "./support/target.ts";
import { operationRequests } from "./support/operations.ts";

const withBody = operationRequests.filter((o) => o.body !== undefined);

describe.each(withBody)("$label", ({ method, path, body }) => {
  it("answers malformed JSON with 400", async () => {
    const res = await send(method, path, { body: '{"amount": 49.99, "currency": ' });
    expect(res.breaches).toEqual([]);
    expect(res.status).toBe(400);
    expect(res.body).toMatchObject({ code: "malformed_request" });
  });

  it("answers a body that is not application/json with 415", async () => {
    const res = await send(method, path, { body: "amount=49.99", headers: { "Content-Type": "application/x-www-form-urlencoded" } });
    expect(res.breaches).toEqual([]);
    expect(res.status).toBe(415);
  });

  it("answers a body that is not UTF-8 with 400, rather than reading it as something else", async () => {
    const invalid = Buffer.concat([Buffer.from(JSON.stringify(body).slice(0, -1)), Buffer.from(',"order_id":"'), Buffer.from([0xc3, 0x28]), Buffer.from('"}')]);
    const res = await send(method, path, { body: invalid });
    expect(res.breaches).toEqual([]);
    expect(res.status).toBe(400);
    expect(res.body).toMatchObject({ code: "malformed_request", detail: "The request body is not valid UTF-8." });
  });

  it("answers a JSON body in another charset with 415 naming the charset", async () => {
    const res = await send(method, path, { body, headers: { "Content-Type": "application/json; charset=iso-8859-1" } });
    expect(res.breaches).toEqual([]);
    expect(res.status).toBe(415);
    expect((res.body as any).detail).toContain("charset=iso-8859-1");
    const utf8 = await send(method, path, { body: "{", headers: { "Content-Type": 'application/json; charset="UTF-8"' } });
    expect(utf8.status, "UTF-8 named as such is JSON's own charset").toBe(400);
  });

  it("answers a body over 64 KiB with 413", async () => {
    const res = await send(method, path, { body: { ...body, padding: "x".repeat(70 * 1024) } });
    expect(res.breaches).toEqual([]);
    expect(res.status).toBe(413);
  });

  it("answers an empty body with a 4xx problem", async () => {
    const res = await send(method, path, { body: "" });
    expect(res.breaches).toEqual([]);
    expect(res.status).toBeGreaterThanOrEqual(400);
    expect(res.status).toBeLessThan(500);
  });
});

describe("requests outside the contract", () => {
  it("answers an unknown path with a 404 problem", async () => {
    const res = await fetch(`${baseUrl}/api/v1/earn/refunds/`, { headers: { Authorization: `Bearer ${token}` } });
    expect(res.status).toBe(404);
    expect(res.headers.get("content-type")).toMatch(/^application\/problem\+json/);
    expect(await res.json()).toMatchObject({ status: 404, code: "not_found" });
  });

  it("answers a body of several megabytes with 413, without hanging", async () => {
    const res = await send("POST", "/api/v1/send/counterparties/", { body: { first_name: "x".repeat(20 * 1024 * 1024) } });
    expect(res.status).toBe(413);
  });
});
