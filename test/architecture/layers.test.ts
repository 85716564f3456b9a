// The house's layers, read from the imports of every file in src/: each points down, never up,
// and the tools that check an implementation never import the sandbox they may be checking.
// payin-mcp stands above the tools: it runs the conformance kit's checks through the kit's
// entry, and acts on a sandbox over HTTP only.
import { readdirSync, readFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { root } from "../../scripts/lib/paths.ts";

const src = path.join(root, "src");

/** Layers of src/, bottom first: a file may import from its own layer and those below. */
const PACKAGE_LAYERS = [
  ["lib"],
  ["webhooks"],
  ["client.ts", "retry.ts", "sandbox-client.ts", "index.ts", "package-root.ts"],
  ["testing"],
  ["sandbox", "mock", "conformance", "trigger", "listen"],
  ["mcp"],
];
/** Layers of src/sandbox/, bottom first; its entry points (index.ts, cli.ts) stand above them all. */
const SANDBOX_LAYERS = ["store", "flow", "delivery", "api", "runtime", "edge"];
/** Folders of the same package layer that must not import one another. */
const APART = new Set(["sandbox", "mock", "conformance", "trigger", "listen"]);
/** What payin-mcp may import of the tools below it: the kit's entry, to check an agent's webhook endpoint. */
const MCP_USES = new Set([path.join(src, "conformance", "index.ts")]);

function sourceFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) =>
    entry.isDirectory() ? sourceFiles(path.join(dir, entry.name)) : entry.name.endsWith(".ts") ? [path.join(dir, entry.name)] : [],
  );
}

/** The files of src/ that `file` imports (statically, by type, re-export or import()). */
function importsOf(file: string, text: string): string[] {
  return [
    ...text.matchAll(
      /(?:^|\s)(?:import|export)\b[^;]*?\bfrom\s*["'](\.[^"']+)["']|\bimport\s*\(\s*["'](\.[^"']+)["']\s*\)|^import\s+["'](\.[^"']+)["']/gm,
    ),
  ]
    .map((m) => path.resolve(path.dirname(file), m[1] ?? m[2] ?? m[3]!))
    .filter((target) => target.startsWith(src + path.sep));
}

/** Where a file of src/ stands: its package layer and folder, and its sandbox layer (Infinity for the entry points). */
function placeOf(file: string) {
  const [top, second] = path.relative(src, file).split(path.sep) as [string, string | undefined];
  const packageLayer = PACKAGE_LAYERS.findIndex((layer) => layer.includes(top));
  const sandboxLayer =
    top === "sandbox" ? (second && SANDBOX_LAYERS.includes(second) ? SANDBOX_LAYERS.indexOf(second) : Infinity) : undefined;
  return { top, packageLayer, sandboxLayer };
}

/** Each import that points up, or across folders kept apart, as `from → to`. */
export function upwardImports(graph: ReadonlyArray<[string, string[]]>): string[] {
  return graph.flatMap(([file, targets]) =>
    targets
      .filter((target) => {
        const [from, to] = [placeOf(file), placeOf(target)];
        if (to.packageLayer > from.packageLayer) return true;
        if (from.top !== to.top && APART.has(from.top) && APART.has(to.top)) return true;
        if (from.top === "mcp" && APART.has(to.top) && !MCP_USES.has(target)) return true;
        return from.sandboxLayer !== undefined && to.sandboxLayer !== undefined && to.sandboxLayer > from.sandboxLayer;
      })
      .map((target) => `${path.relative(root, file)} → ${path.relative(root, target)}`),
  );
}

const graph = sourceFiles(src).map((file): [string, string[]] => [file, importsOf(file, readFileSync(file, "utf8"))]);

describe("the layers of src/", () => {
  it("every file of src/ stands in a layer", () => {
    expect(graph.map(([file]) => file).filter((file) => placeOf(file).packageLayer === -1)).toEqual([]);
  });

  it("no import points up, and neither the conformance kit nor payin-trigger imports the sandbox", () => {
    expect(graph.flatMap(([, targets]) => targets).length).toBeGreaterThan(200);
    expect(upwardImports(graph)).toEqual([]);
  });

  it("would catch an import up a layer of the sandbox or the package, from a tool into the sandbox, or from payin-mcp past the kit", () => {
    const at = (file: string) => path.join(src, file);
    expect(
      upwardImports([
        [at("sandbox/store/outbox.ts"), [at("sandbox/flow/clock.ts"), at("sandbox/store/database.ts")]],
        [at("sandbox/api/index.ts"), [at("sandbox/edge/http.ts")]],
        [at("lib/cli.ts"), [at("webhooks/secret.ts")]],
        [at("conformance/cli.ts"), [at("sandbox/flow/defaults.ts"), at("lib/contract-facts.ts")]],
        [at("sandbox/edge/server.ts"), [at("sandbox/store/index.ts"), at("sandbox/api/index.ts")]],
        [at("mcp/tools/endpoint.ts"), [at("conformance/index.ts"), at("conformance/checks/receiver.ts"), at("sandbox/index.ts")]],
      ]),
    ).toEqual([
      "src/sandbox/store/outbox.ts → src/sandbox/flow/clock.ts",
      "src/sandbox/api/index.ts → src/sandbox/edge/http.ts",
      "src/lib/cli.ts → src/webhooks/secret.ts",
      "src/conformance/cli.ts → src/sandbox/flow/defaults.ts",
      "src/mcp/tools/endpoint.ts → src/conformance/checks/receiver.ts",
      "src/mcp/tools/endpoint.ts → src/sandbox/index.ts",
    ]);
  });

  it("the HTTP edge translates HTTP only: no file of edge/ imports the store, the flow or the deliveries", () => {
    const edge = path.join(src, "sandbox", "edge");
    const below = ["store", "flow", "delivery"].map((layer) => path.join(src, "sandbox", layer) + path.sep);
    const edgeFiles = graph.filter(([file]) => file.startsWith(edge));
    expect(edgeFiles.length).toBeGreaterThan(8);
    const reaching = edgeFiles.flatMap(([file, targets]) =>
      targets
        .filter((t) => below.some((layer) => t.startsWith(layer)))
        .map((t) => `${path.relative(root, file)} → ${path.relative(root, t)}`),
    );
    expect(reaching).toEqual([]);
  });

  it("the application lives in the runtime: no file of edge/ runs a timer, the due work, the sweep or a store of its own", () => {
    const edge = graph.filter(([file]) => file.startsWith(path.join(src, "sandbox", "edge")));
    const words = ["setInterval", "new Store", "Dispatcher", "runDueWork", "deleteIdleAccounts"];
    const found = edge.flatMap(([file]) =>
      words.filter((word) => readFileSync(file, "utf8").includes(word)).map((word) => `${path.relative(root, file)}: ${word}`),
    );
    expect(found).toEqual([]);
  });

  it("every operation is reached through the service entry: only api/execute.ts imports the handlers", () => {
    const handlers = path.join(src, "sandbox", "api", "index.ts");
    const importers = graph.filter(([, targets]) => targets.includes(handlers)).map(([file]) => path.relative(root, file));
    expect(importers).toEqual(["src/sandbox/api/execute.ts"]);
  });

  it("only delivery wakes the dispatcher: no file outside delivery/ calls wake", () => {
    const delivery = path.join(src, "sandbox", "delivery") + path.sep;
    const waking = graph.map(([file]) => file).filter((file) => /\.wake\(/.test(readFileSync(file, "utf8")));
    expect(waking.length).toBeGreaterThan(0);
    expect(waking.filter((file) => !file.startsWith(delivery)).map((file) => path.relative(root, file))).toEqual([]);
  });
});
