// The tools that need no service: the docs' search, the contract's schemas, and the check of a
// delivery as verifyWebhook makes it.
import { EVENT_TYPES } from "../../../generated/event-types.ts";
import { firstSentence } from "../../lib/docs-sections.ts";
import { resolveRef, type Json } from "../../lib/json.ts";
import { buildEvent } from "../../testing/index.ts";
import { verifyWebhook, WebhookVerificationError } from "../../webhooks/index.ts";
import { compacted, contractSchema, findOperation, openapi, operations, type FoundOperation } from "../contract.ts";
import { bestHits, type DocHitAnswer } from "../search.ts";
import { answer, echoed, failure, inputShape, OBJECT, shape, STRING, type Tool } from "../tool.ts";

const hits = (found: DocHitAnswer[]) => ({ hits: found });
/** The hits as text: each one's title, page and link, then its passage, as the structured content has them. */
const shownHits = (found: DocHitAnswer[]) =>
  found.map((hit, i) => `${i + 1}. ${hit.title} (${hit.page}), ${hit.link}\n${hit.passage}`).join("\n\n");

export const searchDocs: Tool = {
  name: "search_docs",
  description: "Search the guides, decisions and references before coding: the best sections and the passages that matched.",
  inputSchema: inputShape({ query: { type: "string", minLength: 1, maxLength: 200 } }),
  outputSchema: shape({ hits: { type: "array", items: shape({ title: STRING, page: STRING, link: STRING, passage: STRING }) } }),
  annotations: { readOnlyHint: true, openWorldHint: false },
  async run({ query }, { docs }) {
    // The line is part of the answer: its hits fit in the limit with it.
    const line = (found: DocHitAnswer[]) =>
      found.length ? `${found.length} sections; the first: ${found[0]!.title} (${found[0]!.page}).` : `No section mentions "${query}".`;
    const found = bestHits(docs, query, (some) => answer(line(some), hits(some), shownHits(some)));
    return answer(line(found), hits(found), shownHits(found));
  },
};

const eventSchemaName = (type: string) => `${type.replace(/(^|-)(\w)/g, (_, __, c: string) => c.toUpperCase())}Event`;

/** An operation as get_schema shows it: its request, an example body, and each answer (a 2xx with its schema). */
function operationAnswer({ method, path, operation }: FoundOperation): Json {
  const body = operation.requestBody?.content?.["application/json"];
  const example = resolveRef<Json>(openapi, Object.values<Json>(body?.examples ?? {})[0] ?? {}).value;
  const answers = Object.fromEntries(
    Object.entries<Json>(operation.responses).map(([status, response]) => {
      const resolved = resolveRef<Json>(openapi, response);
      const schema = status.startsWith("2") ? resolved.content?.["application/json"]?.schema : undefined;
      return [
        status,
        schema
          ? { description: firstSentence(resolved.description ?? ""), schema: compacted(schema) }
          : firstSentence(resolved.description ?? ""),
      ];
    }),
  );
  const parameters = (operation.parameters ?? []).map((p: Json) => {
    const { name, in: where, required, description, schema } = resolveRef<Json>(openapi, p);
    return { name, in: where, ...(required ? { required } : {}), description: firstSentence(description ?? ""), schema: compacted(schema) };
  });
  return {
    kind: "operation",
    name: operation.operationId,
    method: method.toUpperCase(),
    path,
    summary: operation.summary,
    ...(parameters.length ? { parameters } : {}),
    ...(body ? { request: compacted(body.schema) } : {}),
    ...(example ? { example } : {}),
    answers,
  };
}

export const getSchema: Tool = {
  name: "get_schema",
  description:
    "An operation's (createPaymentSession, or its path) or event type's (transaction-settled) request, answers or " +
    "payload as JSON Schema, with an example.",
  inputSchema: inputShape({ name: { type: "string", minLength: 1 } }),
  outputSchema: shape({ kind: { enum: ["operation", "event"] }, name: STRING }),
  annotations: { readOnlyHint: true, openWorldHint: false },
  async run({ name }) {
    if ((EVENT_TYPES as readonly string[]).includes(name)) {
      const type = name as (typeof EVENT_TYPES)[number];
      return answer(`The ${type} event: its payload's schema and an example.`, {
        kind: "event",
        name: type,
        payload: contractSchema(eventSchemaName(type)),
        example: buildEvent(type),
      });
    }
    const found = findOperation(name);
    if (!found)
      return failure(
        `No operation or event type is named "${echoed(name)}". ` +
          `Operations: ${operations.map((o) => o.operation.operationId).join(", ")}. Event types: ${EVENT_TYPES.join(", ")}.`,
      );
    const described = operationAnswer(found);
    return answer(`${described.method} ${described.path} (${described.name}): ${described.summary}.`, described);
  },
};

export const verifyWebhookTool: Tool = {
  name: "verify_webhook",
  description: "Check a delivery (raw body, headers, whsec_ secret) as verifyWebhook does: the event, or why it is refused.",
  inputSchema: inputShape({ body: STRING, headers: { type: "object", additionalProperties: STRING }, secret: STRING }),
  outputSchema: shape({ event: OBJECT }),
  annotations: { readOnlyHint: true, openWorldHint: false },
  async run({ body, headers, secret }) {
    try {
      const event = await verifyWebhook(body, headers, secret);
      return answer(`Verified: a ${event.type} event, ${event.id}.`, { event });
    } catch (error) {
      // The reason may quote the delivery (its type, a header): said back short.
      if (error instanceof WebhookVerificationError) return failure(`Refused (${error.code}): ${echoed(error.message, 300)}`);
      throw error;
    }
  },
};
