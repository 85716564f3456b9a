// A workflow of the Arazzo document drawn as a sequence diagram at build time (an SVG in the
// page, no diagram script in the reader's browser): the calls between the merchant and the
// service, and the events that come back, in the steps' order. A workflow a step runs is drawn in
// place. The customer acts on the service's payment page, not with either API: what they do, like
// time passing, is a note across both lifelines, so that no arrow and no label crosses a lifeline.
// Drawn twice, each with its text at the body's size: wide, stretched to the page's column (its
// lifelines at fractions of the width, the text unscaled), and narrow, in a phone's width with
// long labels on two lines; style.css shows the one that fits.
import { esc } from "./html.ts";

type Json = Record<string, any>;

type Lane = "Merchant" | "Service";
type Icon = "customer" | "clock";
type Item = { kind: "call"; from: Lane; to: Lane; label: string; dashed?: boolean } | { kind: "note"; label: string; icon?: Icon };

/** One drawing: the width it is laid out for, and where each lifeline is, as a fraction of that width. */
interface Drawing {
  variant: "wide" | "narrow";
  /** The narrow drawing's own width; the least the wide one, stretched to its column, is shown at (style.css). */
  width: number;
  lanes: Record<Lane, number>;
}

const WIDE: Drawing = { variant: "wide", width: 720, lanes: { Merchant: 0.1, Service: 0.9 } };
/** Each lifeline under the middle of its name: "Merchant", bold, is some 86 px wide. */
const NARROW: Drawing = { variant: "narrow", width: 350, lanes: { Merchant: 44 / 350, Service: 306 / 350 } };

const FONT = 16;
const LINE = 21;
const TOP = 46;
/** Room between a label and a lifeline, and where a note's text starts after its icon. */
const PAD = 12;
const NOTE_TEXT = 34;
/** An estimate of a text's width in the sans-serif the page uses (DejaVu Sans measures 0.49 to 0.59 em a character): PAD is the slack. */
const widthOf = (text: string) => text.length * FONT * 0.57;

/** The words of a text in lines no wider than `width`, `even` ones if asked; a word longer than that is a line of its own. */
function wrap(text: string, width: number, even = false): string[] {
  const greedy = (most: number) => {
    const lines: string[] = [];
    for (const word of text.split(" ")) {
      const last = lines.at(-1);
      if (last !== undefined && widthOf(`${last} ${word}`) <= most) lines[lines.length - 1] = `${last} ${word}`;
      else lines.push(word);
    }
    return lines;
  };
  const lines = greedy(width);
  // Centred, "Register or update webhook / URL" reads worse than "Register or update / webhook URL":
  // the narrowest width that takes no more lines.
  for (let most = widthOf(text) / lines.length; even && lines.length > 1 && most < width; most += FONT / 2) {
    const balanced = greedy(most);
    if (balanced.length === lines.length) return balanced;
  }
  return lines;
}

/** The statuses a step's criteria require, `200 or 201`. */
const statusesOf = (step: Json): string[] =>
  (step.successCriteria ?? []).flatMap((c: Json) => [...String(c.condition).matchAll(/\$statusCode == (\d{3})/g)].map((m) => m[1]!));

/** What a step shows: a call and its answer, events arriving, or a note (the customer's action, time passing, a state). */
function itemsOf(step: Json, summaryOf: (operationId: string) => string, workflows: Map<string, Json>): Item[] {
  if (step.workflowId) return workflows.has(step.workflowId) ? workflowItems(workflows.get(step.workflowId)!, summaryOf, workflows) : [];
  const [, source, operationId] = /^\$sourceDescriptions\.([\w-]+)\.(\w+)$/.exec(step.operationId ?? "") ?? [];
  const statuses = statusesOf(step);
  if (source === "payin")
    return [
      { kind: "call", from: "Merchant", to: "Service", label: summaryOf(operationId!) },
      ...(statuses.length ? [{ kind: "call", from: "Service", to: "Merchant", label: statuses.join(" or "), dashed: true } as const] : []),
    ];
  if (operationId === "simulatePayment") {
    const refused = statuses.find((status) => !status.startsWith("2"));
    const label = refused
      ? `The customer tries to pay on the page: refused, ${refused}`
      : `The customer ${step.requestBody?.payload?.outcome === "fail" ? "fails to pay" : "pays"} on the page`;
    return [{ kind: "note", label, icon: "customer" }];
  }
  if (operationId === "listDeliveries") {
    const events = (step.successCriteria ?? []).flatMap((c: Json) =>
      [...c.condition.matchAll(/event_type == '([a-z-]+)'/g)].map((m) => m[1]),
    );
    return events.map((event: string) => ({ kind: "call", from: "Service", to: "Merchant", label: `webhook ${event}` }) as const);
  }
  if (operationId === "advanceClock") {
    const seconds = Number(step.requestBody?.payload?.seconds ?? 0);
    return [
      { kind: "note", label: seconds >= 3600 ? "An hour passes" : seconds >= 60 ? "A minute passes" : "A moment passes", icon: "clock" },
    ];
  }
  if (operationId === "getSandboxPaymentSession") {
    const status = (step.successCriteria ?? []).map((c: Json) => /\/status == '(\w+)'/.exec(c.condition)?.[1]).find(Boolean);
    if (status) return [{ kind: "note", label: `The session's status is ${status}` }];
  }
  return [{ kind: "note", label: step.description ?? step.stepId }];
}

const workflowItems = (workflow: Json, summaryOf: (operationId: string) => string, workflows: Map<string, Json>): Item[] =>
  (workflow.steps as Json[]).flatMap((step) => itemsOf(step, summaryOf, workflows));

/** Drawn in SVG rather than set as emoji, which a system without an emoji font shows as an empty box; 10 px in from the band's edge. */
const ICONS: Record<Icon, string> = {
  clock: '<circle cx="18" cy="8" r="6.5"/><path d="M18 4.5V8l2.5 1.5"/>',
  customer: '<circle cx="18" cy="5" r="3"/><path d="M12.5 15a5.5 5.5 0 0 1 11 0"/>',
};

/** One drawing of the items, its ids prefixed with `id`. Grouped by kind, so that each attribute is written once. */
function draw(items: Item[], drawing: Drawing, id: string, title: string): string {
  const wide = drawing.variant === "wide";
  // The wide drawing's positions are fractions of its width; the narrow one's are its own pixels.
  const at = (fraction: number) => (wide ? `${Math.round(fraction * 10000) / 100}%` : `${Math.round(fraction * drawing.width)}`);
  const { Merchant: left, Service: right } = drawing.lanes;
  const gap = (right - left) * drawing.width;
  const labels: string[] = [];
  const lines = { message: [] as string[], answer: [] as string[] };
  const bands: string[] = [];
  const notes: string[] = [];
  const icons: string[] = [];
  /** A text of one or more lines, the first with its baseline at `y`. */
  const text = (x: string, y: number, rows: string[], dx = "") =>
    `<text x="${x}"${dx} y="${y}">${esc(rows[0]!)}${rows
      .slice(1)
      .map((row) => `<tspan x="${x}"${dx} dy="${LINE}">${esc(row)}</tspan>`)
      .join("")}</text>`;
  let y = TOP;
  for (const item of items) {
    if (item.kind === "note") {
      const rows = wrap(item.label, gap - (item.icon ? NOTE_TEXT : PAD) - PAD);
      const height = rows.length * LINE + 12;
      bands.push(`<rect x="${at(left)}" y="${y}" width="${at(right - left)}" height="${height}"/>`);
      notes.push(text(at(left), y + LINE + 1, rows, ` dx="${item.icon ? NOTE_TEXT : PAD}"`));
      if (item.icon) icons.push(`<svg x="${at(left)}" y="${y + (height - 16) / 2}">${ICONS[item.icon]}</svg>`);
      y += height + 14;
      continue;
    }
    const rows = wrap(item.label, gap - 2 * PAD, true);
    labels.push(text(at((left + right) / 2), y + LINE - 5, rows));
    const arrowY = y + rows.length * LINE + 4;
    lines[item.dashed ? "answer" : "message"].push(
      `<line x1="${at(drawing.lanes[item.from])}" x2="${at(drawing.lanes[item.to])}" y1="${arrowY}" y2="${arrowY}"/>`,
    );
    y = arrowY + 14;
  }
  const height = y + 4;
  const lanes = Object.entries(drawing.lanes).map(([, x]) => `<line x1="${at(x)}" x2="${at(x)}" y1="30" y2="${height - 4}"/>`);
  const names = Object.entries(drawing.lanes).map(([name, x]) => `<text x="${at(x)}" y="20">${name}</text>`);
  // The wide drawing is as wide as its column and unscaled (no viewBox), so that its text stays the body's size.
  const size = wide
    ? `width="100%" height="${height}"`
    : `viewBox="0 0 ${drawing.width} ${height}" width="${drawing.width}" height="${height}"`;
  return [
    `<svg class="sequence sequence-${drawing.variant}" ${size} role="img" aria-label="${esc(title)}" ` +
      `font-size="${FONT}" font-family="system-ui, sans-serif">`,
    `<defs><marker id="${id}" viewBox="0 0 10 10" refX="10" refY="5" markerWidth="9" markerHeight="9" ` +
      `markerUnits="userSpaceOnUse" orient="auto">`,
    `<path d="M0,0 L10,5 L0,10 z"/></marker></defs>`,
    `<g class="lifeline">${lanes.join("")}</g><g font-weight="600" text-anchor="middle">${names.join("")}</g>`,
    `<g class="note-band">${bands.join("")}</g><g class="icon">${icons.join("")}</g><g class="note">${notes.join("")}</g>`,
    `<g text-anchor="middle">${labels.join("")}</g>`,
    `<g marker-end="url(#${id})"><g class="message">${lines.message.join("")}</g><g class="answer">${lines.answer.join("")}</g></g>`,
    `</svg>`,
  ].join("");
}

/** The workflow as its two SVG sequence diagrams, wide and narrow. */
export function sequenceDiagram(workflow: Json, summaryOf: (operationId: string) => string, workflows: Map<string, Json>): string {
  const items = workflowItems(workflow, summaryOf, workflows);
  const calls = items.filter((item) => item.kind === "call").length;
  const title = `${workflow.summary}: ${calls} messages between the merchant and the service${
    items.length > calls ? ", with what the customer and the clock do between them" : ""
  }`;
  return [WIDE, NARROW].map((drawing) => draw(items, drawing, `${workflow.workflowId}-${drawing.variant[0]}`, title)).join("");
}
