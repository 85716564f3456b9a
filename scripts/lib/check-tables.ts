// The conformance kit's checks as Markdown tables, written into the conformance guide between
// markers (scripts/build-guides.ts), so that the guide is whole wherever it is read: in the
// repository, in the installed package and on the docs site.
import type { Check } from "../../src/conformance/check.ts";

/** What a table shows of a check. */
type Listed = Pick<Check<unknown>, "id" | "name" | "needs" | "advisory">;

/** Every check of a service: its id, what it checks, and what the target must offer for it to run. */
export const serviceChecksTable = (checks: readonly Listed[]) =>
  [
    "| id | what it checks | needs |",
    "|---|---|---|",
    ...checks.map((c) => `| \`${c.id}\` | ${c.name} | ${c.needs?.join(", ") ?? ""} |`),
  ].join("\n");

/** Every check of a merchant's endpoint: its id, what it checks, and whether a failure fails the run. */
export const receiverChecksTable = (checks: readonly Listed[]) =>
  [
    "| id | what it checks | |",
    "|---|---|---|",
    ...checks.map((c) => `| \`${c.id}\` | ${c.name} | ${c.advisory ? "advisory" : "required"} |`),
  ].join("\n");

/**
 * `markdown` with the section `name` holding `content`: between `<!-- name: … -->` and
 * `<!-- /name -->` (what the last build wrote there goes), or in place of a bare `<!-- name -->`
 * the first time. The start marker says where the content comes from, for whoever would edit it.
 */
export function withWrittenSection(markdown: string, name: string, content: string, source: string): string {
  const starts = [...markdown.matchAll(new RegExp(`<!-- ${name}(?::[^\\n]*?)? -->`, "g"))];
  if (starts.length !== 1) throw new Error(`expected one <!-- ${name} --> marker in the Markdown, found ${starts.length}`);
  const from = starts[0]!.index;
  const end = `<!-- /${name} -->`;
  const endAt = markdown.indexOf(end, from);
  const to = endAt < 0 ? from + starts[0]![0].length : endAt + end.length;
  // Blank lines around the table: without them a Markdown renderer may read a marker as a table row.
  const section = `<!-- ${name}: written by npm run build from ${source}; do not edit -->\n\n${content}\n\n${end}`;
  return markdown.slice(0, from) + section + markdown.slice(to);
}
