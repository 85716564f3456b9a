// The site's search over the docs' one index: the sections payin-mcp cuts from the package's
// files (src/lib/docs-sections.ts), each given the page and anchor it has on the site, found from
// its place in the package as every link of the guides is (links.ts): a guide's heading keeps its
// anchor, the register's entry takes its short one, an operation Scalar's, an event its heading's.
import { readFileSync } from "node:fs";
import path from "node:path";
import { SANDBOX_OPERATIONS } from "../../generated/sandbox-operations.ts";
import type { DocSection } from "../../src/lib/docs-search.ts";
import { readDocSections } from "../../src/lib/docs-sections.ts";
import type { Json } from "../../src/lib/json.ts";
import { githubSlug } from "../../src/lib/slug.ts";
import { root } from "../lib/paths.ts";
import { operationAnchor } from "./api-reference.ts";
import { HEADERS_HEADING } from "./events-reference.ts";
import { SITE_PAGES } from "./html.ts";
import { siteAnchors } from "./links.ts";
import { guides, guidesDir, sitePages } from "./pages.ts";

export interface SiteSection extends DocSection {
  /** Where it is on the site: `quickstart.html#2-where-events-go`. */
  href: string;
}

export interface SiteDocuments {
  openapi: Json;
  sandbox: Json;
  asyncapi: Json;
  arazzo: Json;
}

/** The anchor on the site of a place in a document the package ships (a JSON pointer), if the site has one. */
function documentAnchor(file: string, pointer: string, documents: SiteDocuments): string | undefined {
  const parts = pointer
    .split("/")
    .slice(1)
    .map((part) => part.replaceAll("~1", "/"));
  if (parts[0] === "paths") {
    const document = file.includes("sandbox") ? documents.sandbox : documents.openapi;
    return operationAnchor(document.paths[parts[1]!][parts[2]!], parts[2]!, parts[1]!);
  }
  if (parts[0] === "components" && parts[1] === "messages")
    return githubSlug(parts[3] === "headers" ? HEADERS_HEADING : documents.asyncapi.components.messages[parts[2]!].name);
  if (parts[0] === "workflows") return documents.arazzo.workflows[Number(parts[1])].workflowId;
  return undefined;
}

/** Where a place in the package (`scripts/docs/guides/quickstart.md#x`, `generated/openapi.json#/paths/…`) is on the site. */
export function siteHref(file: string, documents: SiteDocuments): string {
  const [source, fragment] = file.split("#") as [string, string | undefined];
  const page = sitePages.get(source);
  const anchor =
    fragment === undefined
      ? undefined
      : fragment.startsWith("/")
        ? documentAnchor(source, fragment, documents)
        : siteAnchors(source).get(fragment);
  if (!page || (fragment !== undefined && anchor === undefined)) throw new Error(`the docs site has no page or anchor for ${file}`);
  return anchor === undefined ? page : `${page}#${anchor}`;
}

/** The sections of the site's search: the one index, each at its page, titled as the site's navigation titles it. */
export function siteSections(documents: SiteDocuments): SiteSection[] {
  const sections = readDocSections({
    read: (file) => readFileSync(path.join(root, file), "utf8"),
    guides: guides.map(({ source }) => `${guidesDir}/${source}`),
    sandboxOperations: SANDBOX_OPERATIONS,
  });
  return sections.map((section) => {
    const href = siteHref(section.file, documents);
    return { ...section, page: SITE_PAGES.find((p) => p.file === href.split("#")[0])!.title, href };
  });
}
