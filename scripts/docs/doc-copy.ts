// The copy of a bundle that the reference renderers read. generated/ stays as published;
// only this copy gains what a reader of the site needs: links to the decisions, the state
// diagrams instead of mermaid source (neither renderer draws mermaid), and a way back to the
// rest of the site.
import { linkDecisions, type DecisionUse } from "./decision-links.ts";
import { replaceMermaid } from "./diagrams.ts";

type Json = Record<string, any>;

const siteLinks =
  "**Payin docs:** [Overview](index.html) · [API reference](openapi.html) · [Events reference](asyncapi.html) · [Decision register](decisions.html)";

export function docCopy(bundle: Json, document: DecisionUse["document"], decisions: ReadonlySet<string>) {
  const doc: Json = structuredClone(bundle);
  const uses = linkDecisions(doc, document, decisions);
  mapDescriptions(doc, (text) => replaceMermaid(text, (diagram) => `![${diagram.title}](diagrams/${diagram.name}.svg)`));
  doc.info.description = `${siteLinks}\n\n${doc.info.description ?? ""}`;
  return { doc, uses };
}

function mapDescriptions(node: unknown, map: (text: string) => string): void {
  if (!node || typeof node !== "object") return;
  if (Array.isArray(node)) return node.forEach((item) => mapDescriptions(item, map));
  const element = node as Json;
  if (typeof element.description === "string") element.description = map(element.description);
  for (const value of Object.values(element)) mapDescriptions(value, map);
}
