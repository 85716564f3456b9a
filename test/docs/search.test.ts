// The one index and ranking of the docs (src/lib/docs-sections.ts, src/lib/docs-search.ts): every
// section the build recorded reads back with its text at an anchor its page has, Markdown becomes
// the text the passages are cut from, and a passage is whole sentences or whole lines. What
// the site and payin-mcp answer from it is tested in site.test.ts and test/mcp/docs.test.ts.
import { readFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { eventsMarkdown } from "../../scripts/docs/events-reference.ts";
import { headings } from "../../scripts/docs/links.ts";
import { siteSections } from "../../scripts/docs/search-sections.ts";
import { guides, guidesDir } from "../../scripts/docs/pages.ts";
import { root } from "../../scripts/lib/paths.ts";
import { createDocsSearch, passage } from "../../src/lib/docs-search.ts";
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
