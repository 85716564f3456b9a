// Every field, operation and rule of the source document (shared/seed/payin-acceptance-service.md),
// pointed at in the bundled contract.
import { describe, expect, it } from "vitest";
import { openapi, operations } from "../support/documents.ts";

const schemas = openapi.components.schemas;
const op = (path: string, method: string) => openapi.paths[path]?.[method];
const requestSchema = (path: string, method: string) => op(path, method).requestBody.content["application/json"].schema;
const responseSchema = (path: string, method: string, status: string, type = "application/json") =>
  op(path, method).responses[status].content[type].schema;

/** Section 2.1 and 2.2 tables: field → type, as the source writes them. */
const SOURCE_FIELDS = {
  CounterpartyCreate: {
    first_name: "string",
    last_name: "string",
    type: "string",
    payment_rail: "string",
    phone_number: "string",
    email: "string",
    date_of_birth: "string",
    address: "object",
    "address.city": "string",
    "address.state": "string",
    "address.line_1": "string",
    "address.postal_code": "string",
    "address.country_code": "string",
  },
  PaymentSessionCreate: {
    amount: "number",
    currency: "string",
    counterparty_id: "string",
    order_id: "string",
    purpose: "string",
    source_url: "string",
    redirect_url: "string",
  },
} as const;

const field = (schema: any, dotted: string) => dotted.split(".").reduce((s, name) => s?.properties?.[name], schema);

describe("the source's fields", () => {
  for (const [schemaName, fields] of Object.entries(SOURCE_FIELDS))
    for (const [name, type] of Object.entries(fields))
      it(`${schemaName}.${name} is a ${type}`, () => {
        expect(field(schemas[schemaName], name)?.type).toBe(type);
      });

  it("the counterparty record echoes every request field and has an id", () => {
    for (const name of Object.keys(schemas.CounterpartyCreate.properties))
      expect(schemas.Counterparty.properties, name).toHaveProperty(name);
    expect(schemas.Counterparty.required).toContain("id");
  });

  it("the session record echoes every request field and carries payment_link and id", () => {
    for (const name of Object.keys(schemas.PaymentSessionCreate.properties))
      expect(schemas.PaymentSession.properties, name).toHaveProperty(name);
    expect(schemas.PaymentSession.required).toEqual(expect.arrayContaining(["id", "payment_link"]));
  });

  it("the transaction record is identified by id, the transaction_id", () => {
    expect(schemas.Transaction.required).toContain("id");
    expect(op("/api/v1/earn/transactions/{transaction_id}/", "get").parameters[0]).toMatchObject({
      name: "transaction_id",
      in: "path",
      required: true,
    });
  });
});

describe("the source's operations", () => {
  it("has exactly the six operations", () => {
    expect(
      operations()
        .map(({ method, path }) => `${method.toUpperCase()} ${path}`)
        .sort(),
    ).toEqual([
      "GET /api/v1/earn/transactions/{transaction_id}/",
      "GET /api/v1/send/counterparties/schema/",
      "GET /webhooks",
      "POST /api/v1/earn/payment-sessions/",
      "POST /api/v1/send/counterparties/",
      "POST /webhooks",
    ]);
  });

  it("create counterparty takes the counterparty object and answers with its id", () => {
    expect(requestSchema("/api/v1/send/counterparties/", "post").title).toBe("CounterpartyCreate");
    expect(responseSchema("/api/v1/send/counterparties/", "post", "201").required).toContain("id");
  });

  it("create payment session takes the session object and answers with its payment link", () => {
    expect(requestSchema("/api/v1/earn/payment-sessions/", "post").title).toBe("PaymentSessionCreate");
    expect(responseSchema("/api/v1/earn/payment-sessions/", "post", "201").required).toContain("payment_link");
  });

  it("the counterparty schema operation says which fields are required", () => {
    expect(responseSchema("/api/v1/send/counterparties/schema/", "get", "200").required).toContain("required_fields");
  });

  it("POST /webhooks registers or updates, GET /webhooks returns the URL", () => {
    const post = op("/webhooks", "post").responses;
    expect(Object.keys(post)).toEqual(expect.arrayContaining(["200", "201"]));
    expect(responseSchema("/webhooks", "get", "200").required).toContain("url");
  });

  it("bodies are JSON", () => {
    for (const { operation } of operations()) {
      for (const type of Object.keys(operation.requestBody?.content ?? {})) expect(type).toBe("application/json");
      for (const [status, r] of Object.entries<any>(operation.responses))
        for (const type of Object.keys(r.content ?? {}))
          expect(type).toBe(status.startsWith("2") ? "application/json" : "application/problem+json");
    }
  });
});

describe("the source's rules", () => {
  it("every operation carries the bearer token and documents 401 and 429", () => {
    expect(openapi.components.securitySchemes.BearerAuth).toMatchObject({ type: "http", scheme: "bearer" });
    expect(openapi.security).toEqual([{ BearerAuth: [] }]);
    for (const { path, method, operation } of operations()) {
      expect(operation.security, `${method} ${path} must not opt out`).toBeUndefined();
      expect(Object.keys(operation.responses), `${method} ${path}`).toEqual(expect.arrayContaining(["401", "429"]));
    }
  });

  it("type is INDIVIDUAL and payment_rail is PAYIN", () => {
    expect(schemas.CounterpartyCreate.properties.type.enum).toEqual(["INDIVIDUAL"]);
    expect(schemas.CounterpartyCreate.properties.payment_rail.enum).toEqual(["PAYIN"]);
  });

  it("email and phone_number are required, because together they must be unique", () => {
    expect(schemas.CounterpartyCreate.required).toEqual(expect.arrayContaining(["email", "phone_number"]));
  });

  it("a second PAYIN counterparty with the same email and phone_number gets 409 counterparty_exists", () => {
    const conflict = op("/api/v1/send/counterparties/", "post").responses["409"];
    const examples = Object.values<any>(conflict.content["application/problem+json"].examples);
    expect(examples.map((e) => e.value.code)).toContain("counterparty_exists");
    expect(conflict.description).toMatch(/email and phone number/);
  });

  it("date_of_birth is a year-month-day date", () => {
    expect(schemas.CounterpartyCreate.properties.date_of_birth.format).toBe("date");
  });

  it("country_code is two letters", () => {
    expect(new RegExp(schemas.Address.properties.country_code.pattern).source).toBe("^[A-Z]{2}$");
  });

  it("purpose is upper-case words joined by underscores", () => {
    const purpose = new RegExp(schemas.PaymentSessionCreate.properties.purpose.pattern);
    for (const ok of ["GOODS_PURCHASE", "SERVICES", "BILL_PAYMENT_2026"]) expect(ok).toMatch(purpose);
    for (const bad of ["goods_purchase", "GOODS__PURCHASE", "_GOODS", "GOODS-PURCHASE", ""]) expect(bad).not.toMatch(purpose);
  });

  it("amount is a positive number", () => {
    expect(schemas.PaymentSessionCreate.properties.amount).toMatchObject({ type: "number", exclusiveMinimum: 0 });
  });

  it("the payment link is valid for one hour: expires_at is part of the session", () => {
    expect(schemas.PaymentSession.required).toContain("expires_at");
    expect(schemas.PaymentSession.properties.expires_at.description).toMatch(/one hour after `created_at`/);
    const example = op("/api/v1/earn/payment-sessions/", "post").responses["201"].content["application/json"].examples.created.value;
    expect(Date.parse(example.expires_at) - Date.parse(example.created_at)).toBe(60 * 60 * 1000);
  });

  it("session and transaction states are the ones the event names imply", () => {
    expect(schemas.SessionStatus.enum).toEqual(["created", "completed", "expired"]);
    expect(schemas.TransactionStatus.enum).toEqual(["created", "completed", "settled", "failed"]);
  });

  it("counterparty and session paths carry v1", () => {
    for (const path of ["/api/v1/send/counterparties/", "/api/v1/earn/payment-sessions/"]) expect(openapi.paths).toHaveProperty([path]);
  });
});
