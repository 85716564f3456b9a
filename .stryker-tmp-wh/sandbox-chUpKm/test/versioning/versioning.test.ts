// @ts-nocheck
import { spawnSync } from "node:child_process";
import { readFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { asyncapiBreakingChanges, openapiBreakingChanges } from "../../scripts/lib/breaking-changes.ts";
import { root } from "../../scripts/lib/paths.ts";

const read = (file: string) => JSON.parse(readFileSync(path.join(root, file), "utf8"));
const pkg = read("package.json");
const openapi = read("generated/openapi.json");
const asyncapi = read("generated/asyncapi.json");
const changed = (doc: any, edit: (d: any) => void) => {
  const copy = structuredClone(doc);
  edit(copy);
  return copy;
};

describe("one version for the package and both documents", () => {
  it("package.json, OpenAPI info.version and AsyncAPI info.version agree", () => {
    expect([openapi.info.version, asyncapi.info.version]).toEqual([pkg.version, pkg.version]);
  });

  it("the CHANGELOG has an entry for the version", () => {
    expect(readFileSync(path.join(root, "CHANGELOG.md"), "utf8")).toContain(`## ${pkg.version}`);
  });
});

describe("npm run check:breaking", () => {
  it("passes for today's documents against the last release", () => {
    const r = spawnSync(process.execPath, [path.join(root, "scripts", "check-breaking.ts")], { encoding: "utf8" });
    expect(r.status, r.stderr).toBe(0);
  });
});

describe("breaking changes", () => {
  const schemas = (d: any) => d.components.schemas;

  it("finds none between a document and itself", () => {
    expect(openapiBreakingChanges(openapi, openapi)).toEqual([]);
    expect(asyncapiBreakingChanges(asyncapi, asyncapi)).toEqual([]);
  });

  it("allows adding an optional request field, a response field and an operation's new error", () => {
    const after = changed(openapi, (d) => {
      schemas(d).PaymentSessionCreate.properties.metadata = { type: "object", description: "x" };
      schemas(d).PaymentSession.properties.metadata = { type: "object", description: "x" };
      d.paths["/webhooks"].get.responses["409"] = d.paths["/webhooks"].get.responses["500"];
    });
    expect(openapiBreakingChanges(openapi, after)).toEqual([]);
  });

  it("finds a new required request field, a narrowed constraint and a removed enum value", () => {
    const after = changed(openapi, (d) => {
      schemas(d).PaymentSessionCreate.required.push("order_id");
      schemas(d).OrderId.maxLength = 32;
      schemas(d).CounterpartyType.enum = [];
    });
    const found = openapiBreakingChanges(openapi, after);
    expect(found).toContain("POST /api/v1/earn/payment-sessions/ request body.order_id: now required");
    expect(found).toContain("POST /api/v1/earn/payment-sessions/ request body.order_id: maxLength 128 became 32");
    expect(found.some((c) => c.includes("request body.type: no longer accepts \"INDIVIDUAL\""))).toBe(true);
  });

  it("finds a removed response field, a field no longer required, and a new enum value in a response", () => {
    const after = changed(openapi, (d) => {
      delete schemas(d).PaymentSession.properties.payment_link;
      schemas(d).Transaction.required = schemas(d).Transaction.required.filter((r: string) => r !== "session_id");
      schemas(d).SessionStatus.enum.push("cancelled");
    });
    const found = openapiBreakingChanges(openapi, after);
    expect(found).toContain("POST /api/v1/earn/payment-sessions/ → 201 body.payment_link: removed");
    expect(found).toContain("GET /api/v1/earn/transactions/{transaction_id}/ → 200 body.session_id: no longer always present");
    expect(found).toContain('POST /api/v1/earn/payment-sessions/ → 201 body.status: may now hold "cancelled"');
  });

  it("treats webhook payloads as responses, in both documents", () => {
    const after = changed(openapi, (d) => delete schemas(d).TransactionEventData.properties.order_id);
    expect(openapiBreakingChanges(openapi, after)).toContain("webhook transaction-created payload.data.order_id: removed");
    const renamed = changed(asyncapi, (d) => {
      const payload = d.channels.merchantWebhook.messages.transactionFailed.payload;
      payload.allOf[1].properties.data.allOf[1].properties.failure_reason.pattern = "^[A-Z_]+$";
    });
    expect(asyncapiBreakingChanges(asyncapi, renamed)).toEqual([
      'message transaction-failed payload.data.failure_reason: pattern "^[a-z0-9]+(_[a-z0-9]+)*$" became "^[A-Z_]+$"',
    ]);
  });

  it("compares the headers a webhook sends as part of what consumers read", () => {
    const after = changed(openapi, (d) => {
      d.webhooks["session-created"].post.parameters.push({ name: "webhook-attempt", in: "header", required: true, schema: { type: "string" } });
    });
    expect(openapiBreakingChanges(openapi, after)).toEqual([]);
    const optional = changed(openapi, (d) => {
      d.components.parameters.WebhookIdHeader.required = false;
    });
    expect(openapiBreakingChanges(openapi, optional)).toContain("webhook session-created: parameter header webhook-id no longer always sent");
  });

  it("finds removed operations, webhooks and events", () => {
    const after = changed(openapi, (d) => {
      delete d.paths["/webhooks"].get;
      delete d.webhooks["session-expired"];
    });
    expect(openapiBreakingChanges(openapi, after)).toEqual(["GET /webhooks: operation removed", "webhook session-expired: removed"]);
    const fewer = changed(asyncapi, (d) => delete d.channels.merchantWebhook.messages.sessionExpired);
    expect(asyncapiBreakingChanges(asyncapi, fewer)).toEqual(["message session-expired: removed"]);
  });
});

describe("the last release", () => {
  it("is a document of the contract, kept beside its source", () => {
    for (const file of ["openapi/last-release.json", "asyncapi/last-release.json"]) expect(read(file).info.title).toMatch(/Payin Acceptance Service/);
  });
});
