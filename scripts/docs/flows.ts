// "The payin flows" page: each workflow of the Arazzo document (arazzo/payin.arazzo.yaml) drawn as
// a sequence diagram, then what it proves, then its steps, with what each calls (linked to the
// operation in its reference), sends and must see, and the commands that run them. Everything on
// it comes from the document and the two bundles.
import { esc, page } from "./html.ts";
import { siteMarkdown } from "./links.ts";
import { operationAnchor } from "./api-reference.ts";
import { sequenceDiagram } from "./sequence-diagram.ts";

type Json = Record<string, any>;

interface Step {
  stepId: string;
  description?: string;
  operationId?: string;
  workflowId?: string;
  parameters?: Array<{ name: string; in?: string; value: unknown }>;
  requestBody?: { payload?: unknown };
  successCriteria?: Array<{ condition: string; context?: string; type?: string }>;
}

/** The Arazzo document's sources, by name: the bundle each names and the reference page that renders it. */
export interface FlowSources {
  [name: string]: { document: Json; page: string };
}

const render = siteMarkdown("arazzo/payin.arazzo.yaml", { headingIds: false });
/** One paragraph of Markdown, without its `<p>`: a list item's text. */
const inline = (text: string) =>
  render(text)
    .trim()
    .replace(/^<p>([\s\S]*)<\/p>$/, "$1");

export const RUN_COMMANDS = [
  "npx payin-sandbox --port 4010   # in another terminal",
  "npx payin-conformance flows --base-url http://127.0.0.1:4010 --token YOUR_TOKEN --control",
];

/** The method, path and reference anchor of an operation of a bundle. */
function operationOf(document: Json, operationId: string): { method: string; path: string; anchor: string } {
  for (const [path, item] of Object.entries<Json>(document.paths))
    for (const [method, operation] of Object.entries<Json>(item))
      if (operation?.operationId === operationId)
        return { method: method.toUpperCase(), path, anchor: operationAnchor(operation, method, path) };
  throw new Error(`the flows call ${operationId}, which no source document has`);
}

function stepHtml(step: Step, sources: FlowSources): string {
  let call: string;
  if (step.workflowId) call = `runs <a href="#${esc(step.workflowId)}">${esc(step.workflowId)}</a>`;
  else {
    const [, source, operationId] = /^\$sourceDescriptions\.([\w-]+)\.(\w+)$/.exec(step.operationId ?? "") ?? [];
    const from = sources[source!];
    if (!from || !operationId) throw new Error(`step ${step.stepId} calls ${step.operationId}, not an operation of a source`);
    const { method, path, anchor } = operationOf(from.document, operationId);
    call = `<a href="${from.page}#${esc(anchor)}"><code>${method} ${esc(path)}</code></a>`;
  }
  const payload = step.requestBody?.payload;
  const parameters = (step.parameters ?? []).map((p) => `<code>${esc(p.name)}</code> = <code>${esc(String(p.value))}</code>`);
  const criteria = (step.successCriteria ?? []).map((c) =>
    c.type === "regex"
      ? `<code>${esc(c.context ?? "")}</code> matches <code>${esc(c.condition)}</code>`
      : `<code>${esc(c.condition)}</code>`,
  );
  return [
    `<li><strong>${esc(step.stepId)}</strong>: ${call}`,
    step.description ? `<div class="step-description">${render(step.description)}</div>` : "",
    parameters.length ? `<p>with ${parameters.join(", ")}</p>` : "",
    payload === undefined ? "" : `<p>sends <code>${esc(JSON.stringify(payload))}</code></p>`,
    criteria.length ? `<ul class="criteria">${criteria.map((c) => `<li>${c}</li>`).join("")}</ul>` : "",
    "</li>",
  ].join("");
}

/** The page's content from the parsed Arazzo document (aliases resolved) and its sources. */
export function flowsContent(arazzo: Json, sources: FlowSources): string {
  const inputsOf = (workflow: Json): Json => {
    const ref = workflow.inputs?.$ref as string | undefined;
    return ref ? arazzo.components.inputs[ref.split("/").at(-1)!] : (workflow.inputs ?? {});
  };
  const workflows = new Map<string, Json>((arazzo.workflows as Json[]).map((w) => [w.workflowId, w]));
  const summaryOf = (operationId: string) => {
    for (const { document } of Object.values(sources))
      for (const item of Object.values<Json>(document.paths))
        for (const operation of Object.values<Json>(item))
          if (operation?.operationId === operationId) return operation.summary ?? operationId;
    return operationId;
  };
  const sections = (arazzo.workflows as Json[]).map((workflow) => {
    const inputs = Object.entries<Json>(inputsOf(workflow).properties ?? {}).map(
      ([name, schema]) => `<li><code>${esc(name)}</code>: ${inline(schema.description ?? "")}</li>`,
    );
    return [
      `    <section class="workflow" id="${esc(workflow.workflowId)}">`,
      `      <h2><a class="anchor" href="#${esc(workflow.workflowId)}">${esc(workflow.summary)}</a> ` +
        `<code>${esc(workflow.workflowId)}</code></h2>`,
      `      <figure class="sequence-figure">${sequenceDiagram(workflow, summaryOf, workflows)}</figure>`,
      `      <div class="proves"><p class="proves-title">What it proves</p>${render(workflow.description ?? "")}</div>`,
      inputs.length ? `<p>Inputs:</p><ul>${inputs.join("")}</ul>` : "",
      `      <ol class="steps">${(workflow.steps as Step[]).map((step) => stepHtml(step, sources)).join("\n")}</ol>`,
      `    </section>`,
    ].join("\n");
  });
  return [
    `    <h1>${esc(arazzo.info.title)}</h1>`,
    `    <div class="intro">${render(arazzo.info.description ?? "")}</div>`,
    `    <h2 id="run">Run them</h2>`,
    `    <pre><code>${esc(RUN_COMMANDS.join("\n"))}</code></pre>`,
    "    <p>Without <code>--control</code>, only the workflows of the six operations run. The same file with Redocly's own runner " +
      "(give it an <code>https://</code> receiver that verifies signatures):</p>",
    `    <pre><code>${esc(
      "npx @redocly/cli respect node_modules/payin-acceptance-contract/generated/payin.arazzo.yaml \\\n" +
        "  --input token=YOUR_TOKEN --input webhook_url=https://… -S payin=http://127.0.0.1:4010 -S sandbox=http://127.0.0.1:4010",
    )}</code></pre>`,
    ...sections,
  ].join("\n");
}

export const flowsPage = (arazzo: Json, sources: FlowSources, version: string) =>
  page({ file: "flows.html", title: `${arazzo.info.title}: Payin Acceptance Service`, content: flowsContent(arazzo, sources) }, version);
