// What payin-mcp knows without a service: the package's own documents and guides, read from the
// installed package. Schemas come from the bundled contract, their `$ref`s written in, so that a
// tool's input schema and get_schema's answer are the contract's, never written again; the docs
// are cut at their headings into sections that search_docs scores.
import { readdirSync, readFileSync } from "node:fs";
import path from "node:path";
import { packageRoot } from "../package-root.ts";

type Json = Record<string, any>;

const root = packageRoot(import.meta.url);
const readJson = (file: string): Json => JSON.parse(readFileSync(path.join(root, file), "utf8"));
export const openapi = readJson("generated/openapi.json");

/** A schema of the contract with every local `$ref` written in (the contract has no cycles), and its `x-` and `title` keys left out. */
export function inlined(schema: unknown): any {
  if (Array.isArray(schema)) return schema.map(inlined);
  if (typeof schema !== "object" || schema === null) return schema;
  const { $ref, ...rest } = schema as Json;
  const base =
    typeof $ref === "string"
      ? inlined(
          $ref
            .slice(2)
            .split("/")
            .reduce((at: Json, key) => at[key], openapi),
        )
      : {};
  const own = Object.fromEntries(
    Object.entries(rest)
      .filter(([key]) => !key.startsWith("x-") && key !== "title")
      .map(([key, value]) => [key, key === "examples" || key === "example" ? value : inlined(value)]),
  );
  return { ...base, ...own };
}

export const componentSchema = (name: string) => inlined(openapi.components.schemas[name]);

/** The operation of the contract with that operationId, or at that path (its first method). */
export function findOperation(name: string): { method: string; path: string; operation: Json } | undefined {
  for (const [route, item] of Object.entries<Json>(openapi.paths))
    for (const [method, operation] of Object.entries<Json>(item))
      if (operation?.operationId === name || route === name || route === `${name}/` || `${method.toUpperCase()} ${route}` === name)
        return { method, path: route, operation };
  return undefined;
}

/** A section of the docs: where it is (a file of the package and its heading's anchor), its title and its text. */
export interface DocSection {
  link: string;
  title: string;
  text: string;
  /** Guides explain; references state: a guide's match counts more. */
  guide: boolean;
}

const slug = (heading: string) =>
  heading
    .toLowerCase()
    .replace(/[^\w\s-]/g, "")
    .trim()
    .replace(/\s+/g, "-");

/** A Markdown file cut before each `#`, `##` or `###` heading. */
function markdownSections(file: string, guide: boolean): DocSection[] {
  const text = readFileSync(path.join(root, file), "utf8");
  return text
    .split(/^(?=#{1,3} )/m)
    .filter((part) => /^#{1,3} /.test(part))
    .map((part) => {
      const [heading, ...body] = part.split("\n");
      const title = heading!.replace(/^#+\s*/, "").trim();
      return { link: `${file}#${slug(title)}`, title, text: body.join("\n").trim(), guide };
    });
}

/** Every section search_docs looks in: the guides, the decision register, each operation, each event. */
export const docSections: readonly DocSection[] = [
  ...readdirSync(path.join(root, "scripts/docs/guides"))
    .filter((file) => file.endsWith(".md"))
    .flatMap((file) => markdownSections(`scripts/docs/guides/${file}`, true)),
  ...markdownSections("openapi/DECISIONS.md", false),
  ...Object.entries<Json>(openapi.paths).flatMap(([route, item]) =>
    Object.entries<Json>(item).map(([method, operation]) => ({
      link: `generated/openapi.json#/paths/${route.replaceAll("/", "~1")}/${method}`,
      title: `${operation.summary} (${method.toUpperCase()} ${route}, ${operation.operationId})`,
      text: operation.description ?? "",
      guide: false,
    })),
  ),
  ...Object.entries<Json>(openapi.webhooks ?? {}).map(([type, item]) => ({
    link: `generated/openapi.json#/webhooks/${type}`,
    title: `The ${type} event`,
    text: `${item.post?.summary ?? ""}\n${item.post?.description ?? ""}`,
    guide: false,
  })),
];

const words = (text: string) => text.toLowerCase().match(/[a-z0-9_]{2,}/g) ?? [];

/** The sections that match the query best: each word found in a title counts thrice, in the text once, in a guide double. */
export function searchDocs(query: string, limit = 4): DocSection[] {
  const terms = [...new Set(words(query))];
  const scored = docSections.map((section) => {
    const title = words(section.title);
    const text = words(section.text);
    const score = terms.reduce(
      (sum, term) => sum + 3 * title.filter((w) => w.startsWith(term)).length + text.filter((w) => w.startsWith(term)).length,
      0,
    );
    const covered = terms.every((term) => title.some((w) => w.startsWith(term)) || text.some((w) => w.startsWith(term)));
    return { section, score: covered ? score * (section.guide ? 2 : 1) : 0 };
  });
  return scored
    .filter((s) => s.score > 0)
    .sort((a, b) => b.score - a.score)
    .slice(0, limit)
    .map((s) => s.section);
}

/** The documents and guides offered as resources: their URI, name, type and file. */
export const RESOURCES = [
  {
    uri: "payin://contract/openapi.json",
    name: "The contract (OpenAPI 3.1)",
    mimeType: "application/json",
    file: "generated/openapi.json",
  },
  {
    uri: "payin://contract/asyncapi.json",
    name: "The webhook events (AsyncAPI 3)",
    mimeType: "application/json",
    file: "generated/asyncapi.json",
  },
  {
    uri: "payin://contract/payin.arazzo.yaml",
    name: "The payin flows (Arazzo)",
    mimeType: "application/yaml",
    file: "generated/payin.arazzo.yaml",
  },
  { uri: "payin://docs/decisions.md", name: "The decision register", mimeType: "text/markdown", file: "openapi/DECISIONS.md" },
  ...readdirSync(path.join(root, "scripts/docs/guides"))
    .filter((file) => file.endsWith(".md"))
    .map((file) => ({
      uri: `payin://docs/${file}`,
      name: `Guide: ${/^# (.+)$/m.exec(readFileSync(path.join(root, "scripts/docs/guides", file), "utf8"))?.[1] ?? file}`,
      mimeType: "text/markdown",
      file: `scripts/docs/guides/${file}`,
    })),
];

export const readResource = (file: string) => readFileSync(path.join(root, file), "utf8");
