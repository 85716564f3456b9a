// @ts-nocheck
import { describe, expect, it } from "vitest";
import { client, last, newCounterparty, send } from "./support/target.ts";

async function counterpartyId() {
  const { data } = await client.POST("/api/v1/send/counterparties/", { body: newCounterparty() });
  return data!.id;
}

describe("POST /api/v1/earn/payment-sessions/", () => {
  it("creates a session with a payment link valid for one hour", async () => {
    const { data, response } = await client.POST("/api/v1/earn/payment-sessions/", {
      body: {
        amount: 49.99,
        currency: "EUR",
        counterparty_id: await counterpartyId(),
        order_id: `ORD-${Date.now()}`,
        purpose: "GOODS_PURCHASE",
        source_url: "https://shop.example.com/checkout",
        redirect_url: "https://shop.example.com/thanks",
      },
      params: { header: { "Idempotency-Key": crypto.randomUUID() } },
    });
    expect(last().breaches).toEqual([]);
    expect(response.status).toBe(201);
    expect(data!.status).toBe("created");
    expect(new URL(data!.payment_link).protocol).toBe("https:");
    expect(Date.parse(data!.expires_at) - Date.parse(data!.created_at)).toBe(3_600_000);
  });

  it("lets one counterparty have several sessions", async () => {
    const counterparty_id = await counterpartyId();
    const body = { amount: 5, currency: "EUR", counterparty_id, redirect_url: "https://shop.example.com/thanks" };
    const first = await client.POST("/api/v1/earn/payment-sessions/", { body });
    const second = await client.POST("/api/v1/earn/payment-sessions/", { body });
    expect([first.response.status, second.response.status]).toEqual([201, 201]);
  });

  it("answers an Idempotency-Key reused with another body with 409", async () => {
    const key = crypto.randomUUID();
    const counterparty_id = await counterpartyId();
    const body = { amount: 5, currency: "EUR", counterparty_id, redirect_url: "https://shop.example.com/thanks" };
    await client.POST("/api/v1/earn/payment-sessions/", { body, params: { header: { "Idempotency-Key": key } } });
    const { error, response } = await client.POST("/api/v1/earn/payment-sessions/", {
      body: { ...body, amount: 6 },
      params: { header: { "Idempotency-Key": key } },
      headers: { Prefer: "code=409" },
    });
    expect(last().breaches).toEqual([]);
    expect(response.status).toBe(409);
    expect(error).toMatchObject({ code: "idempotency_key_reused" });
  });

  it("answers a non-positive amount and a lower-case currency with 422 naming both", async () => {
    const res = await send("POST", "/api/v1/earn/payment-sessions/", {
      body: { amount: 0, currency: "eur", counterparty_id: "cp_1", redirect_url: "https://shop.example.com/thanks" },
    });
    expect(res.breaches).toEqual([]);
    expect(res.status).toBe(422);
    expect((res.body as any).errors.map((e: any) => e.field).sort()).toEqual(["amount", "currency"]);
  });

  it("answers a missing redirect_url with 422 naming it", async () => {
    const res = await send("POST", "/api/v1/earn/payment-sessions/", { body: { amount: 1, currency: "EUR", counterparty_id: "cp_1" } });
    expect(res.status).toBe(422);
    expect((res.body as any).errors).toContainEqual(expect.objectContaining({ field: "redirect_url" }));
  });
});
