// The guides of the docs site: Markdown in scripts/docs/guides/, written once, each rendered
// into a page of the shared layout. A guide's first heading is its title. Its links lead to
// files of the repository (`sandbox.md`, `../../../openapi/DECISIONS.md`), which the page
// turns into links to their pages (scripts/docs/links.ts).
import { readFileSync } from "node:fs";
import { page } from "./html.ts";
import { siteMarkdown } from "./links.ts";
import { guidesDir, type Guide } from "./pages.ts";

export { guides, type Guide } from "./pages.ts";

/** The page of a guide, in the site's layout. */
export function guidePage(guide: Guide, version: string): string {
  // As written: the build fills the conformance guide's tables of checks into the Markdown itself.
  const text = readFileSync(new URL(`./guides/${guide.source}`, import.meta.url), "utf8");
  const title = /^# (.+)$/m.exec(text)?.[1];
  if (!title) throw new Error(`scripts/docs/guides/${guide.source} has no "# title" line`);
  const html = siteMarkdown(`${guidesDir}/${guide.source}`)(text);
  const content = `    <article class="guide">\n${html}    </article>`;
  return page({ file: guide.file, title: `${title}: Payin Acceptance Service`, content }, version);
}
