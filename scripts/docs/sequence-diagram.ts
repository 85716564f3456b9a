// A workflow of the Arazzo document drawn as a sequence diagram at build time (an SVG in the
// page, no diagram script in the reader's browser): who calls whom among the customer, the
// merchant and the service, and which events come back, in the steps' order. A workflow a step
// runs is drawn in place. Narrow and set in the body text's size, so that it reads on a phone as
// on a desktop, where it keeps that size.
import { esc } from "./html.ts";

type Json = Record<string, any>;

const LANES = { Customer: 40, Merchant: 175, Service: 305 } as const;
type Lane = keyof typeof LANES;
const WIDTH = 340;
const ROW = 44;
const TOP = 56;
const FONT = 16;
/** An estimate of a label's width in the sans-serif the page uses: enough to keep it inside the drawing. */
const widthOf = (text: string) => text.length * FONT * 0.58;

type Item = { kind: "call"; from: Lane; to: Lane; label: string; dashed?: boolean } | { kind: "note"; label: string };

/** What a step shows: a call and its answer, the customer's action, events arriving, or a note. */
function itemsOf(step: Json, summaryOf: (operationId: string) => string, workflows: Map<string, Json>): Item[] {
  if (step.workflowId) return workflows.has(step.workflowId) ? workflowItems(workflows.get(step.workflowId)!, summaryOf, workflows) : [];
  const [, source, operationId] = /^\$sourceDescriptions\.([\w-]+)\.(\w+)$/.exec(step.operationId ?? "") ?? [];
  const status = (step.successCriteria ?? []).map((c: Json) => /^\$statusCode == (\d{3})$/.exec(c.condition)?.[1]).find(Boolean);
  if (source === "payin")
    return [
      { kind: "call", from: "Merchant", to: "Service", label: summaryOf(operationId!) },
      ...(status ? [{ kind: "call", from: "Service", to: "Merchant", label: status, dashed: true } as const] : []),
    ];
  if (operationId === "simulatePayment") {
    const outcome = step.requestBody?.payload?.outcome === "fail" ? "Fails to pay" : "Pays";
    return [{ kind: "call", from: "Customer", to: "Service", label: `${outcome} on the page` }];
  }
  if (operationId === "listDeliveries") {
    const events = (step.successCriteria ?? []).flatMap((c: Json) =>
      [...c.condition.matchAll(/event_type == '([a-z-]+)'/g)].map((m) => m[1]),
    );
    return events.map((event: string) => ({ kind: "call", from: "Service", to: "Merchant", label: `webhook ${event}` }) as const);
  }
  if (operationId === "advanceClock") {
    const seconds = Number(step.requestBody?.payload?.seconds ?? 0);
    return [{ kind: "note", label: seconds >= 3600 ? "an hour passes" : seconds >= 60 ? "a minute passes" : "a moment passes" }];
  }
  return [{ kind: "note", label: step.description ?? step.stepId }];
}

const workflowItems = (workflow: Json, summaryOf: (operationId: string) => string, workflows: Map<string, Json>): Item[] =>
  (workflow.steps as Json[]).flatMap((step) => itemsOf(step, summaryOf, workflows));

/** The workflow as an SVG sequence diagram. */
export function sequenceDiagram(workflow: Json, summaryOf: (operationId: string) => string, workflows: Map<string, Json>): string {
  const items = workflowItems(workflow, summaryOf, workflows);
  const height = TOP + items.length * ROW + 16;
  // The outer lanes' names from the drawing's edges inwards, so that none is cut.
  const anchors: Record<Lane, [number, string]> = {
    Customer: [2, "start"],
    Merchant: [LANES.Merchant, "middle"],
    Service: [WIDTH - 2, "end"],
  };
  const lanes = Object.entries(LANES).map(([name, x]) => {
    const [at, anchor] = anchors[name as Lane];
    return (
      `<text x="${at}" y="22" text-anchor="${anchor}" font-weight="600">${name}</text>` +
      `<line x1="${x}" y1="32" x2="${x}" y2="${height - 8}" class="lifeline"/>`
    );
  });
  const rows = items.map((item, i) => {
    const y = TOP + i * ROW;
    if (item.kind === "note") return `<text x="${WIDTH / 2}" y="${y + 18}" text-anchor="middle" class="note">⏱ ${esc(item.label)}</text>`;
    const [x1, x2] = [LANES[item.from], LANES[item.to]];
    const half = widthOf(item.label) / 2;
    const middle = Math.min(Math.max((x1 + x2) / 2, half + 2), WIDTH - half - 2);
    const tip = x2 > x1 ? x2 - 2 : x2 + 2;
    const head =
      x2 > x1 ? `${tip - 8},${y + 20} ${tip},${y + 24} ${tip - 8},${y + 28}` : `${tip + 8},${y + 20} ${tip},${y + 24} ${tip + 8},${y + 28}`;
    return (
      `<text x="${middle}" y="${y + 16}" text-anchor="middle">${esc(item.label)}</text>` +
      `<line x1="${x1}" y1="${y + 24}" x2="${tip}" y2="${y + 24}" class="${item.dashed ? "answer" : "message"}"/>` +
      `<polygon points="${head}"/>`
    );
  });
  const title = `${workflow.summary}: a sequence of ${items.length} messages between the customer, the merchant and the service`;
  return (
    `<svg class="sequence" viewBox="0 0 ${WIDTH} ${height}" width="${WIDTH}" height="${height}" role="img" aria-label="${esc(title)}" ` +
    `font-size="${FONT}" font-family="system-ui, sans-serif">` +
    `${lanes.join("")}${rows.join("")}</svg>`
  );
}
