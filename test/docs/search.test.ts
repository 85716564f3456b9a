// The one index and ranking of the docs (src/lib/docs-sections.ts, src/lib/docs-search.ts): every
// section the build recorded reads back with its text at an anchor its page has, Markdown becomes
// the text the passages are cut from, and a passage is whole sentences or whole lines, shown on the
// site as text. The ranking is MiniSearch's, written out so that nothing needs it installed: the
// same order and scores, held here against MiniSearch itself (a devDependency only). What the
// site and payin-mcp answer from it is tested in site.test.ts and test/mcp/docs.test.ts.
import { readFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { eventsMarkdown } from "../../scripts/docs/events-reference.ts";
import { headings } from "../../scripts/docs/links.ts";
import { siteSections } from "../../scripts/docs/search-sections.ts";
import { guides, guidesDir } from "../../scripts/docs/pages.ts";
import { root } from "../../scripts/lib/paths.ts";
import MiniSearch from "minisearch";
import { createRanking } from "../../src/lib/docs-ranking.ts";
import { createDocsSearch, passage, snippet } from "../../src/lib/docs-search.ts";
import { markdownText } from "../../src/lib/docs-sections.ts";

const read = (file: string) => readFileSync(path.join(root, file), "utf8");
const json = (file: string) => JSON.parse(read(`generated/${file}`));
const asyncapi = json("asyncapi.json");
const sections = siteSections({
  openapi: json("openapi.json"),
  sandbox: json("sandbox.json"),
  asyncapi,
  arazzo: json("payin.arazzo.json"),
});

describe("the docs' sections", () => {
  it("each with its text, at a page and anchor the site has: a guide's heading's, an event's heading's", () => {
    expect(sections.filter((s) => !s.text.trim()).map((s) => s.title)).toEqual([]);
    const anchors = new Map([
      ...guides.map(({ source, file }) => [file, headings(read(`${guidesDir}/${source}`)).map((h) => h.id)] as const),
      ["asyncapi.html", headings(eventsMarkdown(asyncapi)).map((h) => h.id)],
    ]);
    const missing = sections.filter(({ href }) => {
      const [page, anchor] = href.split("#");
      return anchor !== undefined && anchors.has(page!) && !anchors.get(page!)!.includes(anchor);
    });
    expect(missing.map((s) => s.href)).toEqual([]);
    expect(sections.find((s) => s.title === "D5: State transitions")).toMatchObject({
      href: "decisions.html#d5",
      file: "openapi/DECISIONS.md#d5-state-transitions",
    });
    expect(new Set(sections.map((s) => s.href.split("#")[0]))).toEqual(
      new Set([...guides.map((g) => g.file), "decisions.html", "openapi.html", "sandbox.html", "asyncapi.html", "flows.html"]),
    );
  });

  it("Markdown as their text: a paragraph a block, a line per code line, list item and table row; links their words", () => {
    const markdown = [
      "Some [linked](sandbox.md#x) **bold**",
      "text on two lines.",
      "",
      "```ts",
      "const a = 1;",
      "```",
      "",
      "```mermaid",
      "graph LR",
      "```",
      "",
      "- one",
      "  goes on",
      "- two",
      "",
      "| a | b |",
      "| --- | --- |",
      "| 1 | `2` |",
      "<!-- a marker -->",
    ].join("\n");
    expect(markdownText(markdown)).toBe(
      ["Some linked bold text on two lines.", "const a = 1;", "- one goes on\n- two", "a | b\n1 | `2`"].join("\n\n"),
    );
  });
});

describe("a passage", () => {
  const text =
    "First sentence about retries. The Idempotency-Key makes a create safe. Last one.\n\nconst key = `Idempotency-Key`;\nsend(key);";

  it("is the sentence with the most of the words, before a line of code that has them too, then its neighbours while they fit", () => {
    expect(passage(text, ["idempotency", "key"], 40)).toBe("The Idempotency-Key makes a create safe.");
    expect(passage(text, ["idempotency", "key"], 60)).toBe("The Idempotency-Key makes a create safe. Last one.");
    // Whole, even when it alone is longer than asked.
    expect(passage(text, ["idempotency"], 10)).toBe("The Idempotency-Key makes a create safe.");
    expect(passage(text, ["const"], 100)).toBe("const key = `Idempotency-Key`;\nsend(key);");
    expect(passage(text, ["const"], 35)).toBe("const key = `Idempotency-Key`;");
  });

  it("is what the search's hit matched: the site's and payin-mcp's first hit and passage for a query are one", () => {
    const [hit] = createDocsSearch(sections).search("register a webhook url", 1);
    expect([hit!.section.href, passage(hit!.section.text, hit!.terms, 200)]).toEqual([
      "quickstart.html#2-where-events-go",
      expect.stringContaining("/webhooks"),
    ]);
  });
});

describe("the ranking", () => {
  it("ranks as MiniSearch, with the same options, does: the same sections, in the same order, with the same scores", () => {
    const tokenize = (text: string) => text.split(/[\p{Z}\p{P}\p{S}\p{Cc}]+/u);
    const processTerm = (term: string) => (term.length < 2 ? null : term.toLowerCase());
    const options = { boost: { title: 2, about: 3 }, weights: { prefix: 0.1, fuzzy: 0.2 } };
    const reference = new MiniSearch<{ id: number }>({
      fields: ["title", "about", "text"],
      tokenize,
      processTerm,
      searchOptions: { ...options, prefix: true, fuzzy: 0.2, boostDocument: (_id, _term, stored) => (stored?.guide ? 5 : 1) },
      storeFields: ["guide"],
    });
    reference.addAll(sections.map((section, id) => ({ id, ...section })));
    const ours = createRanking(sections, {
      fields: ["title", "about", "text"],
      tokenize,
      processTerm,
      ...options,
      fuzzy: 0.2,
      boostDocument: (section) => (section.guide ? 5 : 1),
    });
    const ranked = (results: Array<{ id: number; score: number; terms: string[] }>) =>
      results.slice(0, 10).map(({ id, score, terms }) => ({ id, score: score.toFixed(9), terms: [...terms].sort() }));
    for (const query of ["verify a webhook", "idempotncy", "retry schedule", "transaction-settled", "payin-listen 503", "zzyzx"])
      expect(ranked(ours.search(query)), query).toEqual(ranked(reference.search(query) as never));
  });

  it("finds the Quickstart's handler first for how to verify a webhook: what a guide's code calls says what it shows", () => {
    const [hit] = createDocsSearch(sections).search("how do I verify a webhook", 1);
    expect(hit!.section).toMatchObject({ href: "quickstart.html#4-the-events", about: expect.stringContaining("Verify a webhook") });
  });
});

describe("a snippet, as the site shows a passage", () => {
  it("is text: no code span's backticks, no emphasis' asterisks, and what is not Markdown left as it is", () => {
    const text = "Send the `Idempotency-Key` header, *once*, with ``a `b` c``: a transaction_id, 2 * 3 * 4.";
    expect(snippet(text, ["idempotency"], 200)).toBe("Send the Idempotency-Key header, once, with a `b` c: a transaction_id, 2 * 3 * 4.");
  });
});
