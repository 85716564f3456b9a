// @ts-nocheck
// The copy of a bundle that the reference renderers read. generated/ stays as published;
// only this copy gains what a reader of the site needs: links to the decisions, the state
// diagrams instead of mermaid source (neither renderer draws mermaid), and a way back to the
// rest of the site.
import { linkDecisions, type DecisionUse } from "./decision-links.ts";
import type { Json } from "../../src/lib/json.ts";
import { walkObjects } from "../lib/walk.ts";
import { replaceMermaid } from "./diagrams.ts";

const siteLinks =
  "**Payin docs:** [Overview](index.html) · [API reference](openapi.html) · [Events reference](asyncapi.html) · [Decision register](decisions.html)";

export function docCopy(bundle: Json, document: DecisionUse["document"], decisions: ReadonlySet<string>) {
  const doc: Json = structuredClone(bundle);
  const uses = linkDecisions(doc, document, decisions);
  walkObjects(doc, (element) => {
    if (typeof element.description === "string")
      element.description = replaceMermaid(element.description, (diagram) => `![${diagram.title}](diagrams/${diagram.name}.svg)`);
  });
  doc.info.description = `${siteLinks}\n\n${doc.info.description ?? ""}`;
  return { doc, uses };
}
