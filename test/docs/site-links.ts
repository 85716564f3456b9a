// Every relative link of the built docs site, read from its files as a static host serves them:
// each `href` and `src` of every HTML page (outside scripts, styles and comments), and, for the
// two pages Scalar renders in the browser, the links of the document it renders. Each must lead
// to a file of the site, and its anchor to an id of that page.
import { existsSync, readdirSync, readFileSync, statSync } from "node:fs";
import path from "node:path";
import { isExternal, markdownLinks } from "../../scripts/docs/links.ts";
import { operationAnchor, referenceSections } from "../../scripts/docs/api-reference.ts";
import { operationsOf } from "../../scripts/lib/openapi.ts";

const attribute = (names: string) => new RegExp(`\\s(?:${names})\\s*=\\s*(?:"([^"]*)"|'([^']*)'|([^\\s"'>]+))`, "gi");
const values = (markup: string, names: string) => [...markup.matchAll(attribute(names))].map((m) => entities(m[1] ?? m[2] ?? m[3] ?? ""));
const entities = (text: string) =>
  text.replace(/&(?:#(\d+)|#x([\da-f]+)|(amp|lt|gt|quot|apos));/gi, (_, dec, hex, name: string | undefined) =>
    dec
      ? String.fromCodePoint(Number(dec))
      : hex
        ? String.fromCodePoint(parseInt(hex, 16))
        : { amp: "&", lt: "<", gt: ">", quot: '"', apos: "'" }[name!.toLowerCase()]!,
  );

/** The page's markup, without what a browser does not read as markup. */
const markupOf = (html: string) =>
  html
    .replace(/<script\b[\s\S]*?<\/script\s*>/gi, "")
    .replace(/<style\b[\s\S]*?<\/style\s*>/gi, "")
    .replace(/<!--[\s\S]*?-->/g, "");

/** The document a Scalar page renders in the browser (scripts/docs/api-reference.ts), if it is one. */
function scalarDocument(html: string): any {
  const match = /<script type="application\/json" id="reference-configuration">([\s\S]*?)<\/script>/.exec(html);
  return match ? JSON.parse(match[1]!).content : undefined;
}

/** The links in every `description` of a document: Scalar renders them as Markdown. */
function descriptionLinks(node: unknown, found: string[] = []): string[] {
  if (Array.isArray(node)) node.forEach((item) => descriptionLinks(item, found));
  else if (node && typeof node === "object")
    for (const [key, value] of Object.entries(node)) {
      if (key === "description" && typeof value === "string") found.push(...markdownLinks(value));
      else descriptionLinks(value, found);
    }
  return found;
}

interface SitePage {
  links: string[];
  /** The ids a link's anchor may name; on a page Scalar makes in the browser, its operations' and sections' anchors. */
  ids: Set<string>;
}

function readPage(file: string): SitePage {
  const html = readFileSync(file, "utf8");
  const markup = markupOf(html);
  const links = values(markup, "href|src|xlink:href");
  const document = scalarDocument(html);
  if (document === undefined) return { links, ids: new Set(values(markup, "id")) };
  // Its operations, and the sections its menu lists (which the browser test finds in what Scalar drew).
  const anchors = [
    ...operationsOf(document).map(({ method, path, operation }) => operationAnchor(operation, method, path)),
    ...referenceSections(document).flatMap((section) => [section, ...section.items].map(({ href }) => href.slice(1))),
  ];
  return { links: [...links, ...descriptionLinks(document)], ids: new Set(anchors) };
}

const htmlFiles = (dir: string, under = ""): string[] =>
  readdirSync(path.join(dir, under), { withFileTypes: true }).flatMap((entry) => {
    const name = path.posix.join(under, entry.name);
    return entry.isDirectory() ? htmlFiles(dir, name) : entry.name.endsWith(".html") ? [name] : [];
  });

/** What is wrong with the site's links, one line each (`page: href: why`); none when all resolve. */
export function siteLinkProblems(site: string): { pages: string[]; links: number; problems: string[] } {
  const pages = htmlFiles(site);
  const read = new Map(pages.map((name) => [name, readPage(path.join(site, name))]));
  const problems: string[] = [];
  let links = 0;
  for (const [name, { links: hrefs }] of read)
    for (const href of new Set(hrefs)) {
      if (isExternal(href) || href === "") continue;
      links++;
      const problem = (why: string) => problems.push(`${name}: ${href}: ${why}`);
      if (href.startsWith("/")) {
        problem("starts at the host's root, outside the site's folder");
        continue;
      }
      const hash = href.indexOf("#");
      const filePart = (hash < 0 ? href : href.slice(0, hash)).replace(/\?.*$/, "");
      const anchor = hash < 0 ? "" : decodeURIComponent(href.slice(hash + 1));
      const target = filePart ? path.posix.join(path.posix.dirname(name), decodeURIComponent(filePart)) : name;
      if (target === ".." || target.startsWith("../")) {
        problem("leads out of the site's folder");
        continue;
      }
      const file = path.join(site, target);
      if (!existsSync(file) || !statSync(file).isFile()) {
        problem(`${target} is not in the site`);
        continue;
      }
      if (!anchor) continue;
      const page = target.endsWith(".html") ? read.get(target) : undefined;
      if (!page) problem(`${target} is not a page: it has no anchors`);
      else if (!page.ids.has(anchor)) problem(`${target} has no id "${anchor}"`);
    }
  return { pages, links, problems };
}
