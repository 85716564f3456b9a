import { describe, expect, it } from "vitest";
import { newCounterparty } from "../support/counterparty.ts";
import { baseUrl, client, last, onMock, onSandbox, send, stateful } from "./support/target.ts";

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
    // The sandbox serves the payment page itself, under its own origin; the service on HTTPS.
    if (onSandbox) expect(data!.payment_link).toBe(`${baseUrl}/pay/${data!.id}`);
    else expect(new URL(data!.payment_link).protocol).toBe("https:");
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

  // The amounts third-party tools found accepted; D2's rule from the contract's x-minor-units.
  it.each([
    [49.999, "EUR"],
    [10.5, "JPY"],
    [1.2345, "KWD"],
    [1e-7, "EUR"],
    [5e-324, "EUR"],
    [0.30000000000000004, "EUR"],
  ])("answers %s %s, more decimals than the currency has, with 422 naming amount", async (amount, currency) => {
    const res = await send("POST", "/api/v1/earn/payment-sessions/", { body: { amount, currency, counterparty_id: await counterpartyId(), redirect_url: "https://shop.example.com/thanks" } });
    expect(res.breaches).toEqual([]);
    expect(res.status).toBe(422);
    expect((res.body as any).errors).toEqual([{ field: "amount", message: expect.stringContaining(currency) }]);
  });

  it.each([
    [10, "JPY"],
    [1.234, "KWD"],
    [0.07, "EUR"],
    [1.5, "CHF"],
  ])("accepts %s %s, within the currency's minor units", async (amount, currency) => {
    const { data, response } = await client.POST("/api/v1/earn/payment-sessions/", { body: { amount, currency, counterparty_id: await counterpartyId(), redirect_url: "https://shop.example.com/thanks" } });
    expect(last().breaches).toEqual([]);
    expect(response.status).toBe(201);
    if (!onMock) expect(data).toMatchObject({ amount, currency });
  });

  it.each(["redirect_url", "source_url"])("answers a %s that is not https:// with 422 naming it", async (field) => {
    for (const url of ["javascript:alert(document.cookie)", "data:text/html,<script>alert(1)</script>", "vbscript:msgbox(1)", "http://shop.example.com/thanks"]) {
      const res = await send("POST", "/api/v1/earn/payment-sessions/", { body: { amount: 5, currency: "EUR", counterparty_id: await counterpartyId(), redirect_url: "https://shop.example.com/thanks", [field]: url } });
      expect(res.breaches).toEqual([]);
      expect(res.status, url).toBe(422);
      expect((res.body as any).errors.map((e: any) => e.field), url).toContain(field);
    }
  });

  it("answers an order_id with a control character with 422 naming it", async () => {
    for (const order_id of ["ORD-1\u0000<script>", "ORD-1\nforged log line", "ORD-\u009b1"]) {
      const res = await send("POST", "/api/v1/earn/payment-sessions/", { body: { amount: 5, currency: "EUR", counterparty_id: await counterpartyId(), order_id, redirect_url: "https://shop.example.com/thanks" } });
      expect(res.breaches).toEqual([]);
      expect(res.status, JSON.stringify(order_id)).toBe(422);
      expect((res.body as any).errors.map((e: any) => e.field)).toEqual(["order_id"]);
    }
  });

  it.runIf(stateful)("answers a redirect_url no client could reach (port 99999, address 999.0.0.1) with 422 naming it", async () => {
    for (const url of ["https://shop.example.com:99999/thanks", "https://999.0.0.1/thanks", "https://shop.example.com:0/thanks"]) {
      const res = await send("POST", "/api/v1/earn/payment-sessions/", { body: { amount: 5, currency: "EUR", counterparty_id: await counterpartyId(), redirect_url: url } });
      expect(res.breaches).toEqual([]);
      expect(res.status, url).toBe(422);
      expect((res.body as any).errors, url).toEqual([expect.objectContaining({ field: "redirect_url" })]);
    }
  });
});
