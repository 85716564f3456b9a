// The copy of a bundle that the site's references are made from. generated/ stays as published;
// only this copy gains what a reader of the site needs: links to the decisions, and the state
// diagrams instead of mermaid source (Scalar does not draw mermaid; the events page is Markdown).
import { linkDecisions, type DecisionUse } from "./decision-links.ts";
import type { Json } from "../../src/lib/json.ts";
import { walkObjects } from "../lib/walk.ts";
import { replaceMermaid, type Diagram } from "./diagrams.ts";

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
  return { doc, uses, diagrams: [...diagrams.values()] };
}
