// @ts-nocheck
// The webhook events as the bundled OpenAPI document declares them: one `webhooks` entry per
// event, whose request body schema is that event's schema file.
import type { Json } from "../../src/lib/json.ts";

export interface EventEntry {
  /** The event name, as the source spells it: `session-created`. */
  type: string;
  /** The component schema of the event: `SessionCreatedEvent`. */
  schemaName: string;
}

export function eventEntries(openapiBundle: Json): EventEntry[] {
  return Object.entries<Json>(openapiBundle.webhooks).map(([type, item]) => {
    const ref: string = item.post.requestBody.content["application/json"].schema.$ref;
    return { type, schemaName: ref.replace("#/components/schemas/", "") };
  });
}
