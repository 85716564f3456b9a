// Links every element that carries `x-decision: D<n>` to its entry in the register. Both
// reference renderers show `description` as markdown but ignore extensions, so the link is
// appended to the description, in a copy of the bundle that only the docs read.
import type { Json } from "../../src/lib/json.ts";
import { walkObjects } from "../lib/walk.ts";

export const decisionAnchor = (id: string) => id.toLowerCase();
export const decisionHref = (id: string) => `decisions.html#${decisionAnchor(id)}`;

/** Where an element rests on a decision, for the register's "marked in" lists. */
export interface DecisionUse {
  document: "OpenAPI" | "AsyncAPI";
  /** What the element is, without the event it belongs to (for AsyncAPI messages). */
  label: string;
  /** The event, when the element is part of an AsyncAPI message. */
  event?: string;
}

const markdownLink = (ids: string[]) => `(decision ${ids.map((id) => `[${id}](${decisionHref(id)})`).join(", ")})`;

/**
 * Appends the decision link to each description of `doc`, in place, and returns where each
 * decision is used. An id that the register does not have is an error: a dead link would
 * otherwise be published.
 */
export function linkDecisions(doc: Json, document: DecisionUse["document"], known: ReadonlySet<string>): Map<string, DecisionUse[]> {
  const uses = new Map<string, DecisionUse[]>();
  const eventNames = messageNames(doc);
  // A YAML alias or a shared object is one element: the walk visits it, and links it, once.
  walkObjects(doc, (element, at) => {
    const marked = element["x-decision"];
    if (marked !== undefined) {
      const ids = String(marked).match(/D\d+/g) ?? [];
      if (!ids.length) throw new Error(`${document} /${at.join("/")}: x-decision ${JSON.stringify(marked)} names no decision`);
      for (const id of ids) {
        if (!known.has(id)) throw new Error(`${document} /${at.join("/")}: x-decision ${id} is not in the register`);
        const use = document === "OpenAPI" ? { document, label: openapiLabel(at) } : { document, ...asyncapiLabel(at, eventNames) };
        uses.set(id, [...(uses.get(id) ?? []), use]);
      }
      const description = typeof element.description === "string" ? element.description.trimEnd() : "";
      // A one-line description takes the link in its sentence; a longer one (lists, code
      // blocks) in a paragraph of its own, so that no block swallows it.
      const separator = !description ? "" : description.includes("\n") ? "\n\n" : " ";
      element.description = `${description}${separator}${markdownLink(ids)}`;
    }
  });
  return uses;
}

function openapiLabel(at: string[]): string {
  const [section, a, b, c, d] = at;
  if (section === "info") return "API description";
  if (section === "paths" && a && b) {
    const operation = `${b.toUpperCase()} ${a}`;
    return c === "responses" && d ? `${operation} → ${d}` : operation;
  }
  if (section === "webhooks" && a) return `webhook ${a}`;
  if (section === "components" && a && b) {
    const kind =
      { schemas: "schema", parameters: "parameter", responses: "response", headers: "header", securitySchemes: "security scheme" }[a] ?? a;
    const fields = fieldPath(at.slice(3));
    return `${kind} ${b}${fields ? `.${fields}` : ""}`;
  }
  return `/${at.join("/")}`;
}

/** Keeps property names, drops the schema keywords between them (allOf/0/properties/…). */
function fieldPath(at: string[]): string {
  const names: string[] = [];
  for (let i = 0; i < at.length; i++) if (at[i] === "properties" && at[i + 1]) names.push(at[++i]!);
  return names.join(".");
}

function asyncapiLabel(at: string[], eventNames: Map<string, string>): { label: string; event?: string } {
  if (at[0] === "info") return { label: "events description" };
  const m = at.indexOf("messages");
  const key = m >= 0 ? at[m + 1] : undefined;
  if (key !== undefined && m + 1 < at.length) {
    const event = eventNames.get(key) ?? key;
    const part = at[m + 2];
    if (!part) return { label: "message", event };
    const fields = fieldPath(at.slice(m + 3));
    return { label: fields ? `${part}.${fields}` : part, event };
  }
  return { label: `/${at.join("/")}` };
}

/** Message key → the event name it carries (`sessionCreated` → `session-created`). */
function messageNames(doc: Json): Map<string, string> {
  const names = new Map<string, string>();
  const collect = (messages: Json | undefined) => {
    for (const [key, message] of Object.entries<Json>(messages ?? {})) if (typeof message?.name === "string") names.set(key, message.name);
  };
  collect(doc.components?.messages);
  for (const channel of Object.values<Json>(doc.channels ?? {})) collect(channel?.messages);
  return names;
}
