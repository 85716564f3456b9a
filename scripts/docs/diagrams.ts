// The two state diagrams of the payin flow (decision D5), drawn as self-contained SVG from the
// mermaid blocks of the sources: the states, transitions and labels are the mermaid's; only
// the layout (where each state sits) is chosen here. The same markup is inlined in the pages
// and written as files for the references, so it uses presentation attributes rather than CSS
// (page styles do not reach an <img>, and inline <style> in SVG would leak into the page).
import { INITIAL, MERMAID_BLOCK, mermaidSources, parseStateDiagram, type StateDiagram } from "./state-diagram.ts";

export interface Diagram {
  /** File name under diagrams/ and prefix of the SVG's ids (unique on a page). */
  name: string;
  title: string;
  description: string;
  svg: string;
}

/** Where each state of one diagram sits; a mermaid diagram is drawn with the layout of exactly its states. */
interface Layout {
  name: string;
  title: string;
  size: { width: number; height: number };
  /** Height of the initial pseudo-state (at the left edge). */
  startY: number;
  /** Centre of each state's box. */
  at: Record<string, { x: number; y: number }>;
}

const LAYOUTS: Layout[] = [
  {
    name: "payment-session-states",
    title: "Payment session states",
    size: { width: 560, height: 172 },
    startY: 85,
    at: { created: { x: 200, y: 85 }, completed: { x: 480, y: 32 }, expired: { x: 480, y: 138 } },
  },
  {
    name: "transaction-states",
    title: "Transaction states",
    size: { width: 830, height: 172 },
    startY: 40,
    at: { created: { x: 220, y: 40 }, completed: { x: 490, y: 40 }, settled: { x: 760, y: 40 }, failed: { x: 490, y: 140 } },
  },
];

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

/** The layout drawn for a diagram: the one that places exactly its states. */
function layoutFor(diagram: StateDiagram): Layout {
  const states = [...diagram.states].sort().join(", ");
  const layout = LAYOUTS.find((l) => Object.keys(l.at).sort().join(", ") === states);
  if (!layout)
    throw new Error(
      `No layout in scripts/docs/diagrams.ts places the states ${states}; add one (or fix the mermaid) so the docs can draw it.`,
    );
  return layout;
}

/** A final state: one the mermaid ends (`--> [*]`), or one with no way out. */
const finalStates = (d: StateDiagram) => new Set(d.states.filter((s) => d.final.has(s) || !d.transitions.some((t) => t.from === s)));

/** Alt text, from the diagram itself so that it cannot tell another story than the picture. */
function describe(title: string, d: StateDiagram): string {
  const steps = d.transitions.map((t) => `${t.from === INITIAL ? "starts as" : `${t.from} to`} ${t.to}${t.label ? ` on ${t.label}` : ""}`);
  return `${title}: ${steps.join("; ")}. Final: ${[...finalStates(d)].join(", ")}.`;
}

export function drawStateDiagram(diagram: StateDiagram): Diagram {
  const { name, title, size, startY, at } = layoutFor(diagram);
  const final = finalStates(diagram);
  const arrow = `${name}-arrow`;
  const round = (n: number) => Math.round(n * 10) / 10;
  const parts: string[] = [];

  parts.push(`<circle cx="${startAt.x}" cy="${startY}" r="${startAt.r}" fill="${colours.ink}"/>`);
  for (const t of diagram.transitions) {
    const to = at[t.to]!;
    const from = t.from === INITIAL ? undefined : at[t.from]!;
    const a = from ? exitPoint(from, to.x, to.y) : { x: startAt.x + startAt.r, y: startY };
    const b = exitPoint(to, a.x, a.y, 2);
    parts.push(
      `<line x1="${round(a.x)}" y1="${round(a.y)}" x2="${round(b.x)}" y2="${round(b.y)}" ` +
        `stroke="${colours.line}" stroke-width="1.5" marker-end="url(#${arrow})"/>`,
    );
    // Each label runs along its arrow, just above it, so sloping arrows keep theirs clear.
    const mx = round((a.x + b.x) / 2);
    const my = round((a.y + b.y) / 2);
    const angle = round((Math.atan2(b.y - a.y, b.x - a.x) * 180) / Math.PI);
    parts.push(
      `<text x="${mx}" y="${my - 6}" transform="rotate(${angle} ${mx} ${my})" ` +
        `text-anchor="middle" font-size="12" fill="${colours.label}">${esc(t.label)}</text>`,
    );
  }
  for (const state of diagram.states) {
    const { x, y } = at[state]!;
    const isFinal = final.has(state);
    parts.push(
      `<rect x="${x - box.width / 2}" y="${y - box.height / 2}" width="${box.width}" height="${box.height}" rx="10" ` +
        `fill="${colours.fill}" stroke="${isFinal ? colours.final : colours.stroke}" stroke-width="${isFinal ? 3 : 1.5}"/>`,
    );
    parts.push(
      `<text x="${x}" y="${y + 5}" text-anchor="middle" font-size="14" font-weight="600" fill="${colours.ink}">${esc(state)}</text>`,
    );
  }

  const description = describe(title, diagram);
  const svg = [
    `<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 ${size.width} ${size.height}" width="${size.width}" height="${size.height}" ` +
      `role="img" aria-labelledby="${name}-title ${name}-desc" ` +
      `font-family="system-ui, -apple-system, 'Segoe UI', Roboto, sans-serif">`,
    `<title id="${name}-title">${esc(title)}</title>`,
    `<desc id="${name}-desc">${esc(description)}</desc>`,
    `<defs><marker id="${arrow}" viewBox="0 0 10 10" refX="9" refY="5" markerWidth="8" markerHeight="8" orient="auto-start-reverse">` +
      `<path d="M0,0 L10,5 L0,10 z" fill="${colours.line}"/></marker></defs>`,
    ...parts,
    `</svg>`,
  ].join("\n");
  return { name, title, description, svg };
}

/** The diagram a mermaid block draws; undefined for a mermaid block that is not a state diagram. */
export function diagramForMermaid(source: string): Diagram | undefined {
  if (!/^\s*stateDiagram/.test(source)) return undefined;
  return drawStateDiagram(parseStateDiagram(source));
}

/** Every state diagram drawn from the mermaid blocks of a markdown text, in order. */
export const diagramsIn = (markdown: string): Diagram[] => mermaidSources(markdown).flatMap((source) => diagramForMermaid(source) ?? []);

/** Replaces each mermaid state diagram of a markdown text with what `replacement` makes of its drawing. */
export function replaceMermaid(markdown: string, replacement: (diagram: Diagram) => string): string {
  return markdown.replace(MERMAID_BLOCK, (block, indent: string, source: string) => {
    const diagram = diagramForMermaid(source);
    return diagram ? indent + replacement(diagram) : block;
  });
}
