// @ts-nocheck
import { describe, expect, it } from "vitest";
import { againstServer, client, last } from "./support/target.ts";

describe("GET /api/v1/earn/transactions/{transaction_id}/", () => {
  it.skipIf(againstServer)("returns the transaction (the mock knows every id)", async () => {
    const { data, response } = await client.GET("/api/v1/earn/transactions/{transaction_id}/", {
      params: { path: { transaction_id: "txn_9Vb5Mc2XpL8s" } },
    });
    expect(last().breaches).toEqual([]);
    expect(response.status).toBe(200);
    expect(data!.id).toEqual(expect.any(String));
    expect(["created", "completed", "settled", "failed"]).toContain(data!.status);
  });

  it("answers an unknown transaction_id with 404", async () => {
    const { error, response } = await client.GET("/api/v1/earn/transactions/{transaction_id}/", {
      params: { path: { transaction_id: `txn_unknown_${Date.now()}` } },
      headers: { Prefer: "code=404" },
    });
    expect(last().breaches).toEqual([]);
    expect(response.status).toBe(404);
    expect(error).toMatchObject({ status: 404, code: "not_found" });
  });
});
