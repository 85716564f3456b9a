// The judge itself must be able to say no: it is what tells a provider where its server breaks
// the contract.
import { describe, expect, it } from "vitest";
import { checkResponse } from "./support/response-check.ts";

const url = "https://api.payin.example.com/api/v1/earn/transactions/txn_1/";
const json = (status: number, body: unknown, type = "application/json", headers: Record<string, string> = {}) =>
  new Response(JSON.stringify(body), { status, headers: { "Content-Type": type, ...headers } });
const transaction = {
  id: "txn_1",
  status: "completed",
  session_id: "ps_1",
  counterparty_id: "cp_1",
  amount: 10,
  currency: "EUR",
  created_at: "2026-11-21T10:00:00Z",
  updated_at: "2026-11-21T10:00:05Z",
};

describe("checkResponse", () => {
  it("accepts a response that keeps the contract", async () => {
    expect((await checkResponse("GET", url, json(200, transaction))).breaches).toEqual([]);
  });

  it("names a body field of the wrong type or value", async () => {
    const { breaches } = await checkResponse("GET", url, json(200, { ...transaction, amount: "10", status: "paid" }));
    expect(breaches.sort()).toEqual([
      "GET /api/v1/earn/transactions/{transaction_id}/ → 200: body.amount must be number",
      "GET /api/v1/earn/transactions/{transaction_id}/ → 200: body.status must be equal to one of the allowed values",
    ]);
  });

  it("names a missing required field", async () => {
    const { id: _, ...rest } = transaction;
    expect((await checkResponse("GET", url, json(200, rest))).breaches[0]).toMatch(/body must have required property 'id'/);
  });

  it("rejects an undocumented status, an undocumented content type and an operation outside the contract", async () => {
    expect((await checkResponse("GET", url, json(418, {}))).breaches[0]).toMatch(/status 418 is not documented/);
    expect((await checkResponse("GET", url, json(404, { status: 404 }, "application/json"))).breaches[0]).toMatch(
      /content type application\/json is not documented/,
    );
    expect((await checkResponse("DELETE", url, json(200, {}))).breaches[0]).toMatch(/not in the contract/);
  });

  it("checks documented headers", async () => {
    const problem = { type: "about:blank", title: "Too many requests", status: 429, code: "rate_limited" };
    const { breaches } = await checkResponse("GET", url, json(429, problem, "application/problem+json", { "Retry-After": "soon" }));
    expect(breaches).toEqual(["GET /api/v1/earn/transactions/{transaction_id}/ → 429: header Retry-After must be integer"]);
  });
});
