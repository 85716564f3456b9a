// The JSON Schema of the webhook test vectors (generated/webhook-vectors.schema.json), so that a
// merchant's test harness in any language can check the file it reads before trusting it.
import { EVENT_TYPES } from "../../generated/event-types.ts";
import { EVENT_REASONS, HEADER_NAMES, SIGNATURE_REASONS } from "./webhook-vectors.ts";

const text = { type: "string", minLength: 1 } as const;

export const webhookVectorsSchema = {
  $schema: "https://json-schema.org/draft/2020-12/schema",
  title: "Webhook test vectors of the Payin Acceptance Service",
  description:
    "Deliveries signed as the service signs them (Standard Webhooks), each with the verdict a verifier must reach: " +
    "the signature's, then, once it holds, the event's.",
  type: "object",
  required: ["version", "description", "tolerance_seconds", "cases"],
  additionalProperties: false,
  properties: {
    $schema: { type: "string", description: "This schema, relative to the file." },
    version: { const: 1, description: "The format's version: a change that would break a reader of it gets a new one." },
    description: text,
    tolerance_seconds: {
      type: "integer",
      minimum: 0,
      description: "A timestamp is valid when it is at most this far from now, either way: |now - timestamp| <= tolerance_seconds.",
    },
    cases: { type: "array", minItems: 1, items: { $ref: "#/$defs/case" } },
  },
  $defs: {
    case: {
      type: "object",
      required: ["id", "description", "secrets", "headers", "body_base64", "now", "signature", "event"],
      additionalProperties: false,
      properties: {
        id: { type: "string", pattern: "^[a-z0-9]+(-[a-z0-9]+)*$", description: "Unique in the file, kebab-case." },
        description: text,
        secrets: {
          type: "array",
          minItems: 1,
          items: text,
          description:
            "The endpoint's secrets (whsec_ and base64, the prefix optional): the delivery is valid if any verifies any v1 entry.",
        },
        headers: {
          type: "object",
          description: "The request's headers: one absent here is absent from the request; one that is empty counts as missing.",
          additionalProperties: false,
          properties: Object.fromEntries(HEADER_NAMES.map((name) => [name, { type: "string" }])),
        },
        body_base64: {
          type: "string",
          pattern: "^(?:[A-Za-z0-9+/]{4})*(?:[A-Za-z0-9+/]{2}==|[A-Za-z0-9+/]{3}=)?$",
          description: "The body's exact bytes, in standard base64.",
        },
        now: { type: "integer", minimum: 0, description: "The verifier's current time, in Unix seconds." },
        signature: {
          description: "The signature's verdict: the reason is the first check that fails, in the order listed.",
          oneOf: [
            { type: "object", required: ["valid"], additionalProperties: false, properties: { valid: { const: true } } },
            {
              type: "object",
              required: ["valid", "reason"],
              additionalProperties: false,
              properties: { valid: { const: false }, reason: { enum: [...SIGNATURE_REASONS] } },
            },
          ],
        },
        event: {
          description: "The package's verdict on the body once the signature holds; null when it does not.",
          oneOf: [
            { type: "null" },
            {
              type: "object",
              required: ["valid", "type"],
              additionalProperties: false,
              properties: { valid: { const: true }, type: { enum: [...EVENT_TYPES] } },
            },
            {
              type: "object",
              required: ["valid", "reason"],
              additionalProperties: false,
              properties: { valid: { const: false }, reason: { enum: [...EVENT_REASONS] } },
            },
          ],
        },
      },
      // An event verdict only where the signature holds.
      if: { properties: { signature: { type: "object", properties: { valid: { const: false } } } } },
      then: { properties: { event: { type: "null" } } },
      else: { properties: { event: { type: "object" } } },
    },
  },
} as const;
