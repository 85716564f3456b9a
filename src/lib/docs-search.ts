// The one search of the docs, over the one list of sections (docs-sections.ts cuts them from the
// files the package ships): payin-mcp's search_docs runs it in Node, and the docs site runs the
// same module in the browser (bundled at docs build), so both rank alike and show the same passage.
// The ranking is BM25 over the title, what a guide's code calls, and the text, each word also found
// by the longer words it starts and by those a letter or two away (docs-ranking.ts, MiniSearch's
// ranking written out, so that neither payin-mcp nor the site's script needs a dependency for it);
// what is ours is which words count, that a guide explains what a reference only states, that its
// code's calls say what it shows how to do, and which passage of a section answers.
import { createRanking } from "./docs-ranking.ts";

/** A section of the docs: a guide's or the register's heading and what it holds, an operation, an event or a flow. */
export interface DocSection {
  title: string;
  /** The page it is on, by its title: `Quickstart`, `API reference`. */
  page: string;
  /** A guide explains; the register and the references state. */
  guide: boolean;
  /** Where it is in the installed package: `scripts/docs/guides/quickstart.md#2-where-events-go`. */
  file: string;
  /** A guide's: what the operations its code calls are, by their summaries (`Register or update webhook URL`). */
  about?: string;
  /** Its text: blocks apart by a blank line; the lines of code, lists and tables each on a line of their own. */
  text: string;
}

export interface DocHit<Section extends DocSection = DocSection> {
  section: Section;
  /** The words of the section that matched, as the index has them (lower case). */
  terms: string[];
}

/** Words too common to find anything by: left out of the index and of queries. */
const STOP_WORDS = new Set(
  [
    "a an and are as at be by can do does for from has have how i in is it its me my of on or",
    "that the this to was were what when where which will with you your",
  ]
    .join(" ")
    .split(" "),
);

/** Words apart: spaces, punctuation and symbols (a backtick, a pipe) end a word. */
const tokenize = (text: string) => text.split(/[\p{Z}\p{P}\p{S}\p{Cc}]+/u);

/** A word as the index keeps it, or null for one that finds nothing (a stop word, a single letter, a bare number). */
const indexed = (term: string): string | null => {
  const word = term.toLowerCase();
  return word.length < 2 || STOP_WORDS.has(word) || /^\d+$/.test(word) ? null : word;
};

/**
 * How much more a guide's match counts than a reference's: a short reference titled with the
 * word outscores a guide by about four to one on BM25 alone.
 */
const GUIDE_BOOST = 5;

/** The search of these sections: the best first, at most `limit`. */
export function createDocsSearch<Section extends DocSection>(sections: readonly Section[]) {
  const ranking = createRanking(sections, {
    fields: ["title", "about", "text"],
    tokenize,
    processTerm: indexed,
    // What a guide's code does (`about`: the operations and functions it calls) answers "how do I …" as its heading would.
    boost: { title: 2, about: 3 },
    // Every word may be the start of one, as a reader types, or have a typo; but a longer word
    // that starts with it (`idempotencyKeys` for `idempotency`) or one a letter away counts
    // for little beside the word itself.
    weights: { prefix: 0.1, fuzzy: 0.2 },
    fuzzy: 0.2,
    boostDocument: (section) => (section.guide ? GUIDE_BOOST : 1),
  });
  return {
    search(query: string, limit = 8): Array<DocHit<Section>> {
      return ranking
        .search(query)
        .slice(0, limit)
        .map((result) => ({ section: sections[result.id]!, terms: result.terms }));
    },
  };
}

export type DocsSearch = ReturnType<typeof createDocsSearch<DocSection>>;

/** The words of a text as the index reads them. */
const wordsOf = (text: string) =>
  tokenize(text)
    .map(indexed)
    .filter((word): word is string => word !== null);

/** A text's units: each line of a block of lines (code, a list, a table), each sentence of a paragraph. */
function unitsOf(text: string): Array<{ text: string; block: number; line: boolean }> {
  return text
    .split(/\n{2,}/)
    .flatMap(
      (block, i): Array<{ text: string; block: number; line: boolean }> =>
        block.includes("\n")
          ? block.split("\n").map((line) => ({ text: line, block: i, line: true }))
          : block.split(/(?<=[.!?])\s+(?=[\p{Lu}`"(\d])/u).map((sentence) => ({ text: sentence, block: i, line: false })),
    );
}

/**
 * The passage of `text` that matched: the sentence (or line) with the most of `terms`, then
 * the sentences after and before it in its paragraph while they fit in `maxChars`. Whole
 * sentences only: the one that matched is whole even when it alone is longer.
 */
export function passage(text: string, terms: readonly string[], maxChars: number): string {
  const units = unitsOf(text);
  const wanted = new Set(terms);
  // The most of the words; then a sentence before a line of code, which says less; then the most matches.
  const scores = units.map((unit) => {
    const found = wordsOf(unit.text).filter((w) => wanted.has(w));
    return found.length === 0 ? 0 : new Set(found).size * 100 + (unit.line ? 0 : 50) + found.length;
  });
  const best = scores.indexOf(Math.max(...scores));
  if (best < 0) return "";
  let [from, to] = [best, best];
  let length = units[best]!.text.length;
  const fits = (i: number) => units[i]?.block === units[best]!.block && length + 1 + units[i]!.text.length <= maxChars;
  for (let grew = true; grew; ) {
    grew = false;
    if (fits(to + 1)) length += 1 + units[++to]!.text.length;
    else if (fits(from - 1)) length += 1 + units[--from]!.text.length;
    else break;
    grew = true;
  }
  return units
    .slice(from, to + 1)
    .map((unit) => unit.text)
    .join(units[best]!.line ? "\n" : " ");
}

/** Markdown's marks left in a section's text, as a reader sees them: a code span's backticks, emphasis around words. */
const plain = (text: string) =>
  text.replace(/(`+)([^\n]*?[^`])\1(?!`)/g, "$2").replace(/(^|[\s("])([*_])(?=\S)([^*_\n]*?\S)\2(?=[\s).,;:!?"]|$)/gm, "$1$3");

/** The passage as the docs site shows it under a result: text, without Markdown's marks. */
export const snippet = (text: string, terms: readonly string[], maxChars: number) => plain(passage(text, terms, maxChars));
