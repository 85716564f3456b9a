// search_docs's answer: the docs site's own search (one index, one ranking: src/lib/), its best
// hits each with the passage that matched, whole sentences, in at most 2 KB: what an agent
// needs to read next, and where, without the pages around it. Loaded with MiniSearch, an
// optional peer of the package beside the SDK.
import { SANDBOX_OPERATIONS } from "../../generated/sandbox-operations.ts";
import { createDocsSearch, passage, type DocsSearch } from "../lib/docs-search.ts";
import { readDocSections } from "../lib/docs-sections.ts";
import { GUIDES, readPackageFile } from "./contract.ts";

/** The docs' search, over the sections of the files the package ships, cut when payin-mcp starts. */
export const loadDocsSearch = (): DocsSearch =>
  createDocsSearch(readDocSections({ read: readPackageFile, guides: GUIDES, sandboxOperations: SANDBOX_OPERATIONS }));

/** An answer's limit, all of it: an agent reads the hits, not the pages. */
export const MAX_ANSWER_BYTES = 2048;
/** What a hit's passage may take before its next sentence is left out. */
const PASSAGE_CHARS = 360;
const HITS = 5;

export interface DocHitAnswer {
  title: string;
  page: string;
  /** The file and anchor in the installed package. */
  link: string;
  passage: string;
}

/** The best hits for `query` that fit in MAX_ANSWER_BYTES once `wrap` makes them the answer. */
export function bestHits(docs: DocsSearch, query: string, wrap: (hits: DocHitAnswer[]) => unknown): DocHitAnswer[] {
  const hits: DocHitAnswer[] = [];
  for (const { section, terms } of docs.search(query, HITS)) {
    const hit = { title: section.title, page: section.page, link: section.file, passage: passage(section.text, terms, PASSAGE_CHARS) };
    if (Buffer.byteLength(JSON.stringify(wrap([...hits, hit]))) > MAX_ANSWER_BYTES) break;
    hits.push(hit);
  }
  return hits;
}
