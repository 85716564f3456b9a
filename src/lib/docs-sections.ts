// The docs cut into sections, the one index that the site's search and payin-mcp's search_docs
// rank (docs-search.ts): each guide and the decision register at their headings, each operation
// of the contract and of the sandbox's control API, each event and each payin flow, made from
// the files the package ships, so that it carries each text once. payin-mcp cuts them when it
// starts; the docs site's build cuts the same files with this same code, and adds where each
// section is on the site (scripts/docs/search-sections.ts).
import type { DocSection } from "./docs-search.ts";
import type { Json } from "./json.ts";
import { Slugger } from "./slug.ts";

/** An operation of the sandbox's control API, which the package ships as YAML only: generated/sandbox-operations.ts. */
export interface SandboxOperation {
  method: string;
  path: string;
  operationId: string;
  summary: string;
}

export interface DocSources {
  /** A file of the package, by its path from the package's folder. */
  read(file: string): string;
  /** The guides, by their paths. */
  guides: readonly string[];
  sandboxOperations: readonly SandboxOperation[];
}

/** The first sentence of a description, without its Markdown links. */
export const firstSentence = (text: string) =>
  text
    .replace(/\[([^\]]*)\]\([^)]*\)/g, "$1")
    .replace(/\s+/g, " ")
    .split(/(?<=[.!?])\s(?=[A-Z`])/)[0]!
    .trim();

/** Inline Markdown as text: links and images their words, emphasis dropped; code spans keep their backticks. */
const inline = (text: string) =>
  text
    .replace(/!?\[([^\]]*)\]\([^)]*\)/g, "$1")
    .replace(/(\*\*|__)(?=\S)([\s\S]*?\S)\1/g, "$2")
    .replace(/<!--[\s\S]*?-->/g, "")
    .trim();

const FENCE = /^\s{0,3}(`{3,}|~{3,})\s*([\w-]*)/;

/**
 * Markdown as the sections' text: a block per paragraph, a line per line of code, list item
 * and table row, blocks apart by a blank line; fences, table rules, comments and diagrams left out.
 */
export function markdownText(markdown: string): string {
  const blocks: string[] = [];
  let lines: string[] = [];
  let paragraph = false;
  const end = () => {
    if (lines.length) blocks.push(lines.join(paragraph ? " " : "\n"));
    [lines, paragraph] = [[], false];
  };
  let fence: { mark: string; diagram: boolean } | undefined;
  for (const line of markdown.split("\n")) {
    const fenceLine = FENCE.exec(line);
    if (fence) {
      if (fenceLine?.[1]!.startsWith(fence.mark) && !fenceLine[2]) [fence, lines] = [undefined, fence.diagram ? [] : lines];
      else lines.push(line);
      if (!fence) end();
      continue;
    }
    const text = line.trim();
    const heading = /^#{1,6}\s+(.*)$/.exec(text);
    const item = /^(?:[-*+]|\d+\.)\s+(.*)$/.exec(text);
    const comment = /^<!--.*-->$/.test(text);
    if (fenceLine || !text || heading || comment) end();
    if (fenceLine) fence = { mark: fenceLine[1]!, diagram: fenceLine[2] === "mermaid" };
    else if (heading) blocks.push(inline(heading[1]!));
    else if (text.startsWith("|") || item) {
      if (paragraph) end();
      if (item) lines.push(`- ${inline(item[1]!)}`);
      else if (!/^\|[\s:|-]+\|$/.test(text)) lines.push(inline(text.replace(/^\||\|$/g, "").replace(/\s*\|\s*/g, " | ")));
    } else if (text && !comment) {
      const words = inline(text.replace(/^>\s?/, ""));
      // A line under a list item goes on with it.
      if (lines.length && !paragraph) lines[lines.length - 1] += ` ${words}`;
      else [paragraph, lines] = [true, [...lines, words]];
    }
  }
  end();
  return blocks.filter(Boolean).join("\n\n");
}

interface Cut {
  title: string;
  /** GitHub's anchor of the heading, which the site's pages give it too: every heading slugged in order. */
  anchor: string;
  depth: number;
  /** The Markdown under the heading, to the next cut. */
  body: string;
}

/** A Markdown file cut before each heading of at most `depth` outside code. */
function cutAtHeadings(markdown: string, depth: number): Cut[] {
  const slugger = new Slugger();
  const cuts: Array<Omit<Cut, "body"> & { lines: string[] }> = [];
  let fence: string | undefined;
  for (const line of markdown.split("\n")) {
    const fenceLine = FENCE.exec(line);
    if (fence === undefined && fenceLine) fence = fenceLine[1];
    else if (fence !== undefined && fenceLine?.[1]!.startsWith(fence) && !fenceLine[2]) fence = undefined;
    const heading = fence === undefined ? /^(#{1,6})\s+(.*?)(?:\s+#+)?\s*$/.exec(line) : null;
    if (heading) {
      const anchor = slugger.slug(heading[2]!);
      if (heading[1]!.length <= depth) {
        cuts.push({ title: heading[2]!.replace(/`/g, ""), anchor, depth: heading[1]!.length, lines: [] });
        continue;
      }
    }
    cuts.at(-1)?.lines.push(line);
  }
  return cuts.map(({ lines, ...cut }) => ({ ...cut, body: lines.join("\n") }));
}

/**
 * What the operations a section's code calls are (`payin.POST("/webhooks", …)`: register or
 * update webhook URL): a guide that shows the call answers a query that names the operation,
 * though its heading says what the step is for ("Where events go").
 */
function calledOperations(markdown: string, operations: readonly Operation[]): string {
  const called = [...markdown.matchAll(/\.(GET|POST|PUT|PATCH|DELETE)\(\s*"([^"]+)"/g)].flatMap(([, method, path]) =>
    operations.filter((o) => o.method === method!.toLowerCase() && o.path === path).map((o) => o.summary),
  );
  return [...new Set([...called, ...calledFunctions(markdown)])].join("; ");
}

/**
 * The package's functions a guide's code may call, each as a reader asks for what it does: a
 * section whose code calls `verifyWebhook(` shows how to verify a webhook, though its heading says
 * what the step is for ("The events").
 */
const FUNCTIONS: Record<string, string> = {
  verifyWebhook: "Verify a webhook",
  signWebhook: "Sign a webhook",
  createPayinClient: "Create the client",
  startSandbox: "Start a sandbox",
};

/** What the package's functions a section's code calls (in its code blocks, not its prose nor a comment) do. */
function calledFunctions(markdown: string): string[] {
  const code = [...markdown.matchAll(/^\s{0,3}(`{3,}|~{3,}).*\n([\s\S]*?)^\s{0,3}\1\s*$/gm)]
    .map(([, , lines]) => lines!.replace(/(^|\s)\/\/.*$/gm, ""))
    .join("\n");
  return Object.entries(FUNCTIONS).flatMap(([name, what]) => (new RegExp(`\\b${name}\\(`).test(code) ? [what] : []));
}

interface Operation {
  method: string;
  path: string;
  summary: string;
}

const pointer = (path: string, method: string) => `#/paths/${path.replaceAll("/", "~1")}/${method}`;

/** The contract's operations, each at its JSON pointer in the bundle. */
function operationSections(openapi: Json): DocSection[] {
  return Object.entries<Json>(openapi.paths).flatMap(([path, item]) =>
    Object.entries<Json>(item)
      .filter(([, operation]) => operation?.operationId)
      .map(([method, operation]) => {
        const parameters = (operation.parameters ?? []).map((p: Json) => `- \`${p.name}\`: ${inline(p.description ?? "")}`);
        return {
          title: `${operation.summary} (${method.toUpperCase()} ${path})`,
          page: "API reference",
          guide: false,
          file: `generated/openapi.json${pointer(path, method)}`,
          text: [
            `${method.toUpperCase()} ${path}, operationId \`${operation.operationId}\``,
            markdownText(operation.description ?? ""),
            parameters.join("\n"),
          ]
            .filter(Boolean)
            .join("\n\n"),
        };
      }),
  );
}

/** The descriptions of an object schema's properties, through its `allOf`s, as list items. */
const fieldLines = (schema: Json | undefined): string[] =>
  schema === undefined
    ? []
    : [
        ...Object.entries<Json>(schema.properties ?? {}).flatMap(([name, field]) =>
          field.description ? [`- \`${name}\`: ${inline(field.description)}`] : [],
        ),
        ...(schema.allOf ?? []).flatMap(fieldLines),
      ];

/** The events reference: the rules every delivery follows, the headers each carries, and each event with its data's fields. */
function eventSections(asyncapi: Json): DocSection[] {
  const page = "Events reference";
  const file = "generated/asyncapi.json";
  const messages = Object.entries<Json>(asyncapi.components.messages).filter(([, m]) => m.payload?.allOf);
  const [firstKey, first] = messages[0]!;
  return [
    { title: page, page, guide: false, file, text: markdownText(asyncapi.info.description ?? "") },
    {
      title: "Headers of every delivery",
      page,
      guide: false,
      file: `${file}#/components/messages/${firstKey}/headers`,
      text: [markdownText(first.headers.description ?? ""), fieldLines(first.headers).join("\n")].filter(Boolean).join("\n\n"),
    },
    ...messages.map(([key, message]) => {
      const data = (message.payload.allOf as Json[]).map((part) => part.properties?.data).findLast(Boolean);
      return {
        title: message.name as string,
        page,
        guide: false,
        file: `${file}#/components/messages/${key}`,
        text: [`${message.summary} ${inline(message.payload.description ?? "")}`, fieldLines(data).join("\n")].filter(Boolean).join("\n\n"),
      };
    }),
  ];
}

/** One section per payin flow: what it proves, and its steps. */
function flowSections(arazzo: Json): DocSection[] {
  return (arazzo.workflows as Json[]).map((workflow, i) => ({
    title: workflow.summary,
    page: "The payin flows",
    guide: false,
    file: `generated/payin.arazzo.json#/workflows/${i}`,
    text: [
      `Workflow \`${workflow.workflowId}\``,
      markdownText(workflow.description ?? ""),
      (workflow.steps as Json[]).map((step) => `- ${step.stepId}${step.description ? `: ${inline(step.description)}` : ""}`).join("\n"),
    ]
      .filter(Boolean)
      .join("\n\n"),
  }));
}

/** Every section of the docs, the guides first. */
export function readDocSections({ read, guides, sandboxOperations }: DocSources): DocSection[] {
  const json = (file: string): Json => JSON.parse(read(file));
  const openapi = json("generated/openapi.json");
  const operations: Operation[] = [
    ...Object.entries<Json>(openapi.paths).flatMap(([path, item]) =>
      Object.entries<Json>(item).flatMap(([method, operation]) =>
        operation?.summary ? [{ method, path, summary: operation.summary }] : [],
      ),
    ),
    ...sandboxOperations,
  ];
  const markdownSections = (file: string, depth: number, guide: boolean): DocSection[] => {
    const cuts = cutAtHeadings(read(file), depth);
    const page = cuts.find((cut) => cut.depth === 1)?.title ?? file;
    return cuts.map(({ title, anchor, depth: level, body }) => {
      const about = guide ? calledOperations(body, operations) : "";
      return { title, page, guide, file: level === 1 ? file : `${file}#${anchor}`, ...(about ? { about } : {}), text: markdownText(body) };
    });
  };
  return [
    ...[...guides].sort().flatMap((file) => markdownSections(file, 3, true)),
    ...markdownSections("openapi/DECISIONS.md", 2, false),
    ...operationSections(openapi),
    ...sandboxOperations.map(({ method, path, operationId, summary }) => ({
      title: `${summary} (${method.toUpperCase()} ${path})`,
      page: "Sandbox control API",
      guide: false,
      file: `generated/sandbox.yaml${pointer(path, method)}`,
      text: `${method.toUpperCase()} ${path}, operationId \`${operationId}\``,
    })),
    ...eventSections(json("generated/asyncapi.json")),
    ...flowSections(json("generated/payin.arazzo.json")),
  ];
}
