// The smallest template engine that keeps the pages readable as HTML files: `{{name}}` is
// replaced by a value that is already HTML. Values are escaped where they are made (`esc`),
// not here, because most of them are markup.
import { readFileSync } from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";

const templatesDir = fileURLToPath(new URL("./templates/", import.meta.url));

export const esc = (text: string) => text.replace(/&/g, "&amp;").replace(/</g, "&lt;").replace(/>/g, "&gt;").replace(/"/g, "&quot;");

/**
 * Fills a template from scripts/docs/templates/. A placeholder without a value, or a value
 * without a placeholder, is an error: both mean the template and the script have drifted.
 */
export function fill(templateName: string, values: Record<string, string>): string {
  const template = readFileSync(path.join(templatesDir, templateName), "utf8");
  const used = new Set<string>();
  const html = template.replace(/\{\{\s*([a-zA-Z][\w]*)\s*\}\}/g, (_, name: string) => {
    const value = values[name];
    if (value === undefined) throw new Error(`${templateName}: no value for {{${name}}}`);
    used.add(name);
    return value;
  });
  const unused = Object.keys(values).filter((name) => !used.has(name));
  if (unused.length) throw new Error(`${templateName}: no placeholder for ${unused.join(", ")}`);
  return html;
}

export interface Page {
  /** File name in the site, also how the navigation marks the current page. */
  file: string;
  title: string;
  content: string;
  /** "article": a column of prose with a footer (default); "reference": the full width, for an API reference. */
  layout?: "article" | "reference";
  /** A reference's sections, which the header's menu shows where the reference's own sidebar does not fit (HTML). */
  sections?: string;
}

/**
 * Every page of the site, in the order of its navigation: its label there, its title on the
 * overview's cards and in llms.txt, and what it holds.
 */
export const SITE_PAGES = [
  {
    file: "index.html",
    label: "Overview",
    title: "Overview",
    group: "Guides",
    summary: "The service, the payin flow, its states and what the package gives.",
  },
  {
    file: "quickstart.html",
    label: "Quickstart",
    title: "Quickstart",
    group: "Guides",
    summary: "The payin flow end to end with the typed client and the webhook toolkit.",
  },
  {
    file: "verify-webhooks.html",
    label: "Webhooks",
    title: "Verify webhooks in any language",
    group: "Guides",
    summary: "The signature's algorithm step by step, and the test vectors that prove a verifier in any language agrees with the service.",
  },
  {
    file: "sandbox-guide.html",
    label: "Sandbox",
    title: "The sandbox",
    group: "Guides",
    summary: "The service with state, a payment page, signed webhooks and a dashboard, offline, for your CI.",
  },
  {
    file: "testing.html",
    label: "Testing",
    title: "Testing your integration",
    group: "Guides",
    summary: "The sandbox in CI, the retrying client, event fixtures, triggers, the mock, faults on demand.",
  },
  {
    file: "ci.html",
    label: "CI",
    title: "The sandbox in any CI",
    group: "Guides",
    summary: "The sandbox, the kit and payin-listen as executables that need no Node.js, and as an image for CI's services and Compose.",
  },
  {
    file: "conformance.html",
    label: "Conformance",
    title: "Checking an implementation",
    group: "Guides",
    summary: "The conformance kit: an implementation of the service, or a merchant's webhook endpoint, checked against the contract.",
  },
  {
    file: "hosting.html",
    label: "Hosting",
    title: "Hosting a shared sandbox",
    group: "Guides",
    summary: "One sandbox for every merchant: several processes on PostgreSQL behind a load balancer, and what survives a process's death.",
  },
  {
    file: "flows.html",
    label: "Flows",
    title: "The payin flows",
    group: "Reference",
    summary: "The flows as Arazzo workflows, step by step: what a merchant calls, and what any implementation must answer and send.",
  },
  {
    file: "openapi.html",
    label: "API",
    title: "API reference",
    group: "Reference",
    summary: "The six operations and the webhook events, from the OpenAPI document; try each against a sandbox.",
  },
  {
    file: "asyncapi.html",
    label: "Events",
    title: "Events reference",
    group: "Reference",
    summary: "The seven webhook events, their headers, fields and examples, and the delivery rules, from the AsyncAPI document.",
  },
  {
    file: "sandbox.html",
    label: "Sandbox API",
    title: "Sandbox control API",
    group: "Reference",
    summary: "What the sandbox adds under /_sandbox/v1/: act as the customer, move the clock, redo deliveries, faults. Not the service's.",
  },
  {
    file: "decisions.html",
    label: "Decisions",
    title: "Decision register",
    group: "Reference",
    summary: "The points the source leaves open, each decided once, and where the documents rest on it.",
  },
] as const;

/** `quickstart.html` → `quickstart.md`: the page as Markdown, which llms.txt lists. */
export const markdownFile = (file: string) => file.replace(/\.html$/, ".md");

/** A page in the site's layout: one header (navigation and search) on every page. */
export function page({ file, title, content, layout = "article", sections = "" }: Page, version: string): string {
  const nav = SITE_PAGES.map(
    ({ file: href, label }) => `<a href="${href}"${href === file ? ' aria-current="page"' : ""}>${label}</a>`,
  ).join("\n      ");
  const body =
    layout === "article"
      ? `  <main class="wrap">\n${withContents(file, labelledCells(content))}\n  </main>\n${footer(version)}`
      : `  <main class="reference">\n${content}\n  </main>`;
  return fill("page.html", {
    title: esc(title),
    nav,
    sections,
    content: body,
    version: esc(version),
    layout,
    markdown: markdownFile(file),
  });
}

const footer = (version: string) =>
  `  <footer class="site-footer">
    <div class="wrap">
      Contract version ${esc(version)} · npm package <code>payin-acceptance-contract</code> ·
      built from the committed OpenAPI, AsyncAPI and Arazzo documents ·
      <a href="llms.txt">llms.txt</a> · <a href="payin.postman_collection.json">Postman collection</a>
    </div>
  </footer>`;

/**
 * Each cell of a table of ours labelled with its column's name (`data-label`), which a phone
 * shows above the cell when the table becomes a stack of blocks (style.css).
 */
export function labelledCells(html: string): string {
  return html.replace(/<table\b[\s\S]*?<\/table>/g, (table) => {
    const head = /<thead\b[\s\S]*?<\/thead>/.exec(table)?.[0];
    if (!head) return table;
    const labels = [...head.matchAll(/<th\b[^>]*>([\s\S]*?)<\/th>/g)].map((m) => esc(m[1]!.replace(/<[^>]+>/g, "").trim()));
    return table.replace(/<tr\b[^>]*>[\s\S]*?<\/tr>/g, (row) => {
      let column = 0;
      return row.replace(/<td\b(?![^>]*data-label)/g, () => `<td data-label="${labels[column++] ?? ""}"`);
    });
  });
}

/** The guides, in reading order: the pages of the navigation's first group. */
const GUIDES = SITE_PAGES.filter((p) => p.group === "Guides");

/**
 * A page of ours with the list of its sections (each `<h2>` with an id, or in a `<section>` with
 * one: beside the text at desktop widths, a collapsed block at the top on a phone) and, for a
 * guide, links to the guides before and after it. A page of fewer than two sections is as it is.
 */
export function withContents(file: string, article: string): string {
  const headings = /<section\b[^>]*\bid="([^"]+)"[^>]*>\s*<h2\b[^>]*>([\s\S]*?)<\/h2>|<h2\b[^>]*\bid="([^"]+)"[^>]*>([\s\S]*?)<\/h2>/g;
  const sections = [...article.matchAll(headings)].map((m) => {
    const [id, title] = m[1] ? [m[1], m[2]!] : [m[3]!, m[4]!];
    // The heading's words only: its anchor link's text, not a code name beside it (the flows' workflow ids).
    const words = title
      .replace(/<code>[\s\S]*?<\/code>/g, "")
      .replace(/<[^>]+>/g, "")
      .trim();
    return `<li><a href="#${id}">${words}</a></li>`;
  });
  if (sections.length < 2) return article;
  const list = `<ol>\n${sections.join("\n")}\n</ol>`;
  const at = GUIDES.findIndex((p) => p.file === file);
  const [before, after] = at < 0 ? [] : [GUIDES[at - 1], GUIDES[at + 1]];
  const pager = [
    before && `<a rel="prev" href="${before.file}"><small>Previous</small>${esc(before.title)}</a>`,
    after && `<a rel="next" href="${after.file}"><small>Next</small>${esc(after.title)}</a>`,
  ]
    .filter(Boolean)
    .join("\n");
  return `<div class="guide-layout">
<div class="guide-text">
<details class="toc toc-top"><summary>On this page</summary>
${list}
</details>
${article}
${pager ? `<nav class="pager" aria-label="Guides in order">\n${pager}\n</nav>` : ""}
</div>
<nav class="toc toc-aside" aria-label="On this page">
<p class="toc-title">On this page</p>
${list}
</nav>
</div>`;
}
