// The guides of the docs site: Markdown in scripts/docs/guides/, written once, each rendered
// into a page of the shared layout. A guide's first heading is its title.
import { readFileSync } from "node:fs";
import { Marked } from "marked";
import { receiverChecks, serviceChecks } from "../../src/conformance/index.ts";
import { page } from "./html.ts";

export interface Guide {
  /** The Markdown file in scripts/docs/guides/. */
  source: string;
  /** The page it becomes. */
  file: string;
}

export const guides: readonly Guide[] = [
  { source: "quickstart.md", file: "quickstart.html" },
  { source: "sandbox.md", file: "sandbox-guide.html" },
  { source: "testing.md", file: "testing.html" },
  { source: "conformance.md", file: "conformance.html" },
];

/** The conformance kit's checks as Markdown tables, from the checks themselves. */
const serviceChecksTable = () =>
  [
    "| id | what it checks | needs |",
    "|---|---|---|",
    ...serviceChecks.map((c) => `| \`${c.id}\` | ${c.name} | ${c.needs?.join(", ") ?? ""} |`),
  ].join("\n");
const receiverChecksTable = () =>
  ["| id | what it checks | |", "|---|---|---|", ...receiverChecks.map((c) => `| \`${c.id}\` | ${c.name} | ${c.advisory ? "advisory" : "required"} |`)].join("\n");

const markdown = new Marked({ gfm: true });

/** The page of a guide, in the site's layout. */
export function guidePage({ source, file }: Guide, version: string): string {
  const text = readFileSync(new URL(`./guides/${source}`, import.meta.url), "utf8")
    .replace("<!-- service-checks -->", serviceChecksTable)
    .replace("<!-- receiver-checks -->", receiverChecksTable);
  const title = /^# (.+)$/m.exec(text)?.[1];
  if (!title) throw new Error(`scripts/docs/guides/${source} has no "# title" line`);
  const content = `    <article class="guide">\n${markdown.parse(text, { async: false }) as string}    </article>`;
  return page({ file, title: `${title}: Payin Acceptance Service`, content }, version);
}
