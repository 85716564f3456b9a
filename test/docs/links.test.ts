// Links where each reader is. The Markdown of the repository (README, CONTRIBUTING, the example
// merchant's README, the guides, the decision register; the installed package ships most of
// them) links to files as they sit in the repository, and to headings by GitHub's anchors. The
// docs site renders the guides and the register with each of those links rewritten to the page
// that file becomes (scripts/docs/links.ts), and its build fails on a link that has none.
// The built site's own links are walked in site.test.ts, which builds it.
import { execFileSync } from "node:child_process";
import { existsSync, readdirSync, readFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { guidePage, guides } from "../../scripts/docs/guides.ts";
import { githubSlug, headings, isExternal, markdownLinks, siteHref, siteMarkdown, Slugger } from "../../scripts/docs/links.ts";
import { guidesDir, sitePages } from "../../scripts/docs/pages.ts";
import { root } from "../../scripts/lib/paths.ts";

const read = (file: string) => readFileSync(path.join(root, file), "utf8");

const markdownFiles = [
  "README.md",
  "CONTRIBUTING.md",
  "examples/merchant/README.md",
  "openapi/DECISIONS.md",
  ...readdirSync(path.join(root, guidesDir))
    .filter((name) => name.endsWith(".md"))
    .map((name) => `${guidesDir}/${name}`),
];

/** A path git ignores (dist/, node_modules/) is on this machine, not in the repository. */
const ignored = (file: string) => {
  try {
    execFileSync("git", ["check-ignore", "-q", file], { cwd: root, stdio: "ignore" });
    return true;
  } catch {
    return false;
  }
};

/** What is wrong with the relative links of one Markdown file, read as the repository has it. */
function repositoryProblems(file: string, text = read(file)): string[] {
  const problems: string[] = [];
  for (const href of new Set(markdownLinks(text))) {
    if (isExternal(href)) continue;
    const problem = (why: string) => problems.push(`${file}: ${href}: ${why}`);
    if (href.startsWith("/")) {
      problem("starts at the root: write it relative to the file");
      continue;
    }
    const hash = href.indexOf("#");
    const filePart = hash < 0 ? href : href.slice(0, hash);
    const anchor = hash < 0 ? "" : decodeURIComponent(href.slice(hash + 1));
    const target = filePart ? path.posix.join(path.posix.dirname(file), decodeURIComponent(filePart)).replace(/\/$/, "") : file;
    if (target === ".." || target.startsWith("../")) problem("leads out of the repository");
    else if (filePart && (!existsSync(path.join(root, target)) || ignored(target))) problem(`${target} is not in the repository`);
    else if (!anchor) continue;
    else if (target.endsWith(".md")) {
      const ids = headings(filePart ? read(target) : text).map((h) => h.id);
      if (!ids.includes(anchor)) problem(`${target} has no heading whose anchor is #${anchor} (${ids.map((id) => `#${id}`).join(", ")})`);
    } else if (!/^L\d+(?:-L\d+)?$/.test(anchor)) problem(`${target} is not Markdown: it has no headings to point at`);
  }
  return problems;
}

describe("links in the repository's Markdown", () => {
  it.each(markdownFiles)("%s: every relative link leads to a file of the repository, each anchor to a heading there", (file) => {
    expect(repositoryProblems(file)).toEqual([]);
  });

  it("the walk tells a broken link from a good one", () => {
    const file = `${guidesDir}/example.md`;
    const broken = [
      "sandbox-guide.html",
      "nowhere.md",
      "sandbox.md#nowhere",
      "../../../openapi/DECISIONS.md#d5",
      "/README.md",
      "../../../dist/docs/index.html",
      "../../../src/index.ts#top",
    ];
    expect(repositoryProblems(file, broken.map((href) => `[x](${href})`).join("\n\n")).map((p) => p.split(": ")[1])).toEqual(broken);
    const good = [
      "sandbox.md#faults-on-demand",
      "#quickstart",
      "../../../openapi/DECISIONS.md#d5-state-transitions",
      "../../../examples/merchant/",
      "../../../src/index.ts#L1-L3",
      "https://example.com/x.html",
    ];
    expect(repositoryProblems(file, `# Quickstart\n\n${good.map((href) => `[x](${href})`).join(" ")}\n`)).toEqual([]);
  });
});

describe("GitHub's anchors, on GitHub and in the site", () => {
  it("githubSlug makes the anchors GitHub makes", () => {
    const cases: [string, string][] = [
      ["Faults on demand", "faults-on-demand"],
      ["1. The client", "1-the-client"],
      ["The sandbox or the mock?", "the-sandbox-or-the-mock"],
      ["In a merchant repository's CI", "in-a-merchant-repositorys-ci"],
      ["D5: State transitions", "d5-state-transitions"],
      ["D10: Register webhook URL: bodies and path prefix", "d10-register-webhook-url-bodies-and-path-prefix"],
      ["Q&A — über_cool", "qa--über_cool"],
      ["Ⅷ ½ ² 😀", "ⅷ---"],
      ["  two  spaces ", "--two--spaces-"],
    ];
    expect(cases.map(([text]) => githubSlug(text))).toEqual(cases.map(([, slug]) => slug));
    const slugger = new Slugger();
    expect(["Next", "Next", "Next-1", "Next"].map((text) => slugger.slug(text))).toEqual(["next", "next-1", "next-1-1", "next-2"]);
  });

  it("a heading's anchor is taken from its text, without its markup", () => {
    expect(headings("# `payin-sandbox` *flags*\n\n## [The sandbox](sandbox.md) &amp; the mock\n\nSetext\n---\n").map((h) => h.id)).toEqual([
      "payin-sandbox-flags",
      "the-sandbox--the-mock",
      "setext",
    ]);
  });

  it.each(guides.map((g) => [g.source, g] as const))("%s: its page gives each heading the anchor GitHub gives it", (source, guide) => {
    const html = guidePage(guide, "0.0.0");
    const ids = [...html.matchAll(/<h[1-6] id="([^"]*)">/g)].map((m) => m[1]);
    const expected = headings(read(`${guidesDir}/${source}`)).map((h) => h.id);
    expect(ids).toEqual(expected);
    expect(expected.length).toBeGreaterThan(1);
  });
});

describe("the site's build rewrites each link to the page its file becomes", () => {
  const from = `${guidesDir}/testing.md`;

  it.each([
    ["sandbox.md", "sandbox-guide.html"],
    ["sandbox.md#faults-on-demand", "sandbox-guide.html#faults-on-demand"],
    ["./quickstart.md#1-the-client", "quickstart.html#1-the-client"],
    ["#the-mock", "#the-mock"],
    ["../../../openapi/DECISIONS.md", "decisions.html"],
    ["../../../openapi/DECISIONS.md#d5-state-transitions", "decisions.html#d5"],
    ["../../../generated/openapi.yaml", "openapi.html"],
    ["../../../openapi/openapi.yaml", "openapi.html"],
    ["../../../generated/asyncapi.yaml", "asyncapi.html"],
    ["../../../asyncapi/asyncapi.yaml", "asyncapi.html"],
    ["../../../openapi/sandbox.yaml", "sandbox.html"],
    ["../../../README.md", "index.html"],
    ["https://github.com/oasdiff/oasdiff", "https://github.com/oasdiff/oasdiff"],
    ["mailto:payments@example.com", "mailto:payments@example.com"],
  ])("%s → %s", (href, page) => {
    expect(siteHref(from, href)).toBe(page);
  });

  it("every file with a page is in the repository", () => {
    expect([...sitePages.keys()].filter((file) => !existsSync(path.join(root, file)))).toEqual([]);
  });

  it.each([
    [
      "sandbox-guide.html",
      /testing\.md: the link "sandbox-guide\.html" leads to scripts\/docs\/guides\/sandbox-guide\.html, which is not in the repository/,
    ],
    [
      "../../../CONTRIBUTING.md",
      /testing\.md: the link "\.\.\/\.\.\/\.\.\/CONTRIBUTING\.md" leads to CONTRIBUTING\.md, which has no page in the site/,
    ],
    [
      "../../../examples/merchant/",
      /the link "\.\.\/\.\.\/\.\.\/examples\/merchant\/" leads to examples\/merchant, which has no page in the site/,
    ],
    [
      "sandbox.md#faults",
      new RegExp(
        [
          /the link "sandbox\.md#faults" points at #faults, which is not one of /.source,
          /scripts\/docs\/guides\/sandbox\.md's headings on GitHub \(#the-sandbox, /.source,
        ].join(""),
      ),
    ],
    ["../../../openapi/DECISIONS.md#d5", /points at #d5, which is not one of openapi\/DECISIONS\.md's headings on GitHub \(#d1-/],
    ["../../../README.md#the-client", /points at #the-client, which is not an anchor that index\.html has/],
    ["/openapi/DECISIONS.md", /starts at the host's root/],
    ["../../../../outside.md", /leads out of the repository/],
  ])("a link to %s fails the build, naming the file and the link", (href, message) => {
    expect(() => siteHref(from, href)).toThrow(message);
    expect(() => siteMarkdown(from)(`# Title\n\nSee [it](${href}).\n`)).toThrow(message);
  });

  it("the build names every broken link of a file at once, and refuses links it cannot rewrite in HTML", () => {
    const render = siteMarkdown(from);
    expect(() => render("[a](a.html) and [b](b.html)\n")).toThrow(/"a\.html"[\s\S]*"b\.html"/);
    expect(() => render('<a href="sandbox.md">the sandbox</a>\n')).toThrow(/"sandbox\.md" is in HTML/);
    expect(render("[The sandbox](sandbox.md#faults-on-demand), [reference](../../../openapi/openapi.yaml)\n")).toBe(
      '<p><a href="sandbox-guide.html#faults-on-demand">The sandbox</a>, <a href="openapi.html">reference</a></p>\n',
    );
  });

  it.each(guides.map((g) => [g.source, g] as const))("%s: every link of its page is a page of the site or leaves it", (_, guide) => {
    const article = /<article class="guide">([\s\S]*)<\/article>/.exec(guidePage(guide, "0.0.0"))![1]!;
    const pages = new Set(sitePages.values());
    const local = [...article.matchAll(/\shref="([^"]*)"/g)].map((m) => m[1]!).filter((href) => !isExternal(href));
    expect(local.filter((href) => !href.startsWith("#") && !pages.has(href.split("#")[0]!))).toEqual([]);
  });
});
