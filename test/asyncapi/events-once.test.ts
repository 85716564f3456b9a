// Each event is written once where AsyncAPI 3 allows it; the copies that remain (the one-line
// summary, in the OpenAPI webhook and the AsyncAPI message) are held equal here.
import { readFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import YAML from "yaml";
import { root } from "../../scripts/lib/paths.ts";
import { resolveRef, type Json } from "../../src/lib/json.ts";
import { EVENT_TYPES } from "../../src/webhooks/index.ts";
import { openapiBundle } from "../support/documents.ts";

const source: Json = YAML.parse(readFileSync(path.join(root, "asyncapi", "asyncapi.yaml"), "utf8"));
const messageFile = (type: string): Json => YAML.parse(readFileSync(path.join(root, "asyncapi", "messages", `${type}.yaml`), "utf8"));
const sendOperations = Object.entries<Json>(source.operations).filter(([, op]) => op.action === "send");

describe("the events, written once", () => {
  it.each(EVENT_TYPES)("%s: the OpenAPI webhook's description opens with the AsyncAPI message's summary", (type) => {
    const summary: string = messageFile(type).summary;
    expect(summary).toMatch(/^[A-Z].*\.$/);
    expect(openapiBundle.webhooks[type].post.description).toMatch(new RegExp(`^${summary.replace(/[.*+?^${}()|[\]\\]/g, "\\$&")}(\\s|$)`));
  });

  it("the operations leave the summary to their message, and share one reply and one binding", () => {
    expect(sendOperations).toHaveLength(EVENT_TYPES.length);
    for (const [name, op] of sendOperations) {
      expect(op.summary, name).toBeUndefined();
      expect(op.bindings, name).toEqual({ $ref: "#/components/operationBindings/httpPost" });
      expect(op.reply, name).toEqual({ $ref: "#/components/replies/acknowledgement" });
    }
    expect(resolveRef(source, { $ref: "#/components/operationBindings/httpPost" })).toMatchObject({ http: { method: "POST" } });
    expect(resolveRef<Json>(source, { $ref: "#/components/replies/acknowledgement" }).messages).toEqual([
      { $ref: "#/channels/merchantWebhook/messages/acknowledgement" },
    ]);
  });

  it.each(EVENT_TYPES)("%s: the message takes its content type from defaultContentType", (type) => {
    expect(source.defaultContentType).toBe("application/json");
    expect(messageFile(type)).not.toHaveProperty("contentType");
  });
});
