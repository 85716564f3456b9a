// The copy of a bundle that the reference renderers read. generated/ stays as published;
// only this copy gains what a reader of the site needs: links to the decisions, the state
// diagrams instead of mermaid source (neither renderer draws mermaid), and a way back to the
// rest of the site.
import { linkDecisions, type DecisionUse } from "./decision-links.ts";
import type { Json } from "../../src/lib/json.ts";
import { walkObjects } from "../lib/walk.ts";
import { replaceMermaid, type Diagram } from "./diagrams.ts";

const siteLinks =
  "**Payin docs:** [Overview](index.html) · [API reference](openapi.html) · [Events reference](asyncapi.html) · " +
  "[Decision register](decisions.html) · [Sandbox control API](sandbox.html)";

export function docCopy(bundle: Json, document: DecisionUse["document"], decisions: ReadonlySet<string>) {
  const doc: Json = structuredClone(bundle);
  const uses = linkDecisions(doc, document, decisions);
  // Every diagram drawn here is written as diagrams/<name>.svg; two blocks of one name must agree.
  const diagrams = new Map<string, Diagram>();
  walkObjects(doc, (element) => {
    if (typeof element.description !== "string") return;
    element.description = replaceMermaid(element.description, (diagram) => {
      if (diagrams.has(diagram.name) && diagrams.get(diagram.name)!.svg !== diagram.svg)
        throw new Error(`${document}: two mermaid blocks draw ${diagram.name} differently`);
      diagrams.set(diagram.name, diagram);
      return `![${diagram.title}](diagrams/${diagram.name}.svg)`;
    });
  });
  doc.info.description = `${siteLinks}\n\n${doc.info.description ?? ""}`;
  if (document === "AsyncAPI") keyMessagesByName(doc);
  return { doc, uses, diagrams: [...diagrams.values()] };
}

/**
 * The AsyncAPI template's sidebar links a message as `#message-<its name>`, and its section is
 * `id="message-<its key>"` (@asyncapi/react-component), so a sidebar link to a message whose
 * key is not its name (`sessionCreated`, named `session-created`) leads nowhere. In the copy,
 * messages are keyed by their names, and the references to them follow.
 */
function keyMessagesByName(doc: Json): void {
  const moved = new Map<string, string>();
  const rekey = (messages: Json | undefined, pointer: string) => {
    if (!messages) return messages;
    const byName: Json = {};
    for (const [key, message] of Object.entries<Json>(messages)) {
      const name = typeof message?.name === "string" && /^[\w.-]+$/.test(message.name) ? message.name : key;
      if (name in byName) throw new Error(`AsyncAPI ${pointer}: two messages are named ${name}`);
      byName[name] = message;
      if (name !== key) moved.set(`${pointer}/${key}`, `${pointer}/${name}`);
    }
    return byName;
  };
  if (doc.components?.messages) doc.components.messages = rekey(doc.components.messages, "#/components/messages");
  for (const [id, channel] of Object.entries<Json>(doc.channels ?? {}))
    if (channel?.messages) channel.messages = rekey(channel.messages, `#/channels/${id.replace(/~/g, "~0").replace(/\//g, "~1")}/messages`);
  walkObjects(doc, (element) => {
    const ref = element.$ref;
    if (typeof ref !== "string") return;
    for (const [from, to] of moved) if (ref === from || ref.startsWith(`${from}/`)) element.$ref = to + ref.slice(from.length);
  });
}
