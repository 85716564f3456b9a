// @ts-nocheck
// Checks every operation of the contract the same way: authentication, and every documented
// response, reachable on the mock with Prism's `Prefer: code=…` and equal to a documented example.
import { describe, expect, it } from "vitest";
import { againstServer, send } from "./support/target.ts";
import { documentedExamples, operationRequests } from "./support/operations.ts";

describe.each(operationRequests)("$label", ({ method, path, body, operation }) => {
  it("answers a request without a bearer token with 401 and WWW-Authenticate", async () => {
    const res = await send(method, path, { body, auth: false });
    expect(res.breaches).toEqual([]);
    expect(res.status).toBe(401);
    expect(res.headers.get("www-authenticate")).toMatch(/^Bearer/);
  });

  it("answers a token that is not a bearer token with 401", async () => {
    const res = await send(method, path, { body, auth: false, headers: { Authorization: "Basic dXNlcjpwYXNz" } });
    expect(res.breaches).toEqual([]);
    expect(res.status).toBe(401);
  });

  const statuses = Object.keys(operation.responses);
  it.skipIf(againstServer).each(statuses)("gives the documented %s response, a realistic example, when asked", async (status) => {
    const res = await send(method, path, { body, headers: { Prefer: `code=${status}` } });
    expect(res.breaches).toEqual([]);
    expect(res.status).toBe(Number(status));
    expect(documentedExamples(operation, status)).toContainEqual(res.body);
  });
});
