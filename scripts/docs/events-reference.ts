// The events reference: the AsyncAPI document as one Markdown page, in the site's layout like
// the guides: the delivery rules and states, then each event with its payload as a table of
// fields and its example. The same Markdown is the page's twin in llms.txt.
import type { Json } from "../../src/lib/json.ts";
import { fieldsTable } from "./schema-table.ts";

/** The heading of the headers every delivery has, which the site's search links to. */
export const HEADERS_HEADING = "Headers of every delivery";

/** The events the service sends, in the order of the document's operations. */
function sentMessages(asyncapi: Json): Json[] {
  const channel = Object.values<Json>(asyncapi.channels)[0]!;
  const byRef = (ref: string) => channel.messages[ref.split("/").at(-1)!];
  return Object.values<Json>(asyncapi.operations)
    .filter((operation) => operation.action === "send")
    .flatMap((operation) => (operation.messages as Json[]).map((message) => byRef(message.$ref)));
}

/** The Markdown of the events reference, from the site's copy of the AsyncAPI bundle. */
export function eventsMarkdown(asyncapi: Json): string {
  const messages = sentMessages(asyncapi);
  const headers = messages[0]!.headers as Json;
  // Every event is the same envelope around its own type and data: the envelope is shown once.
  const envelope = messages[0]!.payload.allOf[0] as Json;
  const shared = new Set(Object.keys(envelope.properties).filter((name) => name !== "type" && name !== "data"));
  const events = messages.map((message) => {
    const example = message.examples?.[0];
    return [
      `## ${message.name}`,
      `**${message.summary}** ${message.payload.description ?? ""}`,
      "### Payload",
      fieldsTable(message.payload, shared),
      ...(example ? ["### Example", "```json", JSON.stringify(example.payload, null, 2), "```"] : []),
    ].join("\n\n");
  });
  return [
    `# Events reference`,
    asyncapi.info.description.trim(),
    `## ${HEADERS_HEADING}`,
    headers.description,
    fieldsTable(headers),
    "## The envelope of every event",
    envelope.description,
    fieldsTable(envelope),
    ...events,
    "",
  ].join("\n\n");
}
