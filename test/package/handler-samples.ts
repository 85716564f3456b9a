// The webhook handlers of the README and the Quickstart as a reader copies them: the TypeScript
// blocks a document's handler needs, taken from its Markdown (never a copy kept beside it), after
// a prelude that defines what the document leaves to the reader (isProcessed, markProcessed,
// updateOrder) the obvious way. Written into a consumer project, they compile and run there
// against the installed package.
import { readFileSync } from "node:fs";
import path from "node:path";
import { guidesDir } from "../../scripts/docs/pages.ts";
import { root } from "../../scripts/lib/paths.ts";

/** Kept in memory, as a reader's first version would; the check of the endpoint's own failures is what tells a wrong order of calls. */
const PRELUDE = `const processedIds = new Set<string>();
const isProcessed = async (id: string) => processedIds.has(id);
const markProcessed = async (id: string) => void processedIds.add(id);
const updateOrder = async (transaction: { id: string; status: string }) => void transaction;
`;

const LISTEN = ".listen(3000);";

/** The ```ts blocks of a Markdown file, in order: a code group's (```ts group=handler) too. */
function typescriptBlocks(file: string): string[] {
  return [...readFileSync(file, "utf8").matchAll(/^```ts(?: [^\n]*)?\n([\s\S]*?)^```$/gm)].map((m) => m[1]!);
}

export interface HandlerSample {
  name: string;
  /** The program as the reader has it: the prelude and the document's blocks. */
  source: string;
  /** The same, listening on a free loopback port it prints (`listening on PORT`), for a test to reach it. */
  runnable: string;
}

function sample(name: string, blocks: string[]): HandlerSample {
  const source = PRELUDE + blocks.join("\n");
  if (source.split(LISTEN).length !== 2) throw new Error(`${name}: the handler must listen once, with ${LISTEN}`);
  const runnable = source
    .replace(/^createServer\(/m, "const server = createServer(")
    .replace(LISTEN, '.listen(0, "127.0.0.1", () => console.log(`listening on ${(server.address() as { port: number }).port}`));');
  return { name, source, runnable };
}

/** Each document's handler, with the blocks before it that it needs. */
export function handlerSamples(): HandlerSample[] {
  const readme = typescriptBlocks(path.join(root, "README.md"));
  const quickstart = typescriptBlocks(path.join(root, guidesDir, "quickstart.md"));
  const handler = (blocks: string[]) => blocks.find((block) => block.includes("createServer("))!;
  return [
    sample("README.md", [handler(readme)]),
    // The client (1), where events go and the secret (2), the handler (4): the customer and the session (3) are the checks' own.
    sample("quickstart.md", [quickstart[0]!, quickstart[1]!, handler(quickstart)]),
  ];
}
