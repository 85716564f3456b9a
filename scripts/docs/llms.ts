// The site for machines: every page as Markdown beside it (`quickstart.html` → `quickstart.md`),
// and llms.txt (llmstxt.org) listing them. Pages of our own are turned back into Markdown
// (Turndown, with GitHub's tables); the two API references are written from their documents
// (openapi-markdown.ts).
import { gfm } from "@joplin/turndown-plugin-gfm";
import TurndownService from "turndown";

const turndown = new TurndownService({ headingStyle: "atx", codeBlockStyle: "fenced", bulletListMarker: "-" });
turndown.use(gfm);
// A drawn diagram is its caption in Markdown; the copy button is the page's, not the text's.
turndown.remove((node) => ["svg", "button", "script"].includes(node.nodeName.toLowerCase()));

/** A page's main content without its lists of sections and its links to the guides around it: not the page's text. */
export const withoutNavigation = (html: string) =>
  html.replace(/<(nav|details)\b[^>]*class="(?:toc|pager)\b[^"]*"[^>]*>[\s\S]*?<\/\1>/g, "");

/** A page of our own as Markdown, from its main content. */
export const htmlToMarkdown = (html: string) => `${turndown.turndown(html).trim()}\n`;

export interface LlmsEntry {
  title: string;
  /** Its Markdown file in the site. */
  markdown: string;
  summary: string;
}

/** llms.txt: what the site is, then each page's Markdown with a line on what it holds. */
export function llmsTxt(title: string, summary: string, sections: { heading: string; entries: LlmsEntry[] }[]): string {
  const lines = [`# ${title}`, "", `> ${summary}`, ""];
  for (const { heading, entries } of sections) {
    lines.push(`## ${heading}`, "");
    for (const entry of entries) lines.push(`- [${entry.title}](${entry.markdown}): ${entry.summary}`);
    lines.push("");
  }
  return lines.join("\n");
}
