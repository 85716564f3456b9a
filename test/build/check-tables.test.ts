// How the build writes a table into a guide's Markdown: between markers it can find again.
import { describe, expect, it } from "vitest";
import { receiverChecksTable, serviceChecksTable, withWrittenSection } from "../../scripts/lib/check-tables.ts";

const START = "<!-- checks: written by npm run build from src/; do not edit -->";

describe("withWrittenSection", () => {
  it("puts the content, between its markers, in place of a bare placeholder", () => {
    expect(withWrittenSection("# Guide\n\n<!-- checks -->\n\nAfter.\n", "checks", "| a |", "src/")).toBe(
      `# Guide\n\n${START}\n\n| a |\n\n<!-- /checks -->\n\nAfter.\n`,
    );
  });

  it("replaces what it wrote before, and nothing around it", () => {
    const once = withWrittenSection("Before.\n<!-- checks -->\nAfter.\n", "checks", "| old |\n| rows |", "src/");
    expect(withWrittenSection(once, "checks", "| new |", "src/")).toBe(`Before.\n${START}\n\n| new |\n\n<!-- /checks -->\nAfter.\n`);
  });

  it("leaves the other sections alone", () => {
    const text = "<!-- one -->\n<!-- two -->\n";
    expect(withWrittenSection(text, "two", "2", "src/")).toBe(
      "<!-- one -->\n<!-- two: written by npm run build from src/; do not edit -->\n\n2\n\n<!-- /two -->\n",
    );
  });

  it.each([
    ["no marker", "# Guide\n", 0],
    ["two markers", "<!-- checks -->\n<!-- checks -->\n", 2],
  ])("refuses Markdown with %s", (_, text, found) => {
    expect(() => withWrittenSection(text, "checks", "x", "src/")).toThrow(
      `expected one <!-- checks --> marker in the Markdown, found ${found}`,
    );
  });
});

describe("the tables", () => {
  it("list each service check with what the target must offer for it", () => {
    expect(
      serviceChecksTable([
        { id: "a.b", name: "does b", needs: ["state", "control"] },
        { id: "a.c", name: "does c" },
      ]),
    ).toBe("| id | what it checks | needs |\n|---|---|---|\n| `a.b` | does b | state, control |\n| `a.c` | does c |  |");
  });

  it("list each receiver check as required or advisory", () => {
    expect(
      receiverChecksTable([
        { id: "r.a", name: "refuses a" },
        { id: "r.b", name: "takes b", advisory: true },
      ]),
    ).toBe("| id | what it checks | |\n|---|---|---|\n| `r.a` | refuses a | required |\n| `r.b` | takes b | advisory |");
  });
});
