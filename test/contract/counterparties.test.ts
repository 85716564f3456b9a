import { describe, expect, it } from "vitest";
import { newCounterparty } from "../support/counterparty.ts";
import { client, last, onMock, send } from "./support/target.ts";

describe("POST /api/v1/send/counterparties/", () => {
  it("creates a PAYIN counterparty and returns its id", async () => {
    const body = newCounterparty();
    const { data, error, response } = await client.POST("/api/v1/send/counterparties/", {
      body,
      params: { header: { "Idempotency-Key": crypto.randomUUID() } },
    });
    expect(last().breaches).toEqual([]);
    expect(error).toBeUndefined();
    expect(response.status).toBe(201);
    expect(data!.id).toEqual(expect.any(String));
    expect(data!.payment_rail).toBe("PAYIN");
  });

  it("answers a duplicate email and phone number with 409 counterparty_exists (a server on its own; the mock when asked)", async () => {
    const body = newCounterparty();
    await client.POST("/api/v1/send/counterparties/", { body });
    // A real server refuses the duplicate on its own; the mock is asked to.
    const { error, response } = await client.POST("/api/v1/send/counterparties/", { body, headers: { Prefer: "code=409" } });
    expect(last().breaches).toEqual([]);
    expect(response.status).toBe(409);
    expect(error).toMatchObject({ code: "counterparty_exists", existing_id: expect.any(String) });
  });

  it("answers an invalid body with 422 naming each invalid field", async () => {
    const res = await send("POST", "/api/v1/send/counterparties/", {
      body: { ...newCounterparty(), email: "not-an-email", address: { line_1: "Calle 1", city: "Madrid", country_code: "spain" } },
    });
    expect(res.breaches).toEqual([]);
    expect(res.status).toBe(422);
    expect((res.body as any).errors.map((e: any) => e.field).sort()).toEqual(["address.country_code", "email"]);
  });

  it("answers a payment rail other than PAYIN with 422 naming payment_rail", async () => {
    const res = await send("POST", "/api/v1/send/counterparties/", { body: { ...newCounterparty(), payment_rail: "PAYOUT" } });
    expect(res.status).toBe(422);
    expect((res.body as any).errors).toContainEqual(expect.objectContaining({ field: "payment_rail" }));
  });
});

describe("GET /api/v1/send/counterparties/schema/", () => {
  it("says which fields a PAYIN individual needs", async () => {
    const { data, response } = await client.GET("/api/v1/send/counterparties/schema/", {
      params: { query: { payment_rail: "PAYIN", type: "INDIVIDUAL" } },
    });
    expect(last().breaches).toEqual([]);
    expect(response.status).toBe(200);
    expect(data!.required_fields).toEqual(expect.arrayContaining(["email", "phone_number"]));
  });

  it("answers a missing query parameter with 422 naming it", async () => {
    const res = await send("GET", "/api/v1/send/counterparties/schema/?type=INDIVIDUAL");
    expect(res.breaches).toEqual([]);
    expect(res.status).toBe(422);
    expect((res.body as any).errors).toContainEqual(expect.objectContaining({ field: "payment_rail" }));
  });
});

describe.runIf(onMock)("on the mock only", () => {
  it("replays the documented examples for a valid request", async () => {
    const { data } = await client.POST("/api/v1/send/counterparties/", { body: newCounterparty() });
    expect(data!.id).toBe("cp_7Hq2Lx9RbT4m");
  });
});
