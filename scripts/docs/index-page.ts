// The landing page. Its tables are read from the bundles, so that a new operation or event
// shows up here without anyone editing the template.
import { decisionHref } from "./decision-links.ts";
import { diagramsIn, type Diagram } from "./diagrams.ts";
import { resolveRef, type Json } from "../../src/lib/json.ts";
import { operationsOf } from "../lib/openapi.ts";
import { esc, fill, page, SITE_PAGES } from "./html.ts";

const decisionLink = (node: Json) => {
  const id = node["x-decision"];
  return typeof id === "string" ? ` <a class="decision" href="${decisionHref(id)}">${esc(id)}</a>` : "";
};

function operationRows(openapi: Json): string[] {
  return operationsOf(openapi).map(
    ({ path: route, method, operation: op }) =>
      `<tr><td><span class="method ${method}">${method.toUpperCase()}</span></td><td><code>${esc(route)}</code></td>` +
      `<td>${esc(op.summary ?? op.operationId ?? "")}${decisionLink(op)}</td></tr>`,
  );
}

/** Transaction events carry a transaction_id, which the receiver must fetch. */
const carriesTransaction = (message: Json) => JSON.stringify(message.payload ?? {}).includes('"transaction_id"');

function eventRows(asyncapi: Json): string[] {
  const rows: string[] = [];
  for (const op of Object.values<Json>(asyncapi.operations ?? {})) {
    if (op.action !== "send") continue;
    for (const ref of op.messages ?? []) {
      const message = resolveRef(asyncapi, ref);
      const action = carriesTransaction(message)
        ? "Fetch the transaction by <code>data.transaction_id</code>."
        : "Update the session from <code>data.status</code>.";
      rows.push(`<tr><td><code>${esc(message.name)}</code></td><td>${esc(message.summary ?? "")}</td><td>${action}</td></tr>`);
    }
  }
  return rows;
}

/** A state diagram as the events document's mermaid draws it. */
function drawn(asyncapi: Json, name: string): Diagram {
  const diagram = diagramsIn(asyncapi.info.description ?? "").find((d) => d.name === name);
  if (!diagram) throw new Error(`The AsyncAPI description has no mermaid diagram of ${name}.`);
  return diagram;
}

function table(headings: string[], rows: string[]): string {
  const indent = "      ";
  return [
    `${indent}<table>`,
    `${indent}  <thead><tr>${headings.map((h) => `<th>${h}</th>`).join("")}</tr></thead>`,
    `${indent}  <tbody>`,
    ...rows.map((row) => `${indent}    ${row}`),
    `${indent}  </tbody>`,
    `${indent}</table>`,
  ].join("\n");
}

/** A card for every other page of the site. */
const cards = () =>
  SITE_PAGES.filter(({ file }) => file !== "index.html")
    .map(({ file, title, summary }) => `        <li><a href="${file}"><strong>${esc(title)}</strong><span>${esc(summary)}</span></a></li>`)
    .join("\n");

export function indexPage(openapi: Json, asyncapi: Json): string {
  const operations = operationRows(openapi);
  const events = eventRows(asyncapi);
  const content = fill("index.html", {
    cards: cards(),
    operationsTable: table(["Method", "Path", "Operation"], operations),
    eventsTable: table(["Event", "When", "What to do"], events),
    sessionDiagram: drawn(asyncapi, "payment-session-states").html,
    transactionDiagram: drawn(asyncapi, "transaction-states").html,
  });
  return page({ file: "index.html", title: "Payin Acceptance Service: contract documentation", content }, openapi.info.version);
}
