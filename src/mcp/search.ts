// search_docs's answer: the docs site's own search (one index, one ranking: src/lib/), its best
// hits each with the passage that matched, whole sentences, in at most 2 KB with the text that
// renders them: what an agent needs to read next, and where, without the pages around it.
import { SANDBOX_OPERATIONS } from "../../generated/sandbox-operations.ts";
import { createDocsSearch, passage, type DocsSearch } from "../lib/docs-search.ts";
import { readDocSections } from "../lib/docs-sections.ts";
import { GUIDES, readPackageFile } from "./contract.ts";

/** The docs' search, over the sections of the files the package ships, cut when payin-mcp starts. */
export const loadDocsSearch = (): DocsSearch =>
  createDocsSearch(readDocSections({ read: readPackageFile, guides: GUIDES, sandboxOperations: SANDBOX_OPERATIONS }));

/** An answer's limit, all of it: an agent reads the hits, not the pages. */
export const MAX_ANSWER_BYTES = 2048;
/** What a hit's passage may take before its next sentence is left out: the answer says it twice, as text and as structure. */
const PASSAGE_CHARS = 160;
const HITS = 5;
/** The ranks looked at for them: past these, a hit is too far from the query to be worth its bytes. */
const CANDIDATES = 8;

export interface DocHitAnswer {
  title: string;
  page: string;
  /** The file and anchor in the installed package. */
  link: string;
  passage: string;
}

/** The best hits for `query` that fit in MAX_ANSWER_BYTES once `wrap` makes them the answer: one too long leaves room for the next. */
export function bestHits(docs: DocsSearch, query: string, wrap: (hits: DocHitAnswer[]) => unknown): DocHitAnswer[] {
  const hits: DocHitAnswer[] = [];
  for (const { section, terms } of docs.search(query, CANDIDATES)) {
    const hit = { title: section.title, page: section.page, link: section.file, passage: passage(section.text, terms, PASSAGE_CHARS) };
    if (Buffer.byteLength(JSON.stringify(wrap([...hits, hit]))) <= MAX_ANSWER_BYTES) hits.push(hit);
    if (hits.length === HITS) break;
  }
  return hits;
}
