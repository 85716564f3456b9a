// The guides of the docs site: Markdown in scripts/docs/guides/, written once, each rendered
// into a page of the shared layout. A guide's first heading is its title. Its links lead to
// files of the repository (`sandbox.md`, `../../../openapi/DECISIONS.md`), which the page
// turns into links to their pages (scripts/docs/links.ts).
import { readFileSync } from "node:fs";
import type { RendererObject } from "marked";
import { codeGroupHtml, GROUP_FENCE, groupSnippet, SAMPLE_LANGUAGES } from "./code-groups.ts";
import { page } from "./html.ts";
import { highlightedBlock, siteMarkdown } from "./links.ts";
import { guidesDir, type Guide } from "./pages.ts";

export { guides, type Guide } from "./pages.ts";

/** The page of a guide, in the site's layout. */
export function guidePage(guide: Guide, version: string): string {
  // As written: the build fills the conformance guide's tables of checks into the Markdown itself.
  const text = readFileSync(new URL(`./guides/${guide.source}`, import.meta.url), "utf8");
  const title = /^# (.+)$/m.exec(text)?.[1];
  if (!title) throw new Error(`scripts/docs/guides/${guide.source} has no "# title" line`);
  const from = `${guidesDir}/${guide.source}`;
  const problems: string[] = [];
  const html = siteMarkdown(from, { renderer: { code: codeGroups(from, problems) } })(text);
  // After the whole guide: every group's problem at once, and not in the words marked wraps a renderer's throw in.
  if (problems.length) throw new Error(problems.join("\n"));
  const content = `    <article class="guide">\n${html}    </article>`;
  return page({ file: guide.file, title: `${title}: Payin Acceptance Service`, content }, version);
}

/**
 * The guide's fences marked `group=<name>` rendered as code groups (code-groups.ts): its own
 * TypeScript, then each sample's snippet of that name. Any other fence is left to the default.
 * What stops a group (a sample without its snippet) goes into `problems`.
 */
function codeGroups(from: string, problems: string[]): RendererObject["code"] {
  const seen = new Set<string>();
  return (source, info) => {
    const group = GROUP_FENCE.exec(info?.trim() ?? "");
    if (!group) return false;
    const name = group[2]!;
    if (seen.has(name)) problems.push(`${from}: the code group "${name}" is there twice: its tabs would share their ids`);
    seen.add(name);
    const snippets = SAMPLE_LANGUAGES.flatMap((language) => {
      try {
        const snippet = groupSnippet(language, name, from);
        return snippet ? [{ language, snippet }] : [];
      } catch (error) {
        problems.push((error as Error).message);
        return [];
      }
    });
    return codeGroupHtml(name, source, snippets, highlightedBlock);
  };
}
