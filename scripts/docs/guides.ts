// The guides of the docs site: Markdown in scripts/docs/guides/, written once, each rendered
// into a page of the shared layout. A guide's first heading is its title. Its links lead to
// files of the repository (`sandbox.md`, `../../../openapi/DECISIONS.md`), which the page
// turns into links to their pages (scripts/docs/links.ts).
import { readFileSync } from "node:fs";
import { receiverChecks, serviceChecks } from "../../src/conformance/index.ts";
import { page } from "./html.ts";
import { siteMarkdown } from "./links.ts";
import { guidesDir, type Guide } from "./pages.ts";

export { guides, type Guide } from "./pages.ts";

/** The conformance kit's checks as Markdown tables, from the checks themselves. */
const serviceChecksTable = () =>
  [
    "| id | what it checks | needs |",
    "|---|---|---|",
    ...serviceChecks.map((c) => `| \`${c.id}\` | ${c.name} | ${c.needs?.join(", ") ?? ""} |`),
  ].join("\n");
const receiverChecksTable = () =>
  [
    "| id | what it checks | |",
    "|---|---|---|",
    ...receiverChecks.map((c) => `| \`${c.id}\` | ${c.name} | ${c.advisory ? "advisory" : "required"} |`),
  ].join("\n");

/** A guide's Markdown, its tables of checks filled in. */
const guideMarkdown = ({ source }: Guide) =>
  readFileSync(new URL(`./guides/${source}`, import.meta.url), "utf8")
    .replace("<!-- service-checks -->", serviceChecksTable)
    .replace("<!-- receiver-checks -->", receiverChecksTable);

/** The page of a guide, in the site's layout. */
export function guidePage(guide: Guide, version: string): string {
  const text = guideMarkdown(guide);
  const title = /^# (.+)$/m.exec(text)?.[1];
  if (!title) throw new Error(`scripts/docs/guides/${guide.source} has no "# title" line`);
  const html = siteMarkdown(`${guidesDir}/${guide.source}`)(text);
  const content = `    <article class="guide">\n${html}    </article>`;
  return page({ file: guide.file, title: `${title}: Payin Acceptance Service`, content }, version);
}
