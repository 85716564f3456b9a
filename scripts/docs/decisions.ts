// The decision register (openapi/DECISIONS.md) as a page: one section per entry, anchored
// `#d1` … so that the references can link to it, each listing where the documents rest on it.
import { decisionAnchor, type DecisionUse } from "./decision-links.ts";
import { diagramFigure, diagramForMermaid } from "./diagrams.ts";
import { esc, page } from "./html.ts";
import { siteMarkdown } from "./links.ts";

export interface Decision {
  id: string;
  title: string;
  /** The entry's markdown, without its heading. */
  body: string;
}

export interface Register {
  /** The markdown before the first entry, without the document's title. */
  intro: string;
  decisions: Decision[];
}

/** Entries are the `## D<n>: title` sections; anything else at that level is an error. */
export function readRegister(markdown: string): Register {
  const [head = "", ...sections] = markdown.split(/^(?=## )/m);
  const decisions = sections.map((section) => {
    const match = /^## (D\d+): (.+)\n([\s\S]*)$/.exec(section);
    if (!match) throw new Error(`DECISIONS.md: a section is not "## D<n>: title": ${section.split("\n")[0]}`);
    return { id: match[1]!, title: match[2]!.trim(), body: match[3]!.trim() };
  });
  const ids = decisions.map((d) => d.id);
  const repeated = ids.filter((id, i) => ids.indexOf(id) !== i);
  if (repeated.length) throw new Error(`DECISIONS.md: ${repeated.join(", ")} appear more than once`);
  return { intro: head.replace(/^# .*\n/, "").trim(), decisions };
}

// Mermaid blocks of the register draw the state diagrams; the page shows them drawn. Its links
// lead to repository files, as on GitHub, and become links to their pages (scripts/docs/links.ts).
const render = siteMarkdown("openapi/DECISIONS.md", {
  headingIds: false,
  renderer: {
    code(source, language) {
      const diagram = language === "mermaid" ? diagramForMermaid(source) : undefined;
      return diagram ? `${diagramFigure(diagram, esc(diagram.title))}\n` : false;
    },
  },
});

function usesHtml(uses: DecisionUse[]): string {
  if (!uses.length) return "";
  const byDocument = new Map<string, Map<string, string[]>>();
  for (const { document, label, event } of uses) {
    const labels = byDocument.get(document) ?? new Map<string, string[]>();
    byDocument.set(document, labels);
    const events = labels.get(label) ?? [];
    if (event && !events.includes(event)) events.push(event);
    labels.set(label, events);
  }
  const items = [...byDocument].map(([document, labels]) => {
    const parts = [...labels].map(([label, events]) => {
      const where = events.length > 3 ? ` (${events.length} events)` : events.length ? ` (${events.map(esc).join(", ")})` : "";
      return `<code>${esc(label)}</code>${where}`;
    });
    return `<li><strong>${document}:</strong> ${parts.join(", ")}</li>`;
  });
  return `<details class="uses"><summary>Where the documents rest on it</summary><ul>${items.join("")}</ul></details>`;
}

export function decisionsPage(register: Register, uses: Map<string, DecisionUse[]>, version: string): string {
  const toc = register.decisions
    .map((d) => `<li><a href="#${decisionAnchor(d.id)}">${esc(d.id)}</a> ${esc(d.title)}</li>`)
    .join("\n        ");
  const sections = register.decisions.map((d) => {
    const anchor = decisionAnchor(d.id);
    return [
      `    <section class="decision" id="${anchor}">`,
      `      <h2><a class="anchor" href="#${anchor}">${esc(d.id)}</a> ${esc(d.title)}</h2>`,
      render(d.body),
      usesHtml(uses.get(d.id) ?? []),
      `    </section>`,
    ].join("\n");
  });
  const content = [
    `    <h1>Decision register</h1>`,
    `    <div class="intro">${render(register.intro)}</div>`,
    `    <nav class="toc" aria-label="Decisions">`,
    `      <ol>`,
    `        ${toc}`,
    `      </ol>`,
    `    </nav>`,
    ...sections,
  ].join("\n");
  return page({ file: "decisions.html", title: "Decision register: Payin Acceptance Service", content }, version);
}
