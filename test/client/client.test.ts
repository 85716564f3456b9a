import { describe, expect, it } from "vitest";
import { createPayinClient } from "../../src/index.ts";
import { openapi } from "../support/documents.ts";
import { recordedFetch } from "../support/recorded-fetch.ts";

const BASE = "https://api.payin.example.com";
const example = (path: string, method: string, status: string, name: string, where: "request" | "response" = "response") => {
  const operation = openapi.paths[path][method];
  return where === "request"
    ? operation.requestBody.content["application/json"].examples[name].value
    : Object.values<any>(operation.responses[status].content)[0].examples[name].value;
};

describe("createPayinClient", () => {
  it("creates a counterparty: POST, JSON body, bearer token, idempotency key, typed record", async () => {
    const body = example("/api/v1/send/counterparties/", "post", "", "full", "request");
    const record = example("/api/v1/send/counterparties/", "post", "201", "created");
    const { fetch, requests } = recordedFetch({ status: 201, body: record });
    const client = createPayinClient({ baseUrl: BASE, token: "tok_live_123", fetch });

    const { data, error, response } = await client.POST("/api/v1/send/counterparties/", {
      body,
      params: { header: { "Idempotency-Key": "key-1" } },
    });

    expect(response.status).toBe(201);
    expect(error).toBeUndefined();
    expect(data?.id).toBe(record.id);
    const [request] = requests;
    expect(request!.method).toBe("POST");
    expect(request!.url).toBe(`${BASE}/api/v1/send/counterparties/`);
    expect(request!.headers.get("authorization")).toBe("Bearer tok_live_123");
    expect(request!.headers.get("content-type")).toBe("application/json");
    expect(request!.headers.get("idempotency-key")).toBe("key-1");
    expect(await request!.json()).toEqual(body);
  });

  it("returns the problem of a 409 as a typed error", async () => {
    const problem = example("/api/v1/send/counterparties/", "post", "409", "counterparty_exists");
    const { fetch } = recordedFetch({ status: 409, body: problem, type: "application/problem+json" });
    const client = createPayinClient({ baseUrl: BASE, token: "t", fetch });

    const { data, error } = await client.POST("/api/v1/send/counterparties/", {
      body: example("/api/v1/send/counterparties/", "post", "", "minimal", "request"),
    });

    expect(data).toBeUndefined();
    expect(error?.code).toBe("counterparty_exists");
    expect(error?.existing_id).toBe(problem.existing_id);
  });

  it("creates a payment session and gets its payment link", async () => {
    const session = example("/api/v1/earn/payment-sessions/", "post", "201", "created");
    const { fetch, requests } = recordedFetch({ status: 201, body: session });
    const client = createPayinClient({ baseUrl: BASE, token: "t", fetch });

    const { data } = await client.POST("/api/v1/earn/payment-sessions/", {
      body: { amount: 49.99, currency: "EUR", counterparty_id: "cp_1", redirect_url: "https://shop.example.com/thanks" },
    });

    expect(data?.payment_link).toBe(session.payment_link);
    expect(requests[0]!.headers.get("idempotency-key")).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
    expect(await requests[0]!.json()).toEqual({
      amount: 49.99,
      currency: "EUR",
      counterparty_id: "cp_1",
      redirect_url: "https://shop.example.com/thanks",
    });
  });

  it("fetches a transaction by transaction_id, encoding the path parameter", async () => {
    const transaction = example("/api/v1/earn/transactions/{transaction_id}/", "get", "200", "completed");
    const { fetch, requests } = recordedFetch({ status: 200, body: transaction });
    const client = createPayinClient({ baseUrl: `${BASE}/`, token: "t", fetch });

    const { data } = await client.GET("/api/v1/earn/transactions/{transaction_id}/", {
      params: { path: { transaction_id: "txn/1 2" } },
    });

    expect(data?.status).toBe("completed");
    expect(requests[0]!.method).toBe("GET");
    expect(requests[0]!.url).toBe(`${BASE}/api/v1/earn/transactions/txn%2F1%202/`);
    expect(requests[0]!.body).toBeNull();
  });

  it("returns a 404 problem for an unknown transaction", async () => {
    const problem = example("/api/v1/earn/transactions/{transaction_id}/", "get", "404", "not_found");
    const { fetch } = recordedFetch({ status: 404, body: problem, type: "application/problem+json" });
    const client = createPayinClient({ baseUrl: BASE, token: "t", fetch });

    const { error, response } = await client.GET("/api/v1/earn/transactions/{transaction_id}/", {
      params: { path: { transaction_id: "txn_0000000000" } },
    });

    expect(response.status).toBe(404);
    expect(error).toMatchObject({ status: 404, code: "not_found" });
  });

  it("registers and fetches the webhook URL", async () => {
    const registered = example("/webhooks", "post", "201", "registered");
    const endpoint = example("/webhooks", "get", "200", "registered");
    const { fetch, requests } = recordedFetch({ status: 201, body: registered }, { status: 200, body: endpoint });
    const client = createPayinClient({ baseUrl: BASE, token: "t", fetch });

    const created = await client.POST("/webhooks", { body: { url: "https://shop.example.com/webhooks/payins" } });
    const fetched = await client.GET("/webhooks");

    expect(created.data?.signing_secret).toMatch(/^whsec_/);
    expect(fetched.data?.url).toBe(endpoint.url);
    expect(requests.map((r) => `${r.method} ${new URL(r.url).pathname}`)).toEqual(["POST /webhooks", "GET /webhooks"]);
  });

  it("asks a token function for the current token on every request", async () => {
    const tokens = ["first", "second"];
    const { fetch, requests } = recordedFetch({ status: 404, body: {} }, { status: 404, body: {} });
    const client = createPayinClient({ baseUrl: BASE, token: async () => tokens.shift()!, fetch });

    await client.GET("/webhooks");
    await client.GET("/webhooks");

    expect(requests.map((r) => r.headers.get("authorization"))).toEqual(["Bearer first", "Bearer second"]);
  });
});
