// payin-mcp without a service, through the SDK's client over stdio: its definitions fit an
// agent's context, search_docs answers from the site's own index in at most 2 KB with the
// right guide section first, get_schema answers small, every answer's text says what its
// structured content says (a client may hand the model the text alone), no input said back
// makes an answer large, and the tools that act say what they need.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { EVENT_TYPES } from "../../generated/event-types.ts";
import { buildEvent, signedDelivery } from "../../src/testing/index.ts";
import { newSigningSecret } from "../../src/lib/ids.ts";
import { startReceiver } from "../support/receiver.ts";
import { sourceAgent, type Agent } from "./client.ts";

let agent: Agent;
beforeAll(async () => {
  agent = await sourceAgent();
});
afterAll(() => agent?.close());

/** Every `description` in a JSON value. */
const descriptions = (value: unknown): string[] =>
  Array.isArray(value)
    ? value.flatMap(descriptions)
    : typeof value === "object" && value !== null
      ? Object.entries(value).flatMap(([key, v]) => (key === "description" && typeof v === "string" ? [v] : descriptions(v)))
      : [];

describe("payin-mcp's definitions", () => {
  it("list eleven tools, each with its input and output schema, in at most 6 KB, no description said twice", () => {
    const { tools } = agent.listed;
    expect(tools.map((t) => t.name)).toEqual([
      "search_docs",
      "get_schema",
      "create_checkout",
      "simulate_payment",
      "get_transaction",
      "register_webhook",
      "advance_clock",
      "list_deliveries",
      "resend_event",
      "verify_webhook",
      "check_webhook_endpoint",
    ]);
    for (const tool of tools) {
      expect([tool.name, tool.inputSchema.type, tool.outputSchema?.type]).toEqual([tool.name, "object", "object"]);
      expect(tool.description!.length, tool.name).toBeGreaterThan(60);
    }
    expect(tools.filter((t) => t.annotations?.readOnlyHint).map((t) => t.name)).toEqual([
      "search_docs",
      "get_schema",
      "get_transaction",
      "list_deliveries",
      "verify_webhook",
    ]);
    expect(Buffer.byteLength(JSON.stringify(agent.listed))).toBeLessThanOrEqual(6 * 1024);
    const said = descriptions(tools);
    expect(said.filter((d, i) => said.indexOf(d) !== i)).toEqual([]);
  });
});

describe("search_docs", () => {
  it.each([
    ["register a webhook url", "2. Where events go", "scripts/docs/guides/quickstart.md#2-where-events-go", /url/i],
    [
      "idempotency",
      "3. The customer and the session",
      "scripts/docs/guides/quickstart.md#3-the-customer-and-the-session",
      /Idempotency-Key/,
    ],
    // The handler that verifies, before the guide to verifying in other languages and the checks of an endpoint.
    ["how do I verify a webhook", "4. The events", "scripts/docs/guides/quickstart.md#4-the-events", /verif/i],
  ])("%s: the guide's section first, each hit with its passage, as text too, in at most 2 KB", async (query, title, link, passage) => {
    const found = await agent.call("search_docs", { query });
    expect(found.structured.hits[0]).toEqual({ title, page: "Quickstart", link, passage: expect.stringMatching(passage) });
    expect(found.structured.hits.length).toBeGreaterThan(2);
    expect(found.bytes).toBeLessThanOrEqual(2048);
    // Whole sentences or whole lines (a shell line goes on with a backslash): none ends mid-word.
    for (const hit of found.structured.hits) expect(hit.passage, hit.title).toMatch(/([.!?:;)`"}\]\\]|\w)$/);
    const [line, ...rest] = found.text.split("\n");
    expect(line).toBe(`${found.structured.hits.length} sections; the first: ${title} (Quickstart).`);
    // Every hit, each field of it, in the text as in the structured content.
    const shown = rest.join("\n");
    for (const hit of found.structured.hits)
      for (const field of [hit.title, hit.page, hit.link, hit.passage]) expect(shown, hit.title).toContain(field);
  });

  it("says when nothing matches", async () => {
    const found = await agent.call("search_docs", { query: "zzyzx" });
    expect([found.structured.hits, found.text]).toEqual([[], 'No section mentions "zzyzx".\n']);
  });
});

describe("get_schema", () => {
  it("answers an operation's parameters, request, example and answers, and an event's payload and example, each under 5 KB", async () => {
    const operation = await agent.call("get_schema", { name: "createPaymentSession" });
    expect(operation.structured).toMatchObject({
      kind: "operation",
      method: "POST",
      path: "/api/v1/earn/payment-sessions/",
      parameters: [expect.objectContaining({ name: "Idempotency-Key", in: "header" })],
      request: { required: expect.arrayContaining(["amount", "redirect_url"]) },
      example: expect.objectContaining({ amount: expect.any(Number) }),
      answers: {
        "201": { schema: expect.objectContaining({ required: expect.arrayContaining(["payment_link"]) }) },
        "409": expect.any(String),
      },
    });
    const event = await agent.call("get_schema", { name: "transaction-settled" });
    expect(event.structured).toMatchObject({ kind: "event", name: "transaction-settled", example: { type: "transaction-settled" } });
    expect(JSON.stringify(event.structured.payload)).toContain('"transaction_id"');
    // Each of its two forms, the structured content and the text that says it again, under 5 KB: a client hands the model one.
    for (const { text, structured } of [operation, event]) {
      expect(Buffer.byteLength(JSON.stringify(structured))).toBeLessThan(5 * 1024);
      expect(Buffer.byteLength(text)).toBeLessThan(5 * 1024);
    }
  });

  it("lists every operation and event type for a name it does not know", async () => {
    const unknown = await agent.call("get_schema", { name: "createRefund" });
    expect(unknown.error).toBe(true);
    for (const name of ["createCounterparty", "registerWebhook", ...EVENT_TYPES]) expect(unknown.text).toContain(name);
  });

  it("says in its text what its structured content says: the schema, as JSON", async () => {
    for (const name of ["createPaymentSession", "transaction-settled"]) {
      const { text, structured } = await agent.call("get_schema", { name });
      const [, json] = text.split("\n");
      expect(JSON.parse(json!), name).toEqual(structured);
    }
  });
});

describe("what a tool says back of its input", () => {
  it("is short, however long the input: a 500 KB name, field, tool or resource name is answered in under 2 KB", async () => {
    const long = "a".repeat(500_000);
    const answers = [
      await agent.call("get_schema", { name: long }),
      await agent.call("search_docs", { query: long }),
      await agent.call("get_schema", { name: "createRefund", [long]: 1 }),
      await agent.call(long),
    ];
    for (const answered of answers) {
      expect(answered.error).toBe(true);
      expect(answered.bytes).toBeLessThan(2048);
    }
    await expect(agent.client.readResource({ uri: `payin://docs/${long}` })).rejects.toThrow(/^.{0,300}$/s);
  });
});

describe("payin-mcp without a service", () => {
  it("verifies a delivery, refuses it with one byte changed, and the tools that act say what they need", async () => {
    const secret = newSigningSecret();
    const { headers, body } = await signedDelivery(buildEvent("session-created"), secret);
    const ok = await agent.call("verify_webhook", { body, headers, secret });
    expect([ok.error, ok.structured.event.type]).toEqual([false, "session-created"]);
    const refused = await agent.call("verify_webhook", { body: body.replace('"session-created"', '"session-createD"'), headers, secret });
    expect([refused.error, refused.text]).toEqual([true, expect.stringMatching(/^Refused \(invalid_signature\)/)]);
    // A header of the wrong type: said once, in the schema's words.
    const typed = await agent.call("verify_webhook", { body, headers: { ...headers, "webhook-id": 5 }, secret });
    expect([typed.error, typed.text]).toEqual([true, expect.stringContaining("- `headers.webhook-id` must be a string, not 5")]);
    const needs = await agent.call("advance_clock", { seconds: 1 });
    expect([needs.error, needs.text]).toEqual([true, expect.stringContaining("start payin-mcp with --base-url and --token")]);
  });

  it("says, on a service that is not a sandbox, that the sandbox tools need one", async () => {
    const service = await startReceiver();
    service.answer = () => 404;
    const elsewhere = await sourceAgent(["--base-url", new URL(service.url).origin, "--token", "t"]);
    try {
      const result = await elsewhere.call("list_deliveries");
      expect([result.error, result.text]).toEqual([true, expect.stringMatching(/^list_deliveries works on a payin-sandbox only/)]);
    } finally {
      await elsewhere.close();
      await service.close();
    }
  });

  it("offers the documents and the guides as resources", async () => {
    const { resources } = await agent.client.listResources();
    expect(resources.map((r) => r.uri)).toContain("payin://contract/openapi.json");
    const guide = await agent.client.readResource({ uri: "payin://docs/quickstart.md" });
    expect((guide.contents[0] as { text: string }).text).toMatch(/^# Quickstart/);
  });
});
