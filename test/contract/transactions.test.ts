import { describe, expect, it } from "vitest";
import { newCounterparty } from "../../src/conformance/fixtures.ts";
import { client, last, onSandbox, send } from "./support/target.ts";

describe("GET /api/v1/earn/transactions/{transaction_id}/", () => {
  it.runIf(onSandbox)("returns the transaction in each state the payment flow gives it (sandbox)", async () => {
    const customer = await client.POST("/api/v1/send/counterparties/", { body: newCounterparty() });
    const session = await client.POST("/api/v1/earn/payment-sessions/", {
      body: {
        amount: 12.5,
        currency: "EUR",
        counterparty_id: customer.data!.id,
        order_id: "ORD-CONTRACT-1",
        redirect_url: "https://shop.example.com/thanks",
      },
    });
    const read = async (id: string) => {
      const { data, response } = await client.GET("/api/v1/earn/transactions/{transaction_id}/", {
        params: { path: { transaction_id: id } },
      });
      expect(last().breaches).toEqual([]);
      expect(response.status).toBe(200);
      return data!;
    };
    const simulate = (body: object) => send("POST", `/_sandbox/v1/payment-sessions/${session.data!.id}/simulate`, { body });

    const failed = await simulate({ outcome: "fail", failure_reason: "authentication_failed" });
    expect(failed.breaches).toEqual([]);
    const failedId = (failed.body as { transaction: { id: string } }).transaction.id;
    expect(await read(failedId)).toMatchObject({
      id: failedId,
      status: "failed",
      failure_reason: "authentication_failed",
      session_id: session.data!.id,
      amount: 12.5,
      order_id: "ORD-CONTRACT-1",
    });

    const paid = await simulate({ outcome: "pay" });
    expect(paid.breaches).toEqual([]);
    const paidId = (paid.body as { transaction: { id: string } }).transaction.id;
    const completed = await read(paidId);
    expect(completed).toMatchObject({ status: "completed" });
    expect(completed).not.toHaveProperty("failure_reason");

    const advanced = await send("POST", "/_sandbox/v1/clock/advance", { body: { seconds: 60 } });
    expect(advanced.breaches).toEqual([]);
    expect(await read(paidId)).toMatchObject({ status: "settled", created_at: completed.created_at });
    expect(await read(failedId)).toMatchObject({ status: "failed" });
  });
});
