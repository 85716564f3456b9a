// Code groups: a snippet of a guide shown in each language a merchant sample is written in, one
// tab a language, the reader's choice applied to every group of every page (site.js). A guide
// marks a group on its TypeScript fence (```ts group=handler); the other languages are taken at
// build time from the samples (examples/merchant-<lang>/), between two marker comments of their
// own (`# docs:handler:start` … `# docs:handler:end`, `//` in Go, Java and PHP), so that what
// the docs show is the code the samples' tests run, never a copy that drifts from it.
import { existsSync, readdirSync, readFileSync, statSync } from "node:fs";
import path from "node:path";
import { root } from "../lib/paths.ts";
import { esc } from "./html.ts";

export interface Language {
  /** The value of `?lang=` and of the panels' `data-lang`. */
  id: string;
  label: string;
  /** The sample, from the repository's root; none for TypeScript, which is the guide's own fence. */
  folder?: string;
  /** How its line comments start, which its markers are. */
  comment: "#" | "//";
  /** highlight.js's name for it. */
  highlight: string;
}

/** The languages of the code groups, in the order of their tabs; the first is the guides' own. */
export const LANGUAGES: readonly Language[] = [
  { id: "typescript", label: "TypeScript", comment: "//", highlight: "ts" },
  { id: "python", label: "Python", folder: "examples/merchant-python", comment: "#", highlight: "python" },
  { id: "go", label: "Go", folder: "examples/merchant-go", comment: "//", highlight: "go" },
  { id: "java", label: "Java", folder: "examples/merchant-java", comment: "//", highlight: "java" },
  { id: "php", label: "PHP", folder: "examples/merchant-php", comment: "//", highlight: "php" },
  { id: "ruby", label: "Ruby", folder: "examples/merchant-ruby", comment: "#", highlight: "ruby" },
];

/** The languages taken from a sample. */
export const SAMPLE_LANGUAGES = LANGUAGES.filter((language): language is Language & { folder: string } => language.folder !== undefined);

/** A fence that is a group: its language, then `group=<name>`. */
export const GROUP_FENCE = /^(\S+)\s+group=([a-z0-9]+(?:-[a-z0-9]+)*)$/;

/** A marker: a line of nothing but a line comment (`#` or `//`) saying `docs:<name>:start` or `:end`. */
const MARKER = /^\s*(?:#|\/\/)\s*docs:([a-z0-9]+(?:-[a-z0-9]+)*):(start|end)\s*$/;

/** Folders of a sample that are not its source: dependencies, builds, caches. */
const NOT_SOURCE = new Set(["node_modules", "vendor", "target", "build", "dist", "out", "venv", "__pycache__"]);
/** A file larger than this, or with a NUL byte, is not source (a compiled binary, a jar). */
const MAX_SOURCE_BYTES = 256 * 1024;

export interface Snippet {
  /** The file it is in, from the repository's root. */
  file: string;
  code: string;
}

/** The text of every source file under `dir`, whatever its name: a sample's scripts (`checkout`) have no extension. */
function sourceFiles(dir: string): Array<[file: string, text: string]> {
  return readdirSync(dir, { withFileTypes: true })
    .filter((entry) => !entry.name.startsWith(".") && !(entry.isDirectory() && NOT_SOURCE.has(entry.name)))
    .sort((a, b) => (a.name < b.name ? -1 : 1))
    .flatMap((entry): Array<[string, string]> => {
      const file = path.join(dir, entry.name);
      if (entry.isDirectory()) return sourceFiles(file);
      if (!entry.isFile() || statSync(file).size > MAX_SOURCE_BYTES) return [];
      const bytes = readFileSync(file);
      return bytes.includes(0) ? [] : [[file, bytes.toString("utf8")]];
    });
}

/** Lines without the indentation they all share, and without blank lines at either end. */
function dedented(lines: string[]): string {
  while (lines.length && !lines[0]!.trim()) lines.shift();
  while (lines.length && !lines.at(-1)!.trim()) lines.pop();
  const indents = lines.filter((line) => line.trim()).map((line) => /^[ \t]*/.exec(line)![0]);
  const shared = indents.reduce((common, indent) => {
    let i = 0;
    while (i < common.length && common[i] === indent[i]) i++;
    return common.slice(0, i);
  }, indents[0] ?? "");
  return lines.map((line) => line.slice(shared.length).trimEnd()).join("\n");
}

/**
 * Every snippet of the source files under `folder` (absolute), by name. A snippet is the lines
 * between its markers, less any other marker among them (snippets may nest). A start without its
 * end, an end without its start, or a name marked twice is an error naming the file and the line.
 */
export function readSnippets(folder: string): Map<string, Snippet> {
  const snippets = new Map<string, Snippet>();
  for (const [file, text] of sourceFiles(folder)) {
    const where = path.relative(root, file).split(path.sep).join("/");
    const lines = text.split(/\r?\n/);
    const open = new Map<string, number>();
    lines.forEach((line, i) => {
      const marker = MARKER.exec(line);
      if (!marker) return;
      const [, name, edge] = marker as unknown as [string, string, "start" | "end"];
      const at = `${where}:${i + 1}`;
      if (edge === "start") {
        if (open.has(name) || snippets.has(name)) {
          const first = snippets.get(name)?.file ?? where;
          throw new Error(`${at}: docs:${name}:start again: a snippet is marked once in a sample (the first is in ${first})`);
        }
        open.set(name, i);
        return;
      }
      const start = open.get(name);
      if (start === undefined) throw new Error(`${at}: docs:${name}:end without a docs:${name}:start before it`);
      open.delete(name);
      const body = lines.slice(start + 1, i).filter((inner) => !MARKER.test(inner));
      snippets.set(name, { file: where, code: dedented(body) });
    });
    for (const [name, start] of open) throw new Error(`${where}:${start + 1}: docs:${name}:start without a docs:${name}:end after it`);
  }
  return snippets;
}

const bySample = new Map<string, Map<string, Snippet> | undefined>();

/** A sample's snippets, read once a build; undefined while its folder is not in the repository. */
export function sampleSnippets(language: Language & { folder: string }): Map<string, Snippet> | undefined {
  if (!bySample.has(language.folder)) {
    const folder = path.join(root, language.folder);
    bySample.set(language.folder, existsSync(folder) ? readSnippets(folder) : undefined);
  }
  return bySample.get(language.folder);
}

/** How a sample's file marks a snippet, in its language's comments. */
export const markerLines = ({ comment }: Language, name: string) =>
  [`${comment} docs:${name}:start`, `${comment} docs:${name}:end`] as const;

/**
 * The group's snippet in a language: from its sample, or undefined while the sample's folder is
 * not there (the docs test fails until it is). A sample that is there without the snippet fails
 * the build, saying what to add where.
 */
export function groupSnippet(language: Language & { folder: string }, name: string, from: string): Snippet | undefined {
  const snippets = sampleSnippets(language);
  if (!snippets) return undefined;
  const snippet = snippets.get(name);
  if (!snippet) {
    const [start, end] = markerLines(language, name);
    throw new Error(
      `${from}: the code group "${name}" shows ${language.label} from ${language.folder}/, which has no snippet "${name}": ` +
        `put the lines to show between "${start}" and "${end}" in one of its files ` +
        `(CONTRIBUTING.md, "Code in every language")`,
    );
  }
  return snippet;
}

/** Each code group the guides' Markdown has, by name: the guides' own fences `ts group=<name>`. */
export function groupsOf(markdown: string): string[] {
  return [...markdown.matchAll(/^ *```(.*)$/gm)].flatMap((m) => {
    const group = GROUP_FENCE.exec(m[1]!.trim());
    return group ? [group[2]!] : [];
  });
}

/**
 * The HTML of a group: a tab a language (TypeScript first, then each sample that is there) and a
 * panel each, TypeScript shown until site.js shows the reader's language. `block` renders a
 * highlighted block as the guides' other fences are.
 */
export function codeGroupHtml(
  name: string,
  typescript: string,
  snippets: ReadonlyArray<{ language: Language; snippet: Snippet }>,
  block: (code: string, highlight: string) => string,
): string {
  const panels = [{ language: LANGUAGES[0]!, snippet: undefined as Snippet | undefined, code: typescript }].concat(
    snippets.map(({ language, snippet }) => ({ language, snippet, code: snippet.code })),
  );
  const id = (language: Language) => `code-${name}-${language.id}`;
  const tabs = panels.map(
    ({ language }, i) =>
      `<button type="button" role="tab" id="${id(language)}-tab" aria-controls="${id(language)}" aria-selected="${i === 0}" ` +
      `tabindex="${i === 0 ? 0 : -1}" data-lang="${language.id}">${esc(language.label)}</button>`,
  );
  const bodies = panels.map(({ language, snippet, code }, i) => {
    const source = snippet ? `<p class="code-source">From <code>${esc(snippet.file)}</code></p>\n` : "";
    const attributes = `${snippet ? " data-sample" : ""}${i === 0 ? "" : " hidden"}`;
    return (
      `<div class="code-panel" role="tabpanel" id="${id(language)}" aria-labelledby="${id(language)}-tab" ` +
      `data-lang="${language.id}"${attributes}>\n${source}${block(code, language.highlight)}</div>`
    );
  });
  return (
    `<div class="code-group" data-group="${name}">\n<div class="code-tabs" role="tablist" aria-label="Language">\n` +
    `${tabs.join("\n")}\n</div>\n${bodies.join("\n")}\n</div>\n`
  );
}
