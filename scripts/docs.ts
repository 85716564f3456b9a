// Builds the documentation site into dist/docs/: an overview, the guides, the API reference
// (Redoc), the events reference (AsyncAPI HTML template), the payin flows (from the Arazzo
// document), the decision register and the bundled documents.
// `node scripts/docs.ts`. Every link is relative and nothing is loaded from another host, so
// the folder can be served from any static host, under any path, or read offline.
import { copyFileSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { buildAsyncapiReference } from "./docs/asyncapi-reference.ts";
import { addCodeSamples, codeSamples } from "./docs/code-samples.ts";
import { docCopy } from "./docs/doc-copy.ts";
import { flowsPage } from "./docs/flows.ts";
import { decisionsPage, readRegister } from "./docs/decisions.ts";
import { guidePage, guides } from "./docs/guides.ts";
import { indexPage } from "./docs/index-page.ts";
import { assertOffline } from "./docs/offline.ts";
import { buildOpenapiReference } from "./docs/openapi-reference.ts";
import { generatedDir, root } from "./lib/paths.ts";

const started = performance.now();
const out = path.join(root, "dist", "docs");
const readJson = (file: string) => JSON.parse(readFileSync(file, "utf8"));

const register = readRegister(readFileSync(path.join(root, "openapi", "DECISIONS.md"), "utf8"));
const known = new Set(register.decisions.map((d) => d.id));
const openapi = readJson(path.join(generatedDir, "openapi.json"));
const asyncapi = readJson(path.join(generatedDir, "asyncapi.json"));
const openapiCopy = docCopy(openapi, "OpenAPI", known);
addCodeSamples(openapiCopy.doc, codeSamples(readJson(path.join(generatedDir, "openapi.dereferenced.json"))));
const asyncapiCopy = docCopy(asyncapi, "AsyncAPI", known);
const sandboxApi = readJson(path.join(generatedDir, "sandbox.json"));
const sandboxCopy = docCopy(sandboxApi, "OpenAPI", known);

rmSync(out, { recursive: true, force: true });
mkdirSync(path.join(out, "diagrams"), { recursive: true });
const work = mkdtempSync(path.join(tmpdir(), "payin-docs-"));
try {
  const openapiInput = path.join(work, "openapi.json");
  const asyncapiInput = path.join(work, "asyncapi.json");
  writeFileSync(openapiInput, JSON.stringify(openapiCopy.doc));
  writeFileSync(asyncapiInput, JSON.stringify(asyncapiCopy.doc));
  const sandboxInput = path.join(work, "sandbox.json");
  writeFileSync(sandboxInput, JSON.stringify(sandboxCopy.doc));
  await Promise.all([
    buildOpenapiReference(openapiInput, path.join(out, "openapi.html"), `${openapi.info.title} ${openapi.info.version}: API reference`),
    buildAsyncapiReference(asyncapiInput, path.join(out, "asyncapi.html"), work),
    buildOpenapiReference(sandboxInput, path.join(out, "sandbox.html"), `${sandboxApi.info.title} ${sandboxApi.info.version}`),
  ]);
} finally {
  rmSync(work, { recursive: true, force: true });
}

const uses = new Map(
  register.decisions.map((d) => [d.id, [...(openapiCopy.uses.get(d.id) ?? []), ...(asyncapiCopy.uses.get(d.id) ?? [])]]),
);
writeFileSync(path.join(out, "index.html"), indexPage(openapi, asyncapi, register.decisions.length));
writeFileSync(path.join(out, "decisions.html"), decisionsPage(register, uses, openapi.info.version));
const flows = readJson(path.join(generatedDir, "payin.arazzo.json"));
const flowSources = { payin: { document: openapi, page: "openapi.html" }, sandbox: { document: sandboxApi, page: "sandbox.html" } };
writeFileSync(path.join(out, "flows.html"), flowsPage(flows, flowSources, openapi.info.version));
for (const guide of guides) writeFileSync(path.join(out, guide.file), guidePage(guide, openapi.info.version));
copyFileSync(new URL("./docs/style.css", import.meta.url), path.join(out, "style.css"));
// The references link diagrams/<name>.svg where their descriptions had mermaid.
for (const diagram of [...openapiCopy.diagrams, ...asyncapiCopy.diagrams, ...sandboxCopy.diagrams])
  writeFileSync(path.join(out, "diagrams", `${diagram.name}.svg`), `${diagram.svg}\n`);
for (const name of ["openapi.yaml", "openapi.json", "asyncapi.yaml", "asyncapi.json", "sandbox.yaml", "sandbox.json", "payin.arazzo.yaml"])
  copyFileSync(path.join(generatedDir, name), path.join(out, name));

const pages = [
  "index.html",
  ...guides.map((g) => g.file),
  "flows.html",
  "openapi.html",
  "asyncapi.html",
  "decisions.html",
  "sandbox.html",
  "style.css",
];
assertOffline(Object.fromEntries(pages.map((name) => [name, readFileSync(path.join(out, name), "utf8")])));

const seconds = ((performance.now() - started) / 1000).toFixed(1);
console.log(`docs: ${path.relative(root, out)}/ (${pages.filter((p) => p.endsWith(".html")).join(", ")}, the bundles) in ${seconds} s`);
