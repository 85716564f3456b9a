// The code groups of the guides (scripts/docs/code-groups.ts): each language's snippet comes from
// its sample's own file, between marker comments. While a sample's folder is not in the
// repository the site's build leaves its tab out, and this test fails, naming what is missing.
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { codeGroupHtml, groupsOf, markerLines, readSnippets, SAMPLE_LANGUAGES, sampleSnippets } from "../../scripts/docs/code-groups.ts";
import { guidePage } from "../../scripts/docs/guides.ts";
import { guides, guidesDir } from "../../scripts/docs/pages.ts";
import { root } from "../../scripts/lib/paths.ts";

const groups = [...new Set(guides.flatMap(({ source }) => groupsOf(readFileSync(path.join(root, guidesDir, source), "utf8"))))].sort();

const scratch = mkdtempSync(path.join(tmpdir(), "payin-code-groups-"));
afterAll(() => rmSync(scratch, { recursive: true, force: true }));

/** A sample folder of these files, in the scratch folder. */
function sample(name: string, files: Record<string, string | Buffer>): string {
  const folder = path.join(scratch, name);
  for (const [file, text] of Object.entries(files)) {
    mkdirSync(path.dirname(path.join(folder, file)), { recursive: true });
    writeFileSync(path.join(folder, file), text);
  }
  return folder;
}

describe("the code groups' samples", () => {
  it("the guides have the groups the samples mark: checkout and handler in the Quickstart, verify in the webhook guide", () => {
    expect(groups).toEqual(["checkout", "handler", "verify"]);
  });

  it.each(SAMPLE_LANGUAGES.map((language) => [language.label, language] as const))(
    "%s: its sample is in the repository, with every snippet the guides show",
    (_, language) => {
      const snippets = sampleSnippets(language);
      const markers = groups.map((name) => markerLines(language, name).join(" … ")).join(", ");
      expect(
        snippets,
        `${language.folder}/ is not in the repository yet: the docs site shows no ${language.label} tab until it is, ` +
          `with ${markers} around what each group shows`,
      ).toBeDefined();
      expect(groups.filter((name) => !snippets!.get(name)?.code.trim())).toEqual([]);
    },
  );

  it("a snippet is its lines between the markers: dedented, without the markers nested in it, from a file of any name", () => {
    const folder = sample("any-name", {
      checkout: [
        "#!/usr/bin/env python3",
        "def main():",
        "    # docs:checkout:start",
        "    a = 1",
        "",
        "    # docs:inner:start",
        "    b = 2",
        "    # docs:inner:end",
        "    # docs:checkout:end",
      ].join("\n"),
      "src/Handler.java": "class A {\n\t// docs:handler:start\n\tvoid handle() {\n\t\trun();\n\t}\n\t// docs:handler:end\n}\n",
      "node_modules/x/index.js": "// docs:handler:start\nnot the sample's\n// docs:handler:end\n",
      "build/merchant/Handler.java": "// docs:handler:start\na build's copy\n// docs:handler:end\n",
      ".hidden/a.py": "# docs:hidden:start\nx\n# docs:hidden:end\n",
      "bin/start": Buffer.from([0x7f, 0x45, 0x4c, 0x46, 0, 0x23, 0x20]),
    });
    const snippets = readSnippets(folder);
    expect(Object.fromEntries([...snippets].map(([name, { code }]) => [name, code]))).toEqual({
      checkout: "a = 1\n\nb = 2",
      inner: "b = 2",
      handler: "void handle() {\n\trun();\n}",
    });
    expect(snippets.get("handler")!.file).toBe(path.relative(root, path.join(folder, "src/Handler.java")));
  });

  it.each([
    ["a start without its end", { "a.py": "# docs:verify:start\nx\n" }, /a\.py:1: docs:verify:start without a docs:verify:end after it/],
    ["an end without its start", { "a.go": "x\n// docs:verify:end\n" }, /a\.go:2: docs:verify:end without a docs:verify:start before it/],
    [
      "a name marked twice",
      { "a.rb": "# docs:verify:start\n# docs:verify:end\n", "b.rb": "# docs:verify:start\n# docs:verify:end\n" },
      /b\.rb:1: docs:verify:start again: a snippet is marked once in a sample \(the first is in .*a\.rb\)/,
    ],
  ])("refuses %s, naming the file and the line", (name, files, message) => {
    expect(() => readSnippets(sample(name.replaceAll(" ", "-"), files))).toThrow(message);
  });

  it("a group is a tab and a panel a language, TypeScript first and shown, each sample's naming its file", () => {
    const html = codeGroupHtml(
      "handler",
      "const a = 1;",
      [{ language: SAMPLE_LANGUAGES[0]!, snippet: { file: "examples/merchant-python/handler.py", code: "a = 1" } }],
      (code, highlight) => `<pre><code class="language-${highlight}">${code}</code></pre>\n`,
    );
    expect([...html.matchAll(/role="tab"[^>]*data-lang="(\w+)">(\w+)</g)].map((m) => [m[1], m[2]])).toEqual([
      ["typescript", "TypeScript"],
      ["python", "Python"],
    ]);
    expect(html).toContain('data-lang="typescript">\n<pre><code class="language-ts">const a = 1;</code></pre>');
    expect(html).toContain(
      'data-lang="python" data-sample hidden>\n<p class="code-source">From <code>examples/merchant-python/handler.py</code></p>\n' +
        '<pre><code class="language-python">a = 1</code></pre>',
    );
  });

  it("a guide's page shows each group with a tab for each sample that has it", () => {
    const quickstart = guides.find((g) => g.source === "quickstart.md")!;
    const html = guidePage(quickstart, "0.0.0");
    const present = SAMPLE_LANGUAGES.filter((language) => sampleSnippets(language) !== undefined).map((l) => l.id);
    for (const group of ["checkout", "handler"]) {
      const tabs = new RegExp(`<div class="code-group" data-group="${group}">([\\s\\S]*?)</div>`).exec(html)![1]!;
      expect(
        [...tabs.matchAll(/data-lang="(\w+)"/g)].map((m) => m[1]),
        group,
      ).toEqual(["typescript", ...present]);
    }
  });
});
