// The breaking-change check, one case per rule of oasdiff's catalogue (checker/rules.go) that
// applies to the constructs our documents use, plus the AsyncAPI rules. Each case edits the
// built document and states its verdict: "breaking" names the finding expected (every finding
// must be of that rule), "compatible" expects none. Where this check judges otherwise than
// oasdiff, the case says why.
import { readFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { asyncapiBreakingChanges, openapiBreakingChanges } from "../../scripts/lib/breaking-changes.ts";
import { root } from "../../scripts/lib/paths.ts";

type Doc = Record<string, any>;
type Case = {
  /** The oasdiff rule id (or ours, for AsyncAPI and rules oasdiff lacks). */
  rule: string;
  verdict: "breaking" | "compatible";
  /** Applied to both versions first, to set up a construct the document lacks. */
  base?: (d: Doc) => void;
  /** The change, applied to the new version only. */
  edit: (d: Doc) => void;
  /** The findings expected when they are not named as the rule. */
  finding?: string | string[];
};

const read = (file: string) => JSON.parse(readFileSync(path.join(root, file), "utf8"));
const openapi = read("generated/openapi.json");
const asyncapi = read("generated/asyncapi.json");

const schemas = (d: Doc) => d.components.schemas;
const createSession = (d: Doc) => d.paths["/api/v1/earn/payment-sessions/"].post;
const getTransaction = (d: Doc) => d.paths["/api/v1/earn/transactions/{transaction_id}/"].get;
const getWebhook = (d: Doc) => d.paths["/webhooks"].get;
const idempotencyKey = (d: Doc) => d.components.parameters.IdempotencyKey.schema;
/** A schema with its `$ref` and `allOf` parts copied in (its own keywords win): one plain object to edit. */
const inlined = (d: Doc, node: Doc): Doc => {
  const { $ref, allOf, ...own } = node;
  const parts = [...($ref ? [schemas(d)[$ref.split("/").pop()]] : []), ...(allOf ?? [])].map((part: Doc) => inlined(d, part));
  return structuredClone(Object.assign({}, ...parts, own));
};
/** A property of the create-session body, inlined so that a change reaches only the request. */
const requestProp = (d: Doc, name: string, edit: (s: Doc) => void) => {
  const props = schemas(d).PaymentSessionCreate.properties;
  props[name] = inlined(d, props[name]);
  edit(props[name]);
};
/** A property of the session record (the 201 response), inlined likewise. */
const responseProp = (d: Doc, name: string, edit: (s: Doc) => void) => {
  const props = schemas(d).PaymentSession.properties;
  props[name] = inlined(d, props[name]);
  edit(props[name]);
};
/** The first schema inside `node` that declares the property `name`. */
const schemaWith = (node: any, name: string): any => {
  if (!node || typeof node !== "object") return undefined;
  if (node.properties?.[name]) return node;
  for (const child of Object.values(node)) {
    const found = schemaWith(child, name);
    if (found) return found;
  }
  return undefined;
};
const problemErrors = (d: Doc) => schemas(d).Problem.properties.errors;

const openapiCases: Case[] = [
  // Paths and operations
  { rule: "api-path-removed-without-deprecation", verdict: "breaking", edit: (d) => delete d.paths["/api/v1/send/counterparties/schema/"] },
  { rule: "api-removed-without-deprecation", verdict: "breaking", edit: (d) => delete d.paths["/webhooks"].get },
  {
    rule: "endpoint-added",
    verdict: "compatible",
    edit: (d) => (d.paths["/api/v1/earn/payment-sessions/{session_id}/"] = { get: getWebhook(d) }),
  },
  { rule: "webhook-removed", verdict: "breaking", edit: (d) => delete d.webhooks["session-expired"] },
  { rule: "webhook-added", verdict: "compatible", edit: (d) => (d.webhooks["session-cancelled"] = d.webhooks["session-expired"]) },
  // Parameters, on the operation and on the path item
  {
    rule: "new-required-request-parameter",
    verdict: "breaking",
    edit: (d) =>
      (getWebhook(d).parameters = [{ name: "x-merchant", in: "header", required: true, schema: { type: "string", maxLength: 9 } }]),
  },
  {
    rule: "new-optional-request-parameter",
    verdict: "compatible",
    edit: (d) => (getWebhook(d).parameters = [{ name: "x-merchant", in: "header", schema: { type: "string", maxLength: 9 } }]),
  },
  {
    rule: "new-required-request-default-parameter-to-existing-path",
    verdict: "breaking",
    finding: "new-required-request-parameter",
    edit: (d) =>
      (d.paths["/webhooks"].parameters = [{ name: "x-merchant", in: "header", required: true, schema: { type: "string", maxLength: 9 } }]),
  },
  {
    rule: "new-optional-request-default-parameter-to-existing-path",
    verdict: "compatible",
    edit: (d) => (d.paths["/webhooks"].parameters = [{ name: "x-merchant", in: "header", schema: { type: "string", maxLength: 9 } }]),
  },
  {
    rule: "(ours) a parameter moved from the operation to its path item",
    verdict: "compatible",
    edit: (d) => {
      d.paths["/api/v1/earn/transactions/{transaction_id}/"].parameters = getTransaction(d).parameters;
      delete getTransaction(d).parameters;
    },
  },
  { rule: "request-parameter-removed", verdict: "breaking", edit: (d) => (createSession(d).parameters = []) },
  { rule: "request-parameter-became-required", verdict: "breaking", edit: (d) => (d.components.parameters.IdempotencyKey.required = true) },
  { rule: "request-parameter-became-optional", verdict: "compatible", edit: (d) => (d.components.parameters.PaymentRail.required = false) },
  { rule: "request-parameter-became-enum", verdict: "breaking", edit: (d) => (idempotencyKey(d).enum = ["a"]) },
  {
    rule: "request-parameter-enum-value-added",
    verdict: "compatible",
    base: (d) => (d.components.parameters.PaymentRail.schema = { type: "string", enum: ["PAYIN"] }),
    edit: (d) => d.components.parameters.PaymentRail.schema.enum.push("PAYOUT"),
  },
  {
    rule: "request-parameter-enum-value-removed",
    verdict: "breaking",
    base: (d) => (d.components.parameters.PaymentRail.schema = { type: "string", enum: ["PAYIN", "PAYOUT"] }),
    edit: (d) => (d.components.parameters.PaymentRail.schema.enum = ["PAYIN"]),
  },
  {
    rule: "request-parameter-max-length-set",
    verdict: "breaking",
    base: (d) => delete idempotencyKey(d).maxLength,
    edit: (d) => (idempotencyKey(d).maxLength = 64),
  },
  { rule: "request-parameter-max-length-increased", verdict: "compatible", edit: (d) => (idempotencyKey(d).maxLength = 512) },
  { rule: "request-parameter-max-length-decreased", verdict: "breaking", edit: (d) => (idempotencyKey(d).maxLength = 36) },
  { rule: "request-parameter-min-length-increased", verdict: "breaking", edit: (d) => (idempotencyKey(d).minLength = 8) },
  {
    rule: "request-parameter-min-length-decreased",
    verdict: "compatible",
    base: (d) => (idempotencyKey(d).minLength = 8),
    edit: (d) => (idempotencyKey(d).minLength = 1),
  },
  { rule: "request-parameter-pattern-added", verdict: "breaking", edit: (d) => (idempotencyKey(d).pattern = "^[a-f0-9-]+$") },
  {
    rule: "request-parameter-pattern-removed",
    verdict: "compatible",
    base: (d) => (idempotencyKey(d).pattern = "^[a-f0-9-]+$"),
    edit: (d) => delete idempotencyKey(d).pattern,
  },
  {
    rule: "request-parameter-pattern-changed",
    verdict: "breaking",
    base: (d) => (idempotencyKey(d).pattern = "^[a-f0-9-]+$"),
    edit: (d) => (idempotencyKey(d).pattern = "^[A-F0-9-]+$"),
  },
  { rule: "request-parameter-type-changed", verdict: "breaking", edit: (d) => (idempotencyKey(d).type = "integer") },
  { rule: "request-parameter-list-of-types-widened", verdict: "compatible", edit: (d) => (idempotencyKey(d).type = ["string", "null"]) },
  // Request bodies
  {
    rule: "added-required-request-body",
    verdict: "breaking",
    edit: (d) => (getWebhook(d).requestBody = { required: true, content: { "application/json": { schema: { type: "object" } } } }),
  },
  {
    rule: "added-optional-request-body",
    verdict: "compatible",
    edit: (d) => (getWebhook(d).requestBody = { content: { "application/json": { schema: { type: "object" } } } }),
  },
  { rule: "request-body-became-optional", verdict: "compatible", edit: (d) => (createSession(d).requestBody.required = false) },
  {
    rule: "request-body-became-required",
    verdict: "breaking",
    base: (d) => (createSession(d).requestBody.required = false),
    edit: (d) => (createSession(d).requestBody.required = true),
  },
  {
    rule: "request-body-media-type-added",
    verdict: "compatible",
    edit: (d) =>
      (createSession(d).requestBody.content["application/x-www-form-urlencoded"] =
        createSession(d).requestBody.content["application/json"]),
  },
  {
    rule: "request-body-media-type-removed",
    verdict: "breaking",
    base: (d) =>
      (createSession(d).requestBody.content["application/x-www-form-urlencoded"] =
        createSession(d).requestBody.content["application/json"]),
    edit: (d) => delete createSession(d).requestBody.content["application/x-www-form-urlencoded"],
  },
  { rule: "request-body-removed", verdict: "breaking", edit: (d) => delete createSession(d).requestBody },
  // Request body properties
  {
    rule: "new-required-request-property",
    verdict: "breaking",
    edit: (d) => {
      schemas(d).PaymentSessionCreate.properties.note = { type: "string", maxLength: 9, description: "x" };
      schemas(d).PaymentSessionCreate.required.push("note");
    },
  },
  {
    rule: "new-optional-request-property",
    verdict: "compatible",
    edit: (d) => (schemas(d).PaymentSessionCreate.properties.note = { type: "string", maxLength: 9, description: "x" }),
  },
  { rule: "request-property-removed", verdict: "breaking", edit: (d) => delete schemas(d).PaymentSessionCreate.properties.purpose },
  { rule: "request-property-became-required", verdict: "breaking", edit: (d) => schemas(d).PaymentSessionCreate.required.push("order_id") },
  {
    rule: "request-property-became-optional",
    verdict: "compatible",
    edit: (d) => (schemas(d).PaymentSessionCreate.required = ["amount", "currency", "counterparty_id"]),
  },
  { rule: "request-property-became-enum", verdict: "breaking", edit: (d) => requestProp(d, "currency", (s) => (s.enum = ["EUR", "USD"])) },
  {
    rule: "request-property-enum-value-added",
    verdict: "compatible",
    base: (d) => requestProp(d, "currency", (s) => (s.enum = ["EUR", "USD"])),
    edit: (d) => schemas(d).PaymentSessionCreate.properties.currency.enum.push("GBP"),
  },
  {
    rule: "request-property-enum-value-removed",
    verdict: "breaking",
    base: (d) => requestProp(d, "currency", (s) => (s.enum = ["EUR", "USD"])),
    edit: (d) => (schemas(d).PaymentSessionCreate.properties.currency.enum = ["EUR"]),
  },
  { rule: "request-property-const-added", verdict: "breaking", edit: (d) => requestProp(d, "currency", (s) => (s.const = "EUR")) },
  {
    rule: "request-property-const-removed",
    verdict: "compatible",
    base: (d) => requestProp(d, "currency", (s) => (s.const = "EUR")),
    edit: (d) => delete schemas(d).PaymentSessionCreate.properties.currency.const,
  },
  {
    rule: "request-property-const-changed",
    verdict: "breaking",
    base: (d) => requestProp(d, "currency", (s) => (s.const = "EUR")),
    edit: (d) => (schemas(d).PaymentSessionCreate.properties.currency.const = "USD"),
  },
  {
    rule: "request-property-max-length-set",
    verdict: "breaking",
    base: (d) => requestProp(d, "redirect_url", (s) => delete s.maxLength),
    edit: (d) => (schemas(d).PaymentSessionCreate.properties.redirect_url.maxLength = 2048),
  },
  {
    rule: "request-property-max-length-decreased",
    verdict: "breaking",
    edit: (d) => requestProp(d, "order_id", (s) => (s.maxLength = 32)),
  },
  {
    rule: "request-property-max-length-increased",
    verdict: "compatible",
    edit: (d) => requestProp(d, "order_id", (s) => (s.maxLength = 256)),
  },
  {
    rule: "(ours) a maxLength that a fixed-length format already implies",
    verdict: "compatible",
    base: (d) => delete schemas(d).CalendarDate.maxLength,
    edit: (d) => (schemas(d).CalendarDate.maxLength = 10),
  },
  { rule: "request-property-min-length-increased", verdict: "breaking", edit: (d) => requestProp(d, "order_id", (s) => (s.minLength = 4)) },
  {
    rule: "request-property-min-length-decreased",
    verdict: "compatible",
    base: (d) => requestProp(d, "order_id", (s) => (s.minLength = 4)),
    edit: (d) => (schemas(d).PaymentSessionCreate.properties.order_id.minLength = 1),
  },
  {
    rule: "request-property-max-set",
    verdict: "breaking",
    base: (d) => requestProp(d, "amount", (s) => delete s.maximum),
    edit: (d) => (schemas(d).PaymentSessionCreate.properties.amount.maximum = 5000),
  },
  { rule: "request-property-max-decreased", verdict: "breaking", edit: (d) => requestProp(d, "amount", (s) => (s.maximum = 5000)) },
  { rule: "request-property-max-increased", verdict: "compatible", edit: (d) => requestProp(d, "amount", (s) => (s.maximum = 1e13)) },
  {
    rule: "request-property-exclusive-max-set",
    verdict: "breaking",
    base: (d) => requestProp(d, "amount", (s) => delete s.maximum),
    edit: (d) => (schemas(d).PaymentSessionCreate.properties.amount.exclusiveMaximum = 5000),
  },
  {
    rule: "request-property-min-set",
    verdict: "breaking",
    base: (d) => requestProp(d, "amount", (s) => delete s.exclusiveMinimum),
    edit: (d) => (schemas(d).PaymentSessionCreate.properties.amount.minimum = 1),
  },
  {
    rule: "request-property-min-increased",
    verdict: "breaking",
    finding: "request-property-min-increased",
    edit: (d) =>
      requestProp(d, "amount", (s) => {
        delete s.exclusiveMinimum;
        s.minimum = 1;
      }),
  },
  {
    rule: "request-property-min-decreased",
    verdict: "compatible",
    base: (d) => requestProp(d, "amount", (s) => (s.exclusiveMinimum = 1)),
    edit: (d) => (schemas(d).PaymentSessionCreate.properties.amount.exclusiveMinimum = 0),
  },
  {
    rule: "request-property-exclusive-min-increased",
    verdict: "breaking",
    edit: (d) => requestProp(d, "amount", (s) => (s.exclusiveMinimum = 1)),
  },
  {
    rule: "request-property-exclusive-min-decreased",
    verdict: "compatible",
    edit: (d) => requestProp(d, "amount", (s) => (s.exclusiveMinimum = -1)),
  },
  {
    rule: "(ours) exclusiveMinimum 0 becomes minimum 0: zero is now accepted",
    verdict: "compatible",
    edit: (d) =>
      requestProp(d, "amount", (s) => {
        delete s.exclusiveMinimum;
        s.minimum = 0;
      }),
  },
  {
    rule: "request-property-pattern-added",
    verdict: "breaking",
    edit: (d) => requestProp(d, "counterparty_id", (s) => (s.pattern = "^cp_[A-Za-z0-9]+$")),
  },
  { rule: "request-property-pattern-removed", verdict: "compatible", edit: (d) => requestProp(d, "currency", (s) => delete s.pattern) },
  {
    rule: "request-property-pattern-changed",
    verdict: "breaking",
    edit: (d) => requestProp(d, "currency", (s) => (s.pattern = "^[A-Z]{3,4}$")),
  },
  { rule: "request-property-type-changed", verdict: "breaking", edit: (d) => requestProp(d, "amount", (s) => (s.type = "string")) },
  {
    rule: "request-property-type-generalized",
    verdict: "compatible",
    base: (d) => requestProp(d, "amount", (s) => (s.type = "integer")),
    edit: (d) => (schemas(d).PaymentSessionCreate.properties.amount.type = "number"),
  },
  {
    rule: "request-property-type-specialized",
    verdict: "breaking",
    finding: "request-property-type-changed",
    edit: (d) => requestProp(d, "amount", (s) => (s.type = "integer")),
  },
  {
    rule: "request-property-list-of-types-widened",
    verdict: "compatible",
    edit: (d) => requestProp(d, "order_id", (s) => (s.type = ["string", "null"])),
  },
  {
    rule: "request-property-list-of-types-narrowed",
    verdict: "breaking",
    finding: "request-property-became-not-nullable",
    base: (d) => requestProp(d, "order_id", (s) => (s.type = ["string", "null"])),
    edit: (d) => (schemas(d).PaymentSessionCreate.properties.order_id.type = "string"),
  },
  {
    rule: "request-property-format-set (type-changed)",
    verdict: "breaking",
    finding: "request-property-type-changed",
    edit: (d) => requestProp(d, "order_id", (s) => (s.format = "uuid")),
  },
  { rule: "request-property-multiple-of-set", verdict: "breaking", edit: (d) => requestProp(d, "amount", (s) => (s.multipleOf = 0.01)) },
  {
    rule: "request-property-multiple-of-unset",
    verdict: "compatible",
    base: (d) => requestProp(d, "amount", (s) => (s.multipleOf = 0.5)),
    edit: (d) => delete schemas(d).PaymentSessionCreate.properties.amount.multipleOf,
  },
  {
    rule: "request-property-multiple-of-changed",
    verdict: "breaking",
    base: (d) => requestProp(d, "amount", (s) => (s.multipleOf = 0.5)),
    edit: (d) => (schemas(d).PaymentSessionCreate.properties.amount.multipleOf = 2),
  },
  {
    rule: "request-property-multiple-of-generalized",
    verdict: "compatible",
    base: (d) => requestProp(d, "amount", (s) => (s.multipleOf = 2)),
    edit: (d) => (schemas(d).PaymentSessionCreate.properties.amount.multipleOf = 0.5),
  },
  {
    rule: "(ours) additionalProperties false added to a request body",
    verdict: "breaking",
    finding: "request-property-additional-properties-refused",
    base: (d) => delete schemas(d).PaymentSessionCreate.additionalProperties,
    edit: (d) => (schemas(d).PaymentSessionCreate.additionalProperties = false),
  },
  {
    rule: "request-property-all-of-added",
    verdict: "breaking",
    finding: "request-property-became-required",
    edit: (d) =>
      (createSession(d).requestBody.content["application/json"].schema = {
        allOf: [{ $ref: "#/components/schemas/PaymentSessionCreate" }, { required: ["order_id"] }],
      }),
  },
  {
    rule: "request-body-all-of-added-annotation-only",
    verdict: "compatible",
    edit: (d) =>
      (createSession(d).requestBody.content["application/json"].schema = {
        allOf: [{ $ref: "#/components/schemas/PaymentSessionCreate" }, { description: "Same body." }],
      }),
  },
  {
    rule: "request-property-all-of-removed",
    verdict: "compatible",
    base: (d) =>
      (createSession(d).requestBody.content["application/json"].schema = {
        allOf: [{ $ref: "#/components/schemas/PaymentSessionCreate" }, { required: ["order_id"] }],
      }),
    edit: (d) => (createSession(d).requestBody.content["application/json"].schema = { $ref: "#/components/schemas/PaymentSessionCreate" }),
  },
  {
    rule: "(ours) allOf branches reordered",
    verdict: "compatible",
    base: (d) =>
      (createSession(d).requestBody.content["application/json"].schema = {
        allOf: [{ $ref: "#/components/schemas/PaymentSessionCreate" }, { required: ["order_id"] }],
      }),
    edit: (d) => createSession(d).requestBody.content["application/json"].schema.allOf.reverse(),
  },
  {
    rule: "request-property-one-of-added",
    verdict: "compatible",
    base: (d) =>
      requestProp(
        d,
        "order_id",
        (s) =>
          (s.oneOf = [
            { title: "A", maxLength: 8 },
            { title: "B", pattern: "^B" },
          ]),
      ),
    edit: (d) => schemas(d).PaymentSessionCreate.properties.order_id.oneOf.push({ title: "C", pattern: "^C" }),
  },
  {
    rule: "request-property-one-of-removed",
    verdict: "breaking",
    base: (d) =>
      requestProp(
        d,
        "order_id",
        (s) =>
          (s.oneOf = [
            { title: "A", maxLength: 8 },
            { title: "B", pattern: "^B" },
          ]),
      ),
    edit: (d) => schemas(d).PaymentSessionCreate.properties.order_id.oneOf.pop(),
  },
  {
    rule: "(ours) oneOf branches reordered",
    verdict: "compatible",
    base: (d) =>
      requestProp(
        d,
        "order_id",
        (s) =>
          (s.oneOf = [
            { title: "A", maxLength: 8 },
            { title: "B", pattern: "^B" },
          ]),
      ),
    edit: (d) => schemas(d).PaymentSessionCreate.properties.order_id.oneOf.reverse(),
  },
  {
    rule: "request-property-any-of-added",
    verdict: "compatible",
    base: (d) => requestProp(d, "order_id", (s) => (s.anyOf = [{ maxLength: 8 }, { pattern: "^B" }])),
    edit: (d) => schemas(d).PaymentSessionCreate.properties.order_id.anyOf.push({ pattern: "^C" }),
  },
  {
    rule: "request-property-any-of-removed",
    verdict: "breaking",
    base: (d) => requestProp(d, "order_id", (s) => (s.anyOf = [{ maxLength: 8 }, { pattern: "^B" }])),
    edit: (d) => schemas(d).PaymentSessionCreate.properties.order_id.anyOf.shift(),
  },
  {
    rule: "request-body-wrapped-in-one-of (with the old body as a branch)",
    verdict: "compatible",
    edit: (d) =>
      (createSession(d).requestBody.content["application/json"].schema = {
        oneOf: [{ $ref: "#/components/schemas/PaymentSessionCreate" }, { $ref: "#/components/schemas/CounterpartyCreate" }],
      }),
  },
  // Responses
  { rule: "response-success-status-removed", verdict: "breaking", edit: (d) => delete d.paths["/webhooks"].post.responses["200"] },
  {
    rule: "response-success-status-added",
    verdict: "compatible",
    edit: (d) => (getWebhook(d).responses["203"] = getWebhook(d).responses["200"]),
  },
  { rule: "response-non-success-status-removed", verdict: "compatible", edit: (d) => delete getTransaction(d).responses["404"] },
  {
    rule: "response-non-success-status-added",
    verdict: "compatible",
    edit: (d) => (getWebhook(d).responses["409"] = getWebhook(d).responses["500"]),
  },
  {
    rule: "response-media-type-removed",
    verdict: "breaking",
    edit: (d) => (getTransaction(d).responses["200"] = { description: "x", content: {} }),
  },
  {
    rule: "response-media-type-added",
    verdict: "compatible",
    edit: (d) =>
      (getTransaction(d).responses["200"].content["application/xml"] = getTransaction(d).responses["200"].content["application/json"]),
  },
  { rule: "response-header-became-optional", verdict: "breaking", edit: (d) => (d.components.headers.RetryAfter.required = false) },
  { rule: "required-response-header-removed", verdict: "breaking", edit: (d) => delete d.components.responses.TooManyRequests.headers },
  {
    rule: "response-header-added",
    verdict: "compatible",
    edit: (d) => (getTransaction(d).responses["200"].headers = { ETag: { schema: { type: "string" } } }),
  },
  {
    rule: "response-header-type-changed",
    verdict: "breaking",
    finding: "response-header-type-changed",
    edit: (d) => (d.components.headers.RetryAfter.schema.type = "string"),
  },
  {
    rule: "response-required-property-removed",
    verdict: "breaking",
    edit: (d) => delete schemas(d).PaymentSession.properties.payment_link,
  },
  {
    rule: "response-optional-property-removed",
    verdict: "breaking", // oasdiff: info. The README's rules: removing a field is major.
    edit: (d) => delete schemas(d).PaymentSession.properties.purpose,
  },
  {
    rule: "response-optional-property-added",
    verdict: "compatible",
    edit: (d) => (schemas(d).PaymentSession.properties.note = { type: "string", description: "x" }),
  },
  {
    rule: "response-required-property-added",
    verdict: "compatible",
    edit: (d) => {
      schemas(d).PaymentSession.properties.note = { type: "string", description: "x" };
      schemas(d).PaymentSession.required.push("note");
    },
  },
  {
    rule: "response-property-became-optional",
    verdict: "breaking",
    edit: (d) => (schemas(d).PaymentSession.required = schemas(d).PaymentSession.required.filter((r: string) => r !== "expires_at")),
  },
  { rule: "response-property-became-required", verdict: "compatible", edit: (d) => schemas(d).PaymentSession.required.push("order_id") },
  {
    rule: "response-property-enum-value-added",
    verdict: "breaking",
    edit: (d) => responseProp(d, "status", (s) => s.enum.push("cancelled")),
  },
  {
    rule: "response-property-enum-value-removed",
    verdict: "compatible",
    edit: (d) => responseProp(d, "status", (s) => (s.enum = ["created", "completed"])),
  },
  { rule: "response-property-const-added", verdict: "compatible", edit: (d) => responseProp(d, "currency", (s) => (s.const = "EUR")) },
  {
    rule: "response-property-const-removed",
    verdict: "breaking",
    base: (d) => responseProp(d, "currency", (s) => (s.const = "EUR")),
    edit: (d) => delete schemas(d).PaymentSession.properties.currency.const,
  },
  {
    rule: "response-property-const-changed",
    verdict: "breaking",
    base: (d) => responseProp(d, "currency", (s) => (s.const = "EUR")),
    edit: (d) => (schemas(d).PaymentSession.properties.currency.const = "USD"),
  },
  {
    rule: "response-property-max-length-increased",
    verdict: "breaking",
    edit: (d) => responseProp(d, "order_id", (s) => (s.maxLength = 256)),
  },
  { rule: "response-property-max-length-unset", verdict: "breaking", edit: (d) => responseProp(d, "order_id", (s) => delete s.maxLength) },
  {
    rule: "(ours) response maxLength decreased",
    verdict: "compatible",
    edit: (d) => responseProp(d, "order_id", (s) => (s.maxLength = 32)),
  },
  {
    rule: "response-property-min-length-decreased",
    verdict: "breaking",
    base: (d) => responseProp(d, "order_id", (s) => (s.minLength = 4)),
    edit: (d) => (schemas(d).PaymentSession.properties.order_id.minLength = 1),
  },
  { rule: "response-property-max-increased", verdict: "breaking", edit: (d) => responseProp(d, "amount", (s) => (s.maximum = 1e13)) },
  { rule: "response-property-max-unset", verdict: "breaking", edit: (d) => responseProp(d, "amount", (s) => delete s.maximum) },
  {
    rule: "response-property-min-decreased",
    verdict: "breaking",
    base: (d) =>
      responseProp(d, "amount", (s) => {
        delete s.exclusiveMinimum;
        s.minimum = 1;
      }),
    edit: (d) => (schemas(d).PaymentSession.properties.amount.minimum = 0),
  },
  {
    rule: "response-property-exclusive-min-decreased",
    verdict: "breaking",
    edit: (d) => responseProp(d, "amount", (s) => (s.exclusiveMinimum = -1)),
  },
  {
    rule: "(ours) response exclusive minimum increased",
    verdict: "compatible",
    edit: (d) => responseProp(d, "amount", (s) => (s.exclusiveMinimum = 1)),
  },
  {
    rule: "response-property-pattern-added",
    verdict: "compatible",
    edit: (d) => responseProp(d, "counterparty_id", (s) => (s.pattern = "^cp_[A-Za-z0-9]+$")),
  },
  { rule: "response-property-pattern-removed", verdict: "breaking", edit: (d) => responseProp(d, "currency", (s) => delete s.pattern) },
  {
    rule: "response-property-pattern-changed",
    verdict: "breaking",
    edit: (d) => responseProp(d, "currency", (s) => (s.pattern = "^[A-Z]{3,4}$")),
  },
  { rule: "response-property-type-changed", verdict: "breaking", edit: (d) => responseProp(d, "amount", (s) => (s.type = "string")) },
  {
    rule: "response-property-type-generalized",
    verdict: "breaking",
    finding: "response-property-type-changed",
    base: (d) => responseProp(d, "amount", (s) => (s.type = "integer")),
    edit: (d) => (schemas(d).PaymentSession.properties.amount.type = "number"),
  },
  {
    rule: "response-property-type-specialized",
    verdict: "compatible",
    edit: (d) => responseProp(d, "amount", (s) => (s.type = "integer")),
  },
  {
    rule: "response-property-list-of-types-widened",
    verdict: "breaking",
    finding: "response-property-became-nullable",
    edit: (d) => responseProp(d, "order_id", (s) => (s.type = ["string", "null"])),
  },
  {
    rule: "response-property-list-of-types-narrowed",
    verdict: "compatible",
    base: (d) => responseProp(d, "order_id", (s) => (s.type = ["string", "null"])),
    edit: (d) => (schemas(d).PaymentSession.properties.order_id.type = "string"),
  },
  {
    rule: "response-property-format-unset (type-changed)",
    verdict: "breaking",
    finding: "response-property-type-changed",
    edit: (d) => responseProp(d, "payment_link", (s) => delete s.format),
  },
  {
    rule: "response-property-multiple-of-unset",
    verdict: "breaking",
    base: (d) => responseProp(d, "amount", (s) => (s.multipleOf = 0.01)),
    edit: (d) => delete schemas(d).PaymentSession.properties.amount.multipleOf,
  },
  {
    rule: "response-property-multiple-of-changed",
    verdict: "breaking",
    base: (d) => responseProp(d, "amount", (s) => (s.multipleOf = 2)),
    edit: (d) => (schemas(d).PaymentSession.properties.amount.multipleOf = 0.5),
  },
  {
    rule: "response-property-multiple-of-specialized",
    verdict: "compatible",
    base: (d) => responseProp(d, "amount", (s) => (s.multipleOf = 0.5)),
    edit: (d) => (schemas(d).PaymentSession.properties.amount.multipleOf = 2),
  },
  {
    rule: "response-property-max-items-increased",
    verdict: "breaking",
    base: (d) => (problemErrors(d).maxItems = 50),
    edit: (d) => (problemErrors(d).maxItems = 100),
  },
  {
    rule: "response-property-min-items-decreased",
    verdict: "breaking",
    base: (d) => (problemErrors(d).minItems = 1),
    edit: (d) => (problemErrors(d).minItems = 0),
  },
  {
    rule: "response-property-unique-items-unset",
    verdict: "breaking",
    base: (d) => (schemas(d).CounterpartySchema.properties.required_fields.uniqueItems = true),
    edit: (d) => delete schemas(d).CounterpartySchema.properties.required_fields.uniqueItems,
  },
  {
    rule: "response-property-one-of-added",
    verdict: "breaking",
    base: (d) =>
      responseProp(
        d,
        "order_id",
        (s) =>
          (s.oneOf = [
            { title: "A", maxLength: 8 },
            { title: "B", pattern: "^B" },
          ]),
      ),
    edit: (d) => schemas(d).PaymentSession.properties.order_id.oneOf.push({ title: "C", pattern: "^C" }),
  },
  {
    rule: "response-property-one-of-removed",
    verdict: "compatible",
    base: (d) =>
      responseProp(
        d,
        "order_id",
        (s) =>
          (s.oneOf = [
            { title: "A", maxLength: 8 },
            { title: "B", pattern: "^B" },
          ]),
      ),
    edit: (d) => schemas(d).PaymentSession.properties.order_id.oneOf.shift(),
  },
  {
    rule: "response-property-any-of-added",
    verdict: "breaking",
    base: (d) => responseProp(d, "order_id", (s) => (s.anyOf = [{ maxLength: 8 }, { pattern: "^B" }])),
    edit: (d) => schemas(d).PaymentSession.properties.order_id.anyOf.push({ pattern: "^C", minLength: 3 }),
  },
  {
    rule: "response-property-any-of-removed",
    verdict: "compatible",
    base: (d) => responseProp(d, "order_id", (s) => (s.anyOf = [{ maxLength: 8 }, { pattern: "^B" }])),
    edit: (d) => schemas(d).PaymentSession.properties.order_id.anyOf.pop(),
  },
  {
    rule: "response-body-wrapped-in-one-of",
    verdict: "breaking",
    finding: "response-property-one-of-added",
    edit: (d) =>
      (getTransaction(d).responses["200"].content["application/json"].schema = {
        oneOf: [{ $ref: "#/components/schemas/Transaction" }, { $ref: "#/components/schemas/PaymentSession" }],
      }),
  },
  {
    rule: "response-property-all-of-added",
    verdict: "compatible",
    edit: (d) =>
      (getTransaction(d).responses["200"].content["application/json"].schema = {
        allOf: [{ $ref: "#/components/schemas/Transaction" }, { required: ["order_id"] }],
      }),
  },
  {
    rule: "response-property-all-of-removed",
    verdict: "breaking",
    finding: "response-property-became-optional",
    base: (d) =>
      (getTransaction(d).responses["200"].content["application/json"].schema = {
        allOf: [{ $ref: "#/components/schemas/Transaction" }, { required: ["order_id"] }],
      }),
    edit: (d) => (getTransaction(d).responses["200"].content["application/json"].schema = { $ref: "#/components/schemas/Transaction" }),
  },
  // Webhooks: the payload and its headers are read by the consumer, its answer is sent by it.
  {
    rule: "(webhook) payload field may be longer",
    verdict: "breaking",
    finding: "response-property-max-length-increased",
    edit: (d) => (schemas(d).SessionEventData.properties.order_id = { ...schemas(d).OrderId, maxLength: 256 }),
  },
  {
    rule: "(webhook) payload field removed",
    verdict: "breaking",
    finding: "response-optional-property-removed",
    edit: (d) => delete schemas(d).SessionEventData.properties.order_id,
  },
  {
    rule: "(webhook) status pinned to the event's own state",
    verdict: "compatible",
    base: (d) => (schemas(d).SessionCreatedEvent.allOf[1].properties.data = { $ref: "#/components/schemas/SessionEventData" }),
    edit: (d) =>
      (schemas(d).SessionCreatedEvent.allOf[1].properties.data = structuredClone(
        schemas(openapi).SessionCreatedEvent.allOf[1].properties.data,
      )),
  },
  {
    rule: "(webhook) pinned status changed",
    verdict: "breaking",
    finding: "response-property-const-changed",
    edit: (d) => (schemas(d).SessionCreatedEvent.allOf[1].properties.data.allOf[1].properties.status.const = "expired"),
  },
  {
    rule: "(webhook) header no longer sent",
    verdict: "breaking",
    finding: "required-response-header-removed",
    edit: (d) => (d.webhooks["session-created"].post.parameters = d.webhooks["session-created"].post.parameters.slice(1)),
  },
  {
    rule: "(webhook) header became optional",
    verdict: "breaking",
    finding: "response-header-became-optional",
    edit: (d) => (d.components.parameters.WebhookIdHeader.required = false),
  },
  {
    rule: "(webhook) new header sent",
    verdict: "compatible",
    edit: (d) =>
      d.webhooks["session-created"].post.parameters.push({
        name: "webhook-attempt",
        in: "header",
        required: true,
        schema: { type: "string" },
      }),
  },
  {
    rule: "(webhook) signature header may be longer",
    verdict: "breaking",
    finding: "response-header-max-length-increased",
    edit: (d) => (d.components.parameters.WebhookSignatureHeader.schema.maxLength = 4096),
  },
  // Security
  {
    rule: "api-security-added (an alternative)",
    verdict: "compatible",
    edit: (d) => {
      d.components.securitySchemes.ApiKey = { type: "apiKey", in: "header", name: "X-Key" };
      d.security = [{ BearerAuth: [] }, { ApiKey: [] }];
    },
  },
  {
    rule: "api-security-removed (an alternative)",
    verdict: "breaking",
    finding: "api-security-removed",
    base: (d) => {
      d.components.securitySchemes.ApiKey = { type: "apiKey", in: "header", name: "X-Key" };
      d.security = [{ BearerAuth: [] }, { ApiKey: [] }];
    },
    edit: (d) => (d.security = [{ BearerAuth: [] }]),
  },
  {
    rule: "api-global-security-added (a requirement on every call)",
    verdict: "breaking",
    finding: "api-security-requirement-added",
    edit: (d) => {
      d.components.securitySchemes.ApiKey = { type: "apiKey", in: "header", name: "X-Key" };
      d.security = [{ BearerAuth: [], ApiKey: [] }];
    },
  },
  {
    rule: "api-security-added (on an operation that had none)",
    verdict: "breaking",
    finding: "api-security-requirement-added",
    base: (d) => (getWebhook(d).security = []),
    edit: (d) => delete getWebhook(d).security,
  },
  { rule: "api-security-scope-added", verdict: "breaking", edit: (d) => (getWebhook(d).security = [{ BearerAuth: ["webhooks:read"] }]) },
  {
    rule: "api-security-scope-removed",
    verdict: "compatible",
    base: (d) => (getWebhook(d).security = [{ BearerAuth: ["webhooks:read"] }]),
    edit: (d) => (getWebhook(d).security = [{ BearerAuth: [] }]),
  },
  {
    rule: "api-components-security-type-updated",
    verdict: "breaking",
    edit: (d) => (d.components.securitySchemes.BearerAuth = { type: "apiKey", in: "header", name: "X-Key" }),
  },
];

const asyncapiCases: Case[] = [
  // A message or channel goes with the operations that send it (or the document would not resolve).
  {
    rule: "message-removed",
    verdict: "breaking",
    finding: ["message-removed", "operation-removed"],
    edit: (d) => {
      delete d.channels.merchantWebhook.messages.sessionExpired;
      delete d.operations.sendSessionExpired;
    },
  },
  {
    rule: "message-added",
    verdict: "compatible",
    edit: (d) => (d.channels.merchantWebhook.messages.sessionCancelled = d.channels.merchantWebhook.messages.sessionExpired),
  },
  {
    rule: "channel-removed",
    verdict: "breaking",
    finding: ["channel-removed", "operation-removed"],
    edit: (d) => ((d.channels = {}), (d.operations = {}), delete d.components.replies),
  },
  { rule: "channel-address-changed", verdict: "breaking", edit: (d) => (d.channels.merchantWebhook.address = "/v2/webhooks") },
  { rule: "operation-removed", verdict: "breaking", edit: (d) => delete d.operations.sendSessionCreated },
  { rule: "operation-action-changed", verdict: "breaking", edit: (d) => (d.operations.sendSessionCreated.action = "receive") },
  { rule: "operation-bindings-changed", verdict: "breaking", edit: (d) => (d.operations.sendSessionCreated.bindings.http.method = "PUT") },
  {
    rule: "message-content-type-changed",
    verdict: "breaking",
    edit: (d) => (d.channels.merchantWebhook.messages.sessionCreated.contentType = "text/plain"),
  },
  {
    rule: "message content type left to defaultContentType",
    verdict: "compatible",
    edit: (d) => (d.channels.merchantWebhook.messages.sessionCreated.contentType = d.defaultContentType),
  },
  {
    rule: "message-content-type-changed (defaultContentType)",
    verdict: "breaking",
    finding: "message-content-type-changed",
    edit: (d) => (d.defaultContentType = "text/plain"),
  },
  {
    rule: "(event) payload pattern changed",
    verdict: "breaking",
    finding: "response-property-pattern-changed",
    edit: (d) =>
      (schemaWith(d.channels.merchantWebhook.messages.transactionFailed.payload, "failure_reason").properties.failure_reason.pattern =
        "^[A-Z_]+$"),
  },
  {
    rule: "(event) new payload field",
    verdict: "compatible",
    edit: (d) => (d.channels.merchantWebhook.messages.sessionCreated.payload.allOf[1].properties.note = { type: "string" }),
  },
];

async function verdictOf(compare: (b: Doc, a: Doc) => Promise<{ rule: string }[]>, doc: Doc, c: Case) {
  const before = structuredClone(doc);
  c.base?.(before);
  const after = structuredClone(before);
  c.edit(after);
  return compare(before, after);
}

describe.each([
  ["OpenAPI", openapi, openapiCases, openapiBreakingChanges],
  ["AsyncAPI", asyncapi, asyncapiCases, asyncapiBreakingChanges],
] as const)("breaking changes in the %s document", (_, doc, cases, compare) => {
  it.each(cases.map((c) => [c.rule, c.verdict, c] as const))("%s: %s", async (__, verdict, c) => {
    const found = await verdictOf(compare, doc, c);
    if (verdict === "compatible") expect(found).toEqual([]);
    else {
      expect(found.length, "a breaking change is found").toBeGreaterThan(0);
      expect([...new Set(found.map((f) => f.rule))].sort()).toEqual([c.finding ?? c.rule].flat().sort());
    }
  });

  it("finds nothing between a document and itself", async () => {
    expect(await compare(doc, structuredClone(doc))).toEqual([]);
  });
});
