import { readFileSync } from "node:fs";
import path from "node:path";
import { Parser } from "@asyncapi/parser";
import { describe, expect, it } from "vitest";
import { generatedDir } from "../../scripts/lib/paths.ts";
import { openapiBundle } from "../support/documents.ts";
import { EVENT_TYPES } from "../../src/webhooks/index.ts";
import { verifyWebhook } from "../../src/webhooks/index.ts";
import { EXAMPLE_SECRET } from "../support/events.ts";

const source = readFileSync(path.join(generatedDir, "asyncapi.yaml"), "utf8");
const { document, diagnostics } = await new Parser().parse(source);
const channels = document!.channels().all();
const events = channels.flatMap((c) => c.messages().all()).filter((m) => m.name() !== "acknowledgement");

describe("the AsyncAPI document", () => {
  it("parses with the AsyncAPI parser without errors", () => {
    expect(document, JSON.stringify(diagnostics)).toBeDefined();
    expect(diagnostics.filter((d) => d.severity === 0)).toEqual([]);
  });

  it("lists exactly the seven events, named as the source names them, on the one webhook channel", () => {
    expect(channels).toHaveLength(1);
    expect(events.map((m) => m.name()).sort()).toEqual([...EVENT_TYPES].sort());
  });

  it("the OpenAPI webhooks list the same seven", () => {
    expect(Object.keys(openapiBundle.webhooks)).toEqual([...EVENT_TYPES]);
  });

  it.each(EVENT_TYPES)("%s has the signing headers, a payload and an example", (type) => {
    const message = events.find((m) => m.name() === type)!;
    expect(Object.keys(message.headers()!.properties() ?? {})).toEqual(["webhook-id", "webhook-timestamp", "webhook-signature"]);
    expect((message.payload()!.json() as { title: string }).title).toMatch(/Event$/);
    expect(message.examples().length).toBeGreaterThan(0);
  });

  it.each(EVENT_TYPES)("%s is sent by one POST operation that expects an acknowledgement", (type) => {
    const operations = document!
      .operations()
      .all()
      .filter((o) =>
        o
          .messages()
          .all()
          .some((m) => m.name() === type),
      );
    expect(operations).toHaveLength(1);
    const [operation] = operations;
    expect(operation!.action()).toBe("send");
    expect(operation!.bindings().get("http")?.value()).toMatchObject({ method: "POST" });
    expect(
      operation!
        .reply()
        ?.messages()
        .all()
        .map((m) => m.name()),
    ).toEqual(["acknowledgement"]);
  });

  it.each(EVENT_TYPES)("%s uses the same schema as the OpenAPI webhook", (type) => {
    const message = events.find((m) => m.name() === type)!;
    const ref: string = openapiBundle.webhooks[type].post.requestBody.content["application/json"].schema.$ref;
    expect((message.payload()!.json() as { title: string }).title).toBe(ref.split("/").pop());
  });

  it.each(EVENT_TYPES)("the %s example's signature headers verify against its payload with the documented secret", async (type) => {
    const [example] = events
      .find((m) => m.name() === type)!
      .examples()
      .all();
    const headers = example!.headers() as Record<string, string>;
    const now = Number(headers["webhook-timestamp"]);
    await expect(verifyWebhook(JSON.stringify(example!.payload()), headers, EXAMPLE_SECRET, { now })).resolves.toMatchObject({ type });
  });

  it("states the delivery rules and the state diagrams", () => {
    const description = document!.info().description()!;
    for (const rule of [
      /at least once/i,
      /2xx within 15 seconds/i,
      /exponential backoff/i,
      /no ordering guarantee/i,
      /dedupe on it/i,
      /fetch the transaction/i,
    ])
      expect(description).toMatch(rule);
    expect(description.match(/stateDiagram-v2/g)).toHaveLength(2);
  });
});
