// Links in the Markdown that the site renders (the guides, the decision register). They are
// written for the Markdown's own readers, on GitHub, in an editor or in the installed package:
// relative paths to the files as they sit in the repository (`sandbox.md#faults-on-demand`,
// `../../../openapi/DECISIONS.md#d5-state-transitions`). The site's build rewrites each to the
// page that file becomes (scripts/docs/pages.ts), and fails on a link that has none, rather than
// publish it broken.
//
// Headings get GitHub's anchors, in both places: a guide's page gives each heading the id GitHub
// gives it, so that `#faults-on-demand` works on either side. The register's entries keep their
// short site anchors (`#d5`, which the references link to); GitHub's anchor of an entry's heading
// (`#d5-state-transitions`) becomes that one.
import { existsSync, readFileSync } from "node:fs";
import path from "node:path";
import hljs from "highlight.js/lib/common";
import { Marked, type RendererObject, type Token } from "marked";
import { Slugger } from "../../src/lib/slug.ts";
import { root } from "../lib/paths.ts";
import { decisionAnchor } from "./decision-links.ts";
import { esc } from "./html.ts";
import { guidesDir, sitePages } from "./pages.ts";

export { githubSlug, Slugger } from "../../src/lib/slug.ts";

export interface Heading {
  depth: number;
  /** The heading as text, without its markup (what GitHub slugs). */
  text: string;
  /** Its anchor on GitHub, and in the site's guide pages. */
  id: string;
}

/** The headings of a Markdown text, each with the anchor GitHub gives it. */
export function headings(markdown: string): Heading[] {
  const found: Heading[] = [];
  const slugger = new Slugger();
  // `raw` is the heading's inline content rendered as plain text, which is what GitHub slugs.
  new Marked({ gfm: true, renderer: { heading: (_html, depth, text) => (found.push({ depth, text, id: slugger.slug(text) }), "") } }).parse(
    markdown,
    { async: false },
  );
  return found;
}

/** A link with a scheme (`https:`, `mailto:`, `data:`) or to another host (`//host/`): left alone. */
export const isExternal = (href: string) => /^(?:[a-z][\w+.-]*:|\/\/)/i.test(href);

/** The `href` and `src` values of raw HTML. */
export const htmlLinks = (html: string) =>
  [...html.matchAll(/\s(?:xlink:)?(?:href|src)\s*=\s*(?:"([^"]*)"|'([^']*)'|([^\s"'>]+))/gi)].map((m) => m[1] ?? m[2] ?? m[3] ?? "");

/** Every link and image target of a Markdown text, and those of the HTML in it. */
export function markdownLinks(markdown: string): string[] {
  const links: string[] = [];
  const marked = new Marked({ gfm: true });
  marked.walkTokens(marked.lexer(markdown), (token: Token) => {
    if (token.type === "link" || token.type === "image") links.push(token.href);
    else if (token.type === "html") links.push(...htmlLinks(token.raw));
  });
  return links;
}

const anchorCache = new Map<string, ReadonlyMap<string, string>>();

/**
 * The anchors a repository file's page has, by the anchor a link to the file uses: the
 * guides' headings (the same on both sides), and the register's entries (GitHub's
 * `d5-state-transitions` → the site's `d5`). Other files' pages take no anchor from a link.
 */
export function siteAnchors(file: string): ReadonlyMap<string, string> {
  let anchors = anchorCache.get(file);
  if (!anchors) {
    const text = () => readFileSync(path.join(root, file), "utf8");
    if (file.startsWith(`${guidesDir}/`)) anchors = new Map(headings(text()).map(({ id }) => [id, id]));
    else if (file === "openapi/DECISIONS.md")
      anchors = new Map(
        headings(text()).flatMap(({ depth, text, id }) => {
          const entry = depth === 2 ? /^(D\d+):/.exec(text)?.[1] : undefined;
          return entry ? [[id, decisionAnchor(entry)] as const] : [];
        }),
      );
    else anchors = new Map();
    anchorCache.set(file, anchors);
  }
  return anchors;
}

/**
 * Where a link in the Markdown file `from` (a repository path, `scripts/docs/guides/x.md`)
 * leads in the site. An external link is kept; a relative one must lead to a file of the
 * repository that has a page in the site, and its anchor to a heading that page has.
 * Anything else is an error naming the file and the link.
 */
export function siteHref(from: string, href: string): string {
  if (isExternal(href) || href === "" || href === "#") return href;
  const fail = (why: string): never => {
    throw new Error(`${from}: the link "${href}" ${why}`);
  };
  if (href.startsWith("/")) fail("starts at the host's root: write it relative to the file");
  const hash = href.indexOf("#");
  const filePart = hash < 0 ? href : href.slice(0, hash);
  const anchor = hash < 0 ? undefined : decodeURIComponent(href.slice(hash + 1));
  if (filePart.includes("?")) fail("has a query, which neither the repository nor the site answers");
  const target = filePart ? path.posix.join(path.posix.dirname(from), decodeURIComponent(filePart)).replace(/\/$/, "") : from;
  if (target === ".." || target.startsWith("../")) fail("leads out of the repository");
  if (!existsSync(path.join(root, target)))
    fail(`leads to ${target}, which is not in the repository (link the Markdown or source file, not a page of the site)`);
  const page = sitePages.get(target);
  if (!page)
    fail(
      `leads to ${target}, which has no page in the site. Link a file that has one (${[...sitePages.keys()].join(", ")}) ` +
        `or an absolute URL, or give ${target} a page in scripts/docs/pages.ts`,
    );
  if (anchor === undefined) return page!;
  const anchors = siteAnchors(target);
  const id = anchors.get(anchor);
  if (id === undefined)
    fail(
      `points at #${anchor}, which is not ${
        anchors.size
          ? `one of ${target}'s headings on GitHub (${[...anchors.keys()].map((a) => `#${a}`).join(", ")})`
          : `an anchor that ${page} has; link ${target} without one`
      }`,
    );
  return filePart ? `${page}#${id}` : `#${id}`;
}

/** A fenced block, highlighted by highlight.js at build time when its language is given: the page needs no script for it. */
export function highlightedBlock(source: string, language?: string): string {
  const name = language?.trim().split(/\s/)[0] ?? "";
  const html = hljs.getLanguage(name) ? hljs.highlight(source, { language: name }).value : esc(source);
  return `<pre><code class="hljs${name ? ` language-${esc(name)}` : ""}">${html}</code></pre>\n`;
}
const highlighted: RendererObject["code"] = (source, language) => highlightedBlock(source, language);

export interface SiteMarkdownOptions {
  /** Give each heading GitHub's anchor as its id (the guides; not the register, whose entries have their own). */
  headingIds?: boolean;
  /** Other renderer overrides. */
  renderer?: RendererObject;
  /** Rewrite repository links to the site's pages (default); false for Markdown whose links are the site's already. */
  rewriteLinks?: boolean;
}

/**
 * A renderer of the Markdown file `from` for the site: its links rewritten by `siteHref`, its
 * headings given GitHub's anchors. It throws, naming the file and every link, when a link has
 * no place in the site.
 */
export function siteMarkdown(
  from: string,
  { headingIds = true, renderer = {}, rewriteLinks = true }: SiteMarkdownOptions = {},
): (text: string) => string {
  const problems: string[] = [];
  let slugger = new Slugger();
  const heading: RendererObject["heading"] = (html, depth, text) => `<h${depth} id="${esc(slugger.slug(text))}">${html}</h${depth}>\n`;
  // The caller's renderer goes last: what it leaves (by returning false) falls back to these.
  const marked = new Marked(
    { gfm: true, renderer: headingIds ? { heading, code: highlighted } : { code: highlighted } },
    {
      renderer,
      walkTokens(token) {
        if (!rewriteLinks) return;
        if (token.type === "link" || token.type === "image") {
          try {
            token.href = siteHref(from, token.href);
          } catch (error) {
            problems.push((error as Error).message);
          }
        } else if (token.type === "html") {
          for (const href of htmlLinks(token.raw))
            if (!isExternal(href) && !href.startsWith("#"))
              problems.push(`${from}: the link "${href}" is in HTML, which the site's build does not rewrite: write it as a Markdown link`);
        }
      },
    },
  );
  return (text: string) => {
    problems.length = 0;
    slugger = new Slugger();
    const html = marked.parse(text, { async: false }) as string;
    if (problems.length) throw new Error(`links that would be broken in the docs site:\n  ${problems.join("\n  ")}`);
    return html;
  };
}
