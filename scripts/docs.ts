// Builds the documentation site into dist/docs/: one site, one header (navigation and search) on
// every page. The overview, the guides, the events reference (from the AsyncAPI document), the
// payin flows (from the Arazzo document) and the decision register are pages of our own; the
// API reference and the sandbox control API are Scalar's, with its try-it client. Beside them:
// every page as Markdown with llms.txt, the search (the sections `npm run build` cut, ranked in
// the browser by the package's own search module), a Postman collection with contract tests,
// and the Arazzo document. `node scripts/docs.ts`. Every link is relative and nothing is loaded
// from another host, so the folder can be served from any static host, under any path.
import { copyFileSync, mkdirSync, readFileSync, readdirSync, rmSync, statSync, writeFileSync } from "node:fs";
import path from "node:path";
import { apiReferencePage, SCALAR_FILE, scalarScript } from "./docs/api-reference.ts";
import { addCodeSamples, codeSamples } from "./docs/code-samples.ts";
import { docCopy } from "./docs/doc-copy.ts";
import { inlineDiagrams } from "./docs/diagrams.ts";
import { decisionsPage, readRegister } from "./docs/decisions.ts";
import { eventsMarkdown } from "./docs/events-reference.ts";
import { flowsPage } from "./docs/flows.ts";
import { guidePage, guides } from "./docs/guides.ts";
import { markdownFile, page, SITE_PAGES } from "./docs/html.ts";
import { indexPage } from "./docs/index-page.ts";
import { siteMarkdown } from "./docs/links.ts";
import { htmlToMarkdown, llmsTxt, withoutNavigation } from "./docs/llms.ts";
import { openapiMarkdown } from "./docs/openapi-markdown.ts";
import { dereferenced } from "./lib/breaking-changes.ts";
import { assertOffline } from "./docs/offline.ts";
import { buildPostmanCollection, POSTMAN_COLLECTION } from "./docs/postman.ts";
import { searchScript } from "./docs/search-script.ts";
import { siteSizes, sizeProblems } from "./docs/size.ts";
import { siteSections } from "./docs/search-sections.ts";
import { generatedDir, root } from "./lib/paths.ts";

const started = performance.now();
const out = path.join(root, "dist", "docs");
const readJson = (file: string) => JSON.parse(readFileSync(path.join(generatedDir, file), "utf8"));

const registerText = readFileSync(path.join(root, "openapi", "DECISIONS.md"), "utf8");
const register = readRegister(registerText);
const known = new Set(register.decisions.map((d) => d.id));
const openapi = readJson("openapi.json");
const asyncapi = readJson("asyncapi.json");
const sandboxApi = readJson("sandbox.json");
const version = openapi.info.version;
const openapiCopy = docCopy(openapi, "OpenAPI", known);
addCodeSamples(openapiCopy.doc, codeSamples(readJson("openapi.dereferenced.json")));
const asyncapiCopy = docCopy(asyncapi, "AsyncAPI", known);
const sandboxCopy = docCopy(sandboxApi, "OpenAPI", known);

rmSync(out, { recursive: true, force: true });
mkdirSync(path.join(out, "diagrams"), { recursive: true });
const write = (name: string, text: string) => writeFileSync(path.join(out, name), text);
// Portman takes a few seconds: it runs while the pages are made.
const postman = buildPostmanCollection(path.join(generatedDir, "openapi.json"), path.join(out, POSTMAN_COLLECTION));

/** Each page of our own: its HTML, and the main content that its Markdown twin and its search sections come from. */
const own = new Map<string, { html: string; main: string }>();
const addPage = (file: string, html: string) => {
  const main = /<main[^>]*>([\s\S]*)<\/main>/.exec(html)![1]!;
  own.set(file, { html, main });
};
addPage("index.html", indexPage(openapi, asyncapi));
for (const guide of guides) addPage(guide.file, guidePage(guide, version));
// Its Markdown (the page's twin) links the drawn diagrams as images; the page shows them as figures.
const eventsHtml = inlineDiagrams(
  siteMarkdown("asyncapi/asyncapi.yaml", { rewriteLinks: false })(eventsMarkdown(asyncapiCopy.doc)),
  asyncapiCopy.diagrams,
);
addPage(
  "asyncapi.html",
  page(
    {
      file: "asyncapi.html",
      title: "Events reference: Payin Acceptance Service",
      content: `    <article class="guide">\n${eventsHtml}    </article>`,
    },
    version,
  ),
);
const flowSources = { payin: { document: openapi, page: "openapi.html" }, sandbox: { document: sandboxApi, page: "sandbox.html" } };
addPage("flows.html", flowsPage(readJson("payin.arazzo.json"), flowSources, version));
const uses = new Map(
  register.decisions.map((d) => [d.id, [...(openapiCopy.uses.get(d.id) ?? []), ...(asyncapiCopy.uses.get(d.id) ?? [])]]),
);
addPage("decisions.html", decisionsPage(register, uses, version));

const references = [
  { file: "openapi.html", title: `${openapi.info.title} ${version}: API reference`, document: openapiCopy.doc },
  { file: "sandbox.html", title: `${sandboxApi.info.title} ${sandboxApi.info.version}`, document: sandboxCopy.doc },
];

for (const [file, { html, main }] of own) {
  write(file, html);
  // The register is Markdown already.
  write(markdownFile(file), file === "decisions.html" ? registerText : htmlToMarkdown(withoutNavigation(main)));
}
for (const { file, title, document } of references) {
  write(file, apiReferencePage(file, title, document, version));
  write(markdownFile(file), openapiMarkdown(await dereferenced(document)));
}
// The sections payin-mcp searches too, cut from the same files by the same code: one index, ranked alike.
write("search-index.json", JSON.stringify(siteSections({ openapi, sandbox: sandboxApi, asyncapi, arazzo: readJson("payin.arazzo.json") })));
write("search.js", await searchScript());
write(
  "llms.txt",
  llmsTxt(
    "Payin Acceptance Service",
    `The contract of the Payin Acceptance Service (version ${version}) and the npm package payin-acceptance-contract: ` +
      "create a PAYIN counterparty, create a payment session, send the customer to its payment_link, follow seven webhook events.",
    ["Guides", "Reference"].map((group) => ({
      heading: group,
      entries: SITE_PAGES.filter((p) => p.group === group).map(({ file, title, summary }) => ({
        title,
        markdown: markdownFile(file),
        summary,
      })),
    })),
  ),
);
// Where try-it sends requests by default: `npm start`'s sandbox (it serves its own address here).
write("try-it.json", `${JSON.stringify({ sandbox: "http://127.0.0.1:4010" })}\n`);

// Browser builds that the packages ship but do not export: read from their folders.
const shipped = (file: string) => path.join(root, "node_modules", file);
write(SCALAR_FILE, scalarScript());
copyFileSync(shipped("highlight.js/styles/github-dark.min.css"), path.join(out, "highlight.css"));
for (const name of ["style.css", "site.js", "reference.js"]) copyFileSync(new URL(`./docs/${name}`, import.meta.url), path.join(out, name));
// The references link diagrams/<name>.svg where their descriptions had mermaid.
for (const diagram of [...openapiCopy.diagrams, ...asyncapiCopy.diagrams, ...sandboxCopy.diagrams])
  write(path.join("diagrams", `${diagram.name}.svg`), `${diagram.svg}\n`);
// The flows page's document. The others are the package's exports (and the API reference offers
// its document for download), so that the site stays under its size.
copyFileSync(path.join(generatedDir, "payin.arazzo.yaml"), path.join(out, "payin.arazzo.yaml"));
await postman;

const files = readdirSync(out, { recursive: true, encoding: "utf8" }).filter((name) => statSync(path.join(out, name)).isFile());
assertOffline(Object.fromEntries(files.filter((f) => /\.(html|css|js)$/.test(f)).map((f) => [f, readFileSync(path.join(out, f), "utf8")])));
const sizes = siteSizes(out);
const tooBig = sizeProblems(sizes);
if (tooBig.length > 0) throw new Error(tooBig.join("; "));
const bytes = sizes.scalar + sizes.rest;

const seconds = ((performance.now() - started) / 1000).toFixed(1);
console.log(`docs: ${path.relative(root, out)}/ (${SITE_PAGES.length} pages, ${(bytes / 2 ** 20).toFixed(2)} MiB) in ${seconds} s`);
