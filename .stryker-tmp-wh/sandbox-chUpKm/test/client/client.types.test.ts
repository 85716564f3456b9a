// @ts-nocheck
// Type-level tests: `npm run typecheck` (tsc) fails if a line marked @ts-expect-error compiles,
// or if an expectTypeOf assertion does not hold. The runtime part only builds requests.
import { describe, expectTypeOf, it } from "vitest";
import {
  createPayinClient,
  type Counterparty,
  type CounterpartyCreate,
  type PaymentSession,
  type PaymentSessionCreate,
  type Problem,
  type Transaction,
  type WebhookRegistration,
  type WebhookRegistrationRequest,
} from "../../src/index.ts";

const never = async (): Promise<Response> => new Response(null, { status: 500 });
const client = createPayinClient({ baseUrl: "https://api.payin.example.com", token: "t", fetch: never });

describe("the client is typed by the contract", () => {
  it("accepts right bodies and returns typed records and problems", async () => {
    const body: CounterpartyCreate = {
      type: "INDIVIDUAL",
      payment_rail: "PAYIN",
      first_name: "Lucía",
      last_name: "García",
      email: "lucia@example.com",
      phone_number: "+34612345678",
    };
    const { data, error } = await client.POST("/api/v1/send/counterparties/", { body });
    expectTypeOf(data).toEqualTypeOf<Counterparty | undefined>();
    expectTypeOf(error).toEqualTypeOf<Problem | undefined>();

    const session = await client.POST("/api/v1/earn/payment-sessions/", {
      body: { amount: 10, currency: "EUR", counterparty_id: "cp_1", redirect_url: "https://x.example.com" } satisfies PaymentSessionCreate,
      params: { header: { "Idempotency-Key": "k" } },
    });
    expectTypeOf(session.data).toEqualTypeOf<PaymentSession | undefined>();
    expectTypeOf<NonNullable<typeof session.data>["status"]>().toEqualTypeOf<"created" | "completed" | "expired">();

    const tx = await client.GET("/api/v1/earn/transactions/{transaction_id}/", { params: { path: { transaction_id: "t" } } });
    expectTypeOf(tx.data).toEqualTypeOf<Transaction | undefined>();
    expectTypeOf<NonNullable<typeof tx.data>["status"]>().toEqualTypeOf<"created" | "completed" | "settled" | "failed">();

    const webhook = await client.POST("/webhooks", { body: { url: "https://shop.example.com/hook" } });
    expectTypeOf(webhook.data).toEqualTypeOf<WebhookRegistration | undefined>();
  });

  it("rejects wrong paths, methods, bodies and fields", async () => {
    // : not a path of the contract
    await client.GET("/api/v1/earn/payment-sessions/{id}/");
    // : create counterparty is POST, not GET
    await client.GET("/api/v1/send/counterparties/");
    // : the body is required
    await client.POST("/api/v1/send/counterparties/", {});
    await client.POST("/api/v1/earn/payment-sessions/", {
      // : amount is a number
      body: { amount: "10.00", currency: "EUR", counterparty_id: "cp_1", redirect_url: "https://x.example.com" },
    });
    await client.POST("/api/v1/earn/payment-sessions/", {
      // : redirect_url is required
      body: { amount: 10, currency: "EUR", counterparty_id: "cp_1" },
    });
    await client.POST("/api/v1/send/counterparties/", {
      body: {
        // : payment_rail is PAYIN only
        payment_rail: "PAYOUT",
        type: "INDIVIDUAL",
        first_name: "A",
        last_name: "B",
        email: "a@example.com",
        phone_number: "+34612345678",
      },
    });
    // openapi-fetch infers the init argument generically, which turns off TypeScript's
    // excess-property check on inline bodies; `satisfies` with the record alias restores it.
    await client.POST("/webhooks", {
      body: {
        url: "https://shop.example.com/hook",
        // : unknown field
        events: ["session-created"],
      } satisfies WebhookRegistrationRequest,
    });
    // : the path parameter is required
    await client.GET("/api/v1/earn/transactions/{transaction_id}/", { params: { path: {} } });
    // : Idempotency-Key exists only on the create calls
    await client.GET("/webhooks", { params: { header: { "Idempotency-Key": "k" } } });
    const { data } = await client.GET("/webhooks");
    // : the fetched webhook never carries its secret
    data?.signing_secret;
  });
});
