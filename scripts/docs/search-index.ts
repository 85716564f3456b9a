// The site's search index: every page cut at its headings into sections, each a document of
// MiniSearch, serialized for the browser (site.js loads it on the first keystroke). The API
// references render in the browser, so their sections come from the documents: one per
// operation, at the anchor Scalar gives it.
import MiniSearch from "minisearch";
import type { Json } from "../../src/lib/json.ts";
import { operationsOf } from "../lib/openapi.ts";
import { operationAnchor } from "./api-reference.ts";

export interface Section {
  /** The heading (or operation summary). */
  title: string;
  /** The page's short name, shown under the title in the results. */
  page: string;
  /** Where the section is: `quickstart.html#install`. */
  href: string;
  text: string;
  /** "g" for a guide, "r" for a reference: a guide that explains a thing ranks above a reference that mentions it. */
  kind: "g" | "r";
}

/** Words too common to find anything by (and bare numbers): left out of the index, which stays smaller. */
const STOP_WORDS = new Set(
  "a an and are as at be by for from has have in is it its of on or that the this to was were will with".split(" "),
);

/** The options of the index. The fields travel with it, for site.js to load it with. */
const SEARCH_OPTIONS = {
  fields: ["title", "text"],
  storeFields: ["title", "page", "href", "kind"],
  processTerm: (term: string) => {
    const word = term.toLowerCase();
    return word.length < 2 || STOP_WORDS.has(word) || /^\d+$/.test(word) ? null : word;
  },
};

const ENTITIES: Record<string, string> = { amp: "&", lt: "<", gt: ">", quot: '"', "#39": "'", nbsp: " " };
/** The text of some HTML, its tags dropped and its entities read. */
export const textOf = (html: string) =>
  html
    .replace(/<(script|style|svg)\b[\s\S]*?<\/\1>/g, " ")
    .replace(/<[^>]+>/g, " ")
    .replace(/&(amp|lt|gt|quot|#39|nbsp);/g, (_, name: string) => ENTITIES[name]!)
    .replace(/\s+/g, " ")
    .trim();

/** A page's main content without its lists of sections and its links to the guides around it: not the page's text. */
export const withoutNavigation = (html: string) =>
  html.replace(/<(nav|details)\b[^>]*class="(?:toc|pager)\b[^"]*"[^>]*>[\s\S]*?<\/\1>/g, "");

/**
 * The sections of a page of our own: its main content cut before each `<h1>`–`<h3>`, each at
 * the heading's id, or that of the section the heading opens (the register's `<section id="d5">`).
 */
export function pageSections(file: string, page: string, html: string, kind: Section["kind"]): Section[] {
  const chunks = withoutNavigation(html).split(/(?=<h[1-3][\s>])/);
  return chunks.flatMap((chunk, i) => {
    const heading = /^<h[1-3]([^>]*)>([\s\S]*?)<\/h[1-3]>/.exec(chunk);
    if (!heading) return [];
    const id = /\sid="([^"]+)"/.exec(heading[1]!)?.[1] ?? /<section[^>]*\sid="([^"]+)"[^>]*>\s*$/.exec(chunks[i - 1] ?? "")?.[1];
    const text = textOf(chunk.slice(heading[0].length));
    return [{ title: textOf(heading[2]!).replace(/^#\s*/, ""), page, href: id && i > 0 ? `${file}#${id}` : file, text, kind }];
  });
}

/** One section per operation of an OpenAPI document, at Scalar's anchor for it. */
export function operationSections(file: string, page: string, document: Json): Section[] {
  const kind = "r";
  return operationsOf(document).map(({ method, path, operation }) => {
    const parameters = (operation.parameters ?? []).map((p: Json) => `${p.name} ${p.description ?? ""}`);
    return {
      title: operation.summary ?? operation.operationId,
      page,
      href: `${file}#${operationAnchor(operation, method, path)}`,
      text: textOf([`${method.toUpperCase()} ${path}`, operation.description ?? "", ...parameters].join(" ")),
      kind,
    };
  });
}

/** search-index.json: the index, and the fields MiniSearch.loadJS needs to read it. */
export function searchIndex(sections: Section[]): string {
  const search = new MiniSearch<Section & { id: number }>(SEARCH_OPTIONS);
  search.addAll(sections.map((section, id) => ({ id, ...section })));
  const { fields, storeFields } = SEARCH_OPTIONS;
  return JSON.stringify({ options: { fields, storeFields }, index: search });
}
