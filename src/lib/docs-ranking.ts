// The docs' ranking: BM25+ over a few fields of each document, every word of a query found as
// itself, by the longer words it starts (weighed less the longer they are) and by the words a
// few letters away (weighed less still), a document's score the sum over the words it matched
// times how many of them it matched. It is MiniSearch's ranking (7.2: the same formula, weights,
// field lengths and running average) written out for one index built once, small enough to scan
// its words for each query: the search needs nothing installed, in Node or in the docs site.

export interface RankingOptions<Document> {
  /** The fields searched, each a string or absent. */
  fields: readonly string[];
  tokenize(text: string): string[];
  /** A token as the index keeps it, or null to leave it out. */
  processTerm(token: string): string | null;
  /** How much a match in a field counts (1 unless said). */
  boost: Readonly<Record<string, number>>;
  /** How much a word found by its start, or a few letters away, counts beside the word itself. */
  weights: { prefix: number; fuzzy: number };
  /** The share of a query word's letters that may differ in a word found a few letters away. */
  fuzzy: number;
  /** How much each match in a document counts. */
  boostDocument(document: Document): number;
}

export interface Ranked {
  /** The document's index in the list given. */
  id: number;
  score: number;
  /** The words of the document that matched. */
  terms: string[];
}

/** BM25+'s parameters, MiniSearch's. */
const K = 1.2;
const B = 0.7;
const D = 0.5;
/** The most letters a word found a few letters away may differ by, however long the query word. */
const MAX_FUZZY = 6;

/** BM25+ of one word in one field of one document. */
function bm25(frequency: number, matching: number, documents: number, length: number, averageLength: number): number {
  const inverse = Math.log(1 + (documents - matching + 0.5) / (matching + 0.5));
  return inverse * (D + (frequency * (K + 1)) / (frequency + K * (1 - B + (B * length) / averageLength)));
}

/** The edit distance of two words (insertions, deletions, substitutions), or `max + 1` once it is sure to pass `max`. */
function distance(a: string, b: string, max: number): number {
  if (Math.abs(a.length - b.length) > max) return max + 1;
  let row = Array.from({ length: b.length + 1 }, (_, j) => j);
  for (let i = 1; i <= a.length; i++) {
    const next = [i];
    let least = i;
    for (let j = 1; j <= b.length; j++) {
      next[j] = Math.min(row[j]! + 1, next[j - 1]! + 1, row[j - 1]! + (a[i - 1] === b[j - 1] ? 0 : 1));
      least = Math.min(least, next[j]!);
    }
    if (least > max) return max + 1;
    row = next;
  }
  return row[b.length]!;
}

export function createRanking<Document>(documents: readonly Document[], options: RankingOptions<Document>) {
  const { fields, tokenize, processTerm } = options;
  /** Each word: for each field, the documents that have it and how often. */
  const index = new Map<string, Array<Map<number, number> | undefined>>();
  /** Each document's length in each field: its distinct tokens, as they came (MiniSearch's count). */
  const lengths: number[][] = [];
  const averages: number[] = fields.map(() => 0);
  documents.forEach((document, id) => {
    lengths[id] = [];
    fields.forEach((field, f) => {
      const value = (document as Record<string, unknown>)[field];
      if (value === undefined || value === null) return;
      const tokens = tokenize(String(value));
      const length = new Set(tokens).size;
      lengths[id]![f] = length;
      // A running average over the documents so far, those without the field counted as MiniSearch counts them.
      averages[f] = (averages[f]! * id + length) / (id + 1);
      for (const token of tokens) {
        const term = processTerm(token);
        if (!term) continue;
        const postings = index.get(term) ?? index.set(term, []).get(term)!;
        const inField = postings[f] ?? (postings[f] = new Map());
        inField.set(id, (inField.get(id) ?? 0) + 1);
      }
    });
  });
  const boosts = fields.map((field) => options.boost[field] ?? 1);

  type Partial = { score: number; queried: Set<string>; matched: Set<string> };
  /** Adds what `term` of the documents scores, found for the query word `word` with `weight`, to `results`. */
  function score(word: string, term: string, weight: number, results: Map<number, Partial>) {
    const postings = index.get(term)!;
    fields.forEach((_, f) => {
      const inField = postings[f];
      if (!inField) return;
      for (const [id, frequency] of inField) {
        const raw = bm25(frequency, inField.size, documents.length, lengths[id]![f]!, averages[f]!);
        const weighted = weight * boosts[f]! * options.boostDocument(documents[id]!) * raw;
        const result = results.get(id) ?? results.set(id, { score: 0, queried: new Set(), matched: new Set() }).get(id)!;
        result.score += weighted;
        result.queried.add(word);
        result.matched.add(term);
      }
    });
  }

  return {
    /** The documents that match `query`, the best first. */
    search(query: string): Ranked[] {
      const words = tokenize(query)
        .map(processTerm)
        .filter((word): word is string => Boolean(word));
      const results = new Map<number, Partial>();
      for (const word of words) {
        if (index.has(word)) score(word, word, 1, results);
        const most = Math.min(MAX_FUZZY, Math.round(word.length * options.fuzzy));
        for (const term of index.keys()) {
          if (term === word) continue;
          if (term.startsWith(word)) {
            const longer = term.length - word.length;
            score(word, term, (options.weights.prefix * term.length) / (term.length + 0.3 * longer), results);
          } else if (most > 0) {
            const away = distance(word, term, most);
            if (away <= most) score(word, term, (options.weights.fuzzy * term.length) / (term.length + away), results);
          }
        }
      }
      return [...results]
        .map(([id, { score, queried, matched }]) => ({ id, score: score * queried.size, terms: [...matched] }))
        .sort((a, b) => b.score - a.score);
    },
  };
}
