// payin-mcp's eight tools: what a coding agent needs to integrate payins correctly, each with a
// description it can act on, an input schema from the contract's own schemas, and MCP's hints.
// A tool's failure (the service's problem, a tool that needs a sandbox) is the tool's answer,
// marked as an error, never a failure of the protocol.
import { createPayinClient } from "../client.ts";
import { createSandboxClient } from "../sandbox-client.ts";
import { buildEvent } from "../testing/index.ts";
import { verifyWebhook, WebhookVerificationError } from "../webhooks/index.ts";
import { EVENT_TYPES } from "../../generated/event-types.ts";
import { componentSchema, findOperation, inlined, openapi, searchDocs } from "./contract.ts";

type Json = Record<string, any>;

/** Where the tools that act go: the service, or a sandbox of it. */
export interface Target {
  baseUrl?: string;
  token?: string;
}

export interface ToolAnswer {
  content: Array<{ type: "text"; text: string }>;
  isError?: boolean;
  [key: string]: unknown;
}

export interface Tool {
  name: string;
  description: string;
  inputSchema: Json;
  annotations: { title: string; readOnlyHint: boolean; destructiveHint?: boolean; idempotentHint?: boolean; openWorldHint: boolean };
  run(input: Json, target: Target): Promise<ToolAnswer>;
}

const text = (value: string): ToolAnswer => ({ content: [{ type: "text", text: value }] });
const failure = (value: string): ToolAnswer => ({ content: [{ type: "text", text: value }], isError: true });
const json = (value: unknown) => JSON.stringify(value, null, 2);

/** The service's problem as the tool's error: its status, code, detail and fields. */
function problemAnswer(what: string, status: number, problem: Json | undefined): ToolAnswer {
  const fields = (problem?.errors ?? []).map((e: Json) => `\n- ${e.field}: ${e.message}`).join("");
  return failure(`${what} answered ${status} ${problem?.code ?? ""}: ${problem?.detail ?? "no problem document"}${fields}`);
}

function clients(target: Target) {
  if (!target.baseUrl || !target.token) return undefined;
  return {
    payin: createPayinClient({ baseUrl: target.baseUrl, token: target.token }),
    sandbox: createSandboxClient({ baseUrl: target.baseUrl, token: target.token }),
  };
}

const NEEDS_SERVICE = "This tool acts on a service: start payin-mcp with --base-url and --token (or PAYIN_BASE_URL and PAYIN_TOKEN).";
/** A control API that answers 404 at every path is not a sandbox's. */
const notSandbox = (target: Target, tool: string) =>
  failure(`${tool} works on a payin-sandbox only: ${target.baseUrl} has no sandbox control API (/_sandbox/v1/ answered 404).`);

const string = (description: string) => ({ type: "string", description });

export const TOOLS: readonly Tool[] = [
  {
    name: "search_docs",
    description:
      "Search the package's guides, its decision register and both references (operations, webhook events). " +
      "Returns the best sections' text, each with its file and anchor. Use it before writing integration code.",
    inputSchema: {
      type: "object",
      properties: { query: string("Words to look for, such as 'idempotency' or 'retry schedule'.") },
      required: ["query"],
    },
    annotations: { title: "Search the docs", readOnlyHint: true, openWorldHint: false },
    async run({ query }) {
      const found = searchDocs(String(query));
      if (!found.length) return text(`No section of the docs mentions every word of "${query}".`);
      return text(found.map((s) => `## ${s.title}\n(${s.link})\n\n${s.text.slice(0, 1500)}`).join("\n\n"));
    },
  },
  {
    name: "get_schema",
    description:
      "The contract for one operation (by operationId such as createPaymentSession, or its path) or one webhook event " +
      "type (such as transaction-settled): its request, its answers or its payload, as JSON Schema, with an example.",
    inputSchema: {
      type: "object",
      properties: { name: string(`An operationId, a path, or an event type: ${EVENT_TYPES.join(", ")}.`) },
      required: ["name"],
    },
    annotations: { title: "Read the contract", readOnlyHint: true, openWorldHint: false },
    async run({ name }) {
      const type = String(name);
      if ((EVENT_TYPES as readonly string[]).includes(type)) {
        const schemaName = `${type.replace(/(^|-)(\w)/g, (_, __, c: string) => c.toUpperCase())}Event`;
        const example = buildEvent(type as (typeof EVENT_TYPES)[number]);
        return text(`The ${type} event, as delivered (payload):\n${json(componentSchema(schemaName))}\n\nExample:\n${json(example)}`);
      }
      const found = findOperation(type);
      if (!found) return failure(`No operation or event type is named "${type}". Event types: ${EVENT_TYPES.join(", ")}.`);
      const { method, path, operation } = found;
      const body = operation.requestBody?.content?.["application/json"];
      const answers = Object.fromEntries(
        Object.entries<Json>(operation.responses).map(([status, response]) => {
          const answer = inlined(response);
          const content = answer.content?.["application/json"] ?? answer.content?.["application/problem+json"];
          return [
            status,
            { description: answer.description, ...(content?.schema && status.startsWith("2") ? { schema: content.schema } : {}) },
          ];
        }),
      );
      return text(
        [
          `${method.toUpperCase()} ${path} (${operation.operationId}): ${operation.summary}`,
          operation.description ?? "",
          body ? `Request body:\n${json(inlined(body.schema))}` : "No request body.",
          body?.examples ? `Example body:\n${json(Object.values<Json>(inlined(body.examples))[0]?.value)}` : "",
          `Answers:\n${json(answers)}`,
        ]
          .filter(Boolean)
          .join("\n\n"),
      );
    },
  },
  {
    name: "create_checkout",
    description:
      "Start a payin: the customer as a PAYIN counterparty (the existing one, if its email and phone number are known) and a " +
      "payment session for it. Returns the session, with the payment_link to send the customer to. Safe to retry: each create " +
      "carries an Idempotency-Key.",
    inputSchema: checkoutSchema(),
    annotations: { title: "Create a checkout", readOnlyHint: false, destructiveHint: false, idempotentHint: false, openWorldHint: true },
    async run(input, target) {
      const api = clients(target);
      if (!api) return failure(NEEDS_SERVICE);
      const { first_name, last_name, email, phone_number, date_of_birth, address, ...session } = input;
      const person = { type: "INDIVIDUAL", payment_rail: "PAYIN", first_name, last_name, email, phone_number, date_of_birth, address };
      const created = await api.payin.POST("/api/v1/send/counterparties/", { body: JSON.parse(JSON.stringify(person)) });
      const existing = created.error?.code === "counterparty_exists" ? (created.error as Json).existing_id : undefined;
      if (created.error && !existing) return problemAnswer("Create counterparty", created.response.status, created.error);
      const counterpartyId: string = existing ?? created.data!.id;
      const made = await api.payin.POST("/api/v1/earn/payment-sessions/", { body: { ...session, counterparty_id: counterpartyId } as any });
      if (made.error) return problemAnswer("Create payment session", made.response.status, made.error);
      return text(
        `Session ${made.data!.id} for counterparty ${counterpartyId} (${existing ? "existing" : "new"}); send the customer to ` +
          `${made.data!.payment_link}\n\n${json(made.data)}`,
      );
    },
  },
  {
    name: "simulate_payment",
    description:
      "On a sandbox: act as the customer on a session's payment page, to pay it or fail it (with a failure_reason), or let " +
      "it expire (the account's clock moves past expires_at). The sandbox then delivers the events, as the service would.",
    inputSchema: {
      type: "object",
      properties: {
        session_id: inlined(openapi.components.schemas.SessionId),
        outcome: { type: "string", enum: ["pay", "fail", "expire"] },
        failure_reason: inlined(openapi.components.schemas.FailureReason),
      },
      required: ["session_id", "outcome"],
    },
    annotations: {
      title: "Pay, fail or expire a session",
      readOnlyHint: false,
      destructiveHint: true,
      idempotentHint: false,
      openWorldHint: true,
    },
    async run({ session_id, outcome, failure_reason }, target) {
      const api = clients(target);
      if (!api) return failure(NEEDS_SERVICE);
      const params = { path: { session_id: String(session_id) } };
      const answer =
        outcome === "expire"
          ? await api.sandbox.POST("/_sandbox/v1/clock/advance", { body: { seconds: 3601 } })
          : await api.sandbox.POST("/_sandbox/v1/payment-sessions/{session_id}/simulate", {
              params,
              body: outcome === "fail" ? { outcome: "fail", failure_reason: failure_reason ?? "card_declined" } : { outcome: "pay" },
            });
      if (answer.response.status === 404 && !(answer.error as Json)?.code) return notSandbox(target, "simulate_payment");
      if (answer.error) return problemAnswer(`simulate_payment ${outcome}`, answer.response.status, answer.error);
      if (outcome === "expire") {
        const session = await api.sandbox.GET("/_sandbox/v1/payment-sessions/{session_id}", { params });
        if (session.error) return problemAnswer("Read the session", session.response.status, session.error);
        return text(`Session ${session_id} is ${session.data!.status}; the clock moved an hour on.\n\n${json(session.data)}`);
      }
      const data = answer.data as Json;
      const { session, transaction } = data;
      return text(`Session ${session_id} is ${session?.status}, transaction ${transaction?.id} ${transaction?.status}.\n\n${json(data)}`);
    },
  },
  {
    name: "get_transaction",
    description:
      "A transaction as the service has it now (its status is the truth; an event only says it changed). " +
      "By its id, txn_…, as events carry it.",
    inputSchema: {
      type: "object",
      properties: { transaction_id: inlined(openapi.components.schemas.TransactionId) },
      required: ["transaction_id"],
    },
    annotations: { title: "Read a transaction", readOnlyHint: true, openWorldHint: true },
    async run({ transaction_id }, target) {
      const api = clients(target);
      if (!api) return failure(NEEDS_SERVICE);
      const { data, error, response } = await api.payin.GET("/api/v1/earn/transactions/{transaction_id}/", {
        params: { path: { transaction_id: String(transaction_id) } },
      });
      if (error) return problemAnswer("Get transaction", response.status, error);
      return text(`Transaction ${data!.id} is ${data!.status}.\n\n${json(data)}`);
    },
  },
  {
    name: "list_deliveries",
    description:
      "On a sandbox: the webhook delivery log, newest first, for one session or the whole account: each attempt's event id " +
      "and type, URL, status, the endpoint's answer or error, and when the next retry is due.",
    inputSchema: { type: "object", properties: { session_id: inlined(openapi.components.schemas.SessionId) } },
    annotations: { title: "Read the delivery log", readOnlyHint: true, openWorldHint: true },
    async run({ session_id }, target) {
      const api = clients(target);
      if (!api) return failure(NEEDS_SERVICE);
      const answer = await api.sandbox.GET("/_sandbox/v1/deliveries", {
        params: { query: session_id ? { session_id: String(session_id) } : {} },
      });
      if (answer.response.status === 404) return notSandbox(target, "list_deliveries");
      if (answer.error) return problemAnswer("List deliveries", answer.response.status, answer.error);
      const lines = answer.data!.data.map(
        (d: Json) => `${d.event_type} ${d.event_id} attempt ${d.attempt}: ${d.status} (${d.response_status ?? d.error ?? "no answer"})`,
      );
      return text(`${lines.length} attempts:\n${lines.join("\n")}\n\n${json(answer.data)}`);
    },
  },
  {
    name: "resend_event",
    description:
      "On a sandbox: deliver an event again now, with its webhook-id (msg_…), as a redelivery: a correct endpoint processes it once.",
    inputSchema: { type: "object", properties: { event_id: inlined(openapi.components.schemas.EventId) }, required: ["event_id"] },
    annotations: {
      title: "Deliver an event again",
      readOnlyHint: false,
      destructiveHint: false,
      idempotentHint: false,
      openWorldHint: true,
    },
    async run({ event_id }, target) {
      const api = clients(target);
      if (!api) return failure(NEEDS_SERVICE);
      const answer = await api.sandbox.POST("/_sandbox/v1/deliveries/{event_id}/redeliver", {
        params: { path: { event_id: String(event_id) } },
      });
      if (answer.response.status === 404 && !(answer.error as Json)?.code) return notSandbox(target, "resend_event");
      if (answer.error) return problemAnswer("Resend event", answer.response.status, answer.error);
      return text(`Event ${event_id} delivered again.\n\n${json(answer.data)}`);
    },
  },
  {
    name: "verify_webhook",
    description:
      "Check a webhook delivery as verifyWebhook does: the Standard Webhooks signature and timestamp with the secret " +
      "(whsec_…), then the event against its schema. Returns the typed event, or exactly why it is refused.",
    inputSchema: {
      type: "object",
      properties: {
        body: string("The raw body, exactly as received."),
        headers: {
          type: "object",
          additionalProperties: { type: "string" },
          description: "webhook-id, webhook-timestamp, webhook-signature.",
        },
        secret: string("The signing secret, whsec_… as POST /webhooks returns it."),
      },
      required: ["body", "headers", "secret"],
    },
    annotations: { title: "Verify a webhook", readOnlyHint: true, openWorldHint: false },
    async run({ body, headers, secret }) {
      try {
        const event = await verifyWebhook(String(body), headers as Record<string, string>, String(secret));
        return text(`Verified: a ${event.type} event, ${event.id}.\n\n${json(event)}`);
      } catch (error) {
        if (error instanceof WebhookVerificationError) return failure(`Refused (${error.code}): ${error.message}`);
        throw error;
      }
    },
  },
];

/** create_checkout's input: the counterparty's fields (a PAYIN individual's) and the session's, side by side. */
function checkoutSchema(): Json {
  const person = componentSchema("CounterpartyCreate");
  const session = componentSchema("PaymentSessionCreate");
  const { type: _, payment_rail: __, ...personFields } = person.properties;
  const { counterparty_id: ___, ...sessionFields } = session.properties;
  return {
    type: "object",
    properties: { ...personFields, ...sessionFields },
    required: [
      ...person.required.filter((f: string) => f !== "type" && f !== "payment_rail"),
      ...session.required.filter((f: string) => f !== "counterparty_id"),
    ],
  };
}
