// @ts-nocheck
// The two state diagrams of the payin flow (decision D5), drawn as self-contained SVG: the
// same markup is inlined in the pages and written as files for the references, so it uses
// presentation attributes rather than CSS (page styles do not reach an <img>, and inline
// <style> in SVG would leak into the page).

interface StateNode {
  id: string;
  label: string;
  x: number; // centre
  y: number;
  final?: boolean;
}

interface Transition {
  from: string; // "start" is the initial pseudo-state
  to: string;
  label: string;
}

export interface Diagram {
  /** File name under diagrams/ and prefix of the SVG's ids (unique on a page). */
  name: string;
  title: string;
  description: string;
  svg: string;
}

const box = { width: 118, height: 38 };
const startAt = { x: 18, r: 7 };
const colours = { ink: "#1f2937", line: "#4b5563", fill: "#eef2ff", stroke: "#4338ca", final: "#312e81", label: "#374151" };

const esc = (text: string) => text.replace(/&/g, "&amp;").replace(/</g, "&lt;").replace(/>/g, "&gt;");

/** Where the segment from a box's centre towards (tx, ty) leaves the box. */
function exitPoint(node: { x: number; y: number }, tx: number, ty: number, pad = 0) {
  const dx = tx - node.x;
  const dy = ty - node.y;
  const sx = dx === 0 ? Infinity : (box.width / 2 + pad) / Math.abs(dx);
  const sy = dy === 0 ? Infinity : (box.height / 2 + pad) / Math.abs(dy);
  const s = Math.min(sx, sy);
  return { x: node.x + dx * s, y: node.y + dy * s };
}

function draw(name: string, title: string, description: string, size: { width: number; height: number }, startY: number, nodes: StateNode[], transitions: Transition[]): Diagram {
  const byId = new Map(nodes.map((n) => [n.id, n]));
  const arrow = `${name}-arrow`;
  const round = (n: number) => Math.round(n * 10) / 10;
  const parts: string[] = [];

  parts.push(`<circle cx="${startAt.x}" cy="${startY}" r="${startAt.r}" fill="${colours.ink}"/>`);
  for (const t of transitions) {
    const to = byId.get(t.to);
    if (!to) throw new Error(`diagram ${name}: no state ${t.to}`);
    const from = t.from === "start" ? undefined : byId.get(t.from);
    if (t.from !== "start" && !from) throw new Error(`diagram ${name}: no state ${t.from}`);
    const a = from ? exitPoint(from, to.x, to.y) : { x: startAt.x + startAt.r, y: startY };
    const b = exitPoint(to, a.x, a.y, 2);
    parts.push(`<line x1="${round(a.x)}" y1="${round(a.y)}" x2="${round(b.x)}" y2="${round(b.y)}" stroke="${colours.line}" stroke-width="1.5" marker-end="url(#${arrow})"/>`);
    // Each label runs along its arrow, just above it, so sloping arrows keep theirs clear.
    const mx = round((a.x + b.x) / 2);
    const my = round((a.y + b.y) / 2);
    const angle = round((Math.atan2(b.y - a.y, b.x - a.x) * 180) / Math.PI);
    parts.push(`<text x="${mx}" y="${my - 6}" transform="rotate(${angle} ${mx} ${my})" text-anchor="middle" font-size="12" fill="${colours.label}">${esc(t.label)}</text>`);
  }
  for (const n of nodes) {
    const x = n.x - box.width / 2;
    const y = n.y - box.height / 2;
    parts.push(`<rect x="${x}" y="${y}" width="${box.width}" height="${box.height}" rx="10" fill="${colours.fill}" stroke="${n.final ? colours.final : colours.stroke}" stroke-width="${n.final ? 3 : 1.5}"/>`);
    parts.push(`<text x="${n.x}" y="${n.y + 5}" text-anchor="middle" font-size="14" font-weight="600" fill="${colours.ink}">${esc(n.label)}</text>`);
  }

  const svg = [
    `<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 ${size.width} ${size.height}" width="${size.width}" height="${size.height}" role="img" aria-labelledby="${name}-title ${name}-desc" font-family="system-ui, -apple-system, 'Segoe UI', Roboto, sans-serif">`,
    `<title id="${name}-title">${esc(title)}</title>`,
    `<desc id="${name}-desc">${esc(description)}</desc>`,
    `<defs><marker id="${arrow}" viewBox="0 0 10 10" refX="9" refY="5" markerWidth="8" markerHeight="8" orient="auto-start-reverse"><path d="M0,0 L10,5 L0,10 z" fill="${colours.line}"/></marker></defs>`,
    ...parts,
    `</svg>`,
  ].join("\n");
  return { name, title, description, svg };
}

export const sessionDiagram = draw(
  "payment-session-states",
  "Payment session states",
  "A payment session is created, then completed when a transaction completes before expires_at, or expired when none has. Completed and expired are final.",
  { width: 560, height: 172 },
  85,
  [
    { id: "created", label: "created", x: 200, y: 85 },
    { id: "completed", label: "completed", x: 480, y: 32, final: true },
    { id: "expired", label: "expired", x: 480, y: 138, final: true },
  ],
  [
    { from: "start", to: "created", label: "session-created" },
    { from: "created", to: "completed", label: "session-completed" },
    { from: "created", to: "expired", label: "session-expired" },
  ],
);

export const transactionDiagram = draw(
  "transaction-states",
  "Transaction states",
  "A transaction is created, then completed and later settled, or failed. Settled and failed are final.",
  { width: 830, height: 172 },
  40,
  [
    { id: "created", label: "created", x: 220, y: 40 },
    { id: "completed", label: "completed", x: 490, y: 40 },
    { id: "settled", label: "settled", x: 760, y: 40, final: true },
    { id: "failed", label: "failed", x: 490, y: 140, final: true },
  ],
  [
    { from: "start", to: "created", label: "transaction-created" },
    { from: "created", to: "completed", label: "transaction-completed" },
    { from: "completed", to: "settled", label: "transaction-settled" },
    { from: "created", to: "failed", label: "transaction-failed" },
  ],
);

export const diagrams = [sessionDiagram, transactionDiagram];

/**
 * The diagram that a mermaid state diagram of the sources draws, told apart by the states it
 * names; undefined for any other mermaid block, which is then left as code.
 */
export function diagramForMermaid(source: string): Diagram | undefined {
  if (!/stateDiagram/.test(source)) return undefined;
  if (/\bexpired\b/.test(source)) return sessionDiagram;
  if (/\bsettled\b/.test(source)) return transactionDiagram;
  return undefined;
}

/** Replaces each mermaid block of a markdown text that draws one of the diagrams. */
export function replaceMermaid(markdown: string, replacement: (diagram: Diagram) => string): string {
  return markdown.replace(/^([ \t]*)```mermaid\n([\s\S]*?)^[ \t]*```[ \t]*$/gm, (block, indent: string, source: string) => {
    const diagram = diagramForMermaid(source);
    return diagram ? indent + replacement(diagram) : block;
  });
}
