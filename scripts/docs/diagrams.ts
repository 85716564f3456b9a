// The two state diagrams of the payin flow (decision D5), drawn as self-contained SVG from the
// mermaid blocks of the sources: the states, transitions and labels are the mermaid's; only
// the layout (where each state sits) is chosen here. The same markup is inlined in the pages
// and written as files for the references, so it uses presentation attributes rather than CSS
// (page styles do not reach an <img>, and inline <style> in SVG would leak into the page).
// Each diagram has two layouts: a wide one, and a narrow one for a phone (see Layouts).
import { INITIAL, MERMAID_BLOCK, mermaidSources, parseStateDiagram, type StateDiagram } from "./state-diagram.ts";

export interface Diagram {
  /** File name under diagrams/ and prefix of the SVG's ids (unique on a page). */
  name: string;
  title: string;
  description: string;
  /** The wide drawing alone, as the references' diagrams/<name>.svg. */
  svg: string;
  /** Both drawings, for a figure of a page: the wide one, and the narrow one that a phone shows instead (style.css). */
  html: string;
}

type Point = { x: number; y: number };

/** One drawing of a diagram: where each state sits, and at what size. */
interface Layout {
  size: { width: number; height: number };
  /** Centre of the initial pseudo-state. */
  start: Point;
  /** Centre of each state's box. */
  at: Record<string, Point>;
  box: { width: number; height: number };
  font: { state: number; label: number };
  /** The corners of a transition (`from>to`) drawn round rather than straight, so that it crosses no other. */
  bends?: Record<string, Point[]>;
}

/**
 * The two drawings of a mermaid diagram, chosen by the states it has: wide, states side by side
 * for a desktop; narrow, states one under another in a phone's width, with the text at the
 * body's size (16 px) where the wide one, shrunk to fit, would be unreadable.
 */
interface Layouts {
  name: string;
  title: string;
  wide: Layout;
  narrow: Layout;
}

const WIDE = { box: { width: 118, height: 38 }, font: { state: 14, label: 12 } };
const NARROW = { box: { width: 104, height: 40 }, font: { state: 16, label: 16 } };

const LAYOUTS: Layouts[] = [
  {
    name: "payment-session-states",
    title: "Payment session states",
    wide: {
      ...WIDE,
      size: { width: 560, height: 172 },
      start: { x: 18, y: 85 },
      at: { created: { x: 200, y: 85 }, completed: { x: 480, y: 32 }, expired: { x: 480, y: 138 } },
    },
    narrow: {
      ...NARROW,
      size: { width: 290, height: 236 },
      start: { x: 54, y: 14 },
      at: { created: { x: 54, y: 92 }, completed: { x: 54, y: 204 }, expired: { x: 234, y: 204 } },
      bends: { "created>expired": [{ x: 260, y: 92 }] },
    },
  },
  {
    name: "transaction-states",
    title: "Transaction states",
    wide: {
      ...WIDE,
      size: { width: 830, height: 172 },
      start: { x: 18, y: 40 },
      at: { created: { x: 220, y: 40 }, completed: { x: 490, y: 40 }, settled: { x: 760, y: 40 }, failed: { x: 490, y: 140 } },
    },
    narrow: {
      ...NARROW,
      size: { width: 290, height: 348 },
      start: { x: 54, y: 14 },
      at: { created: { x: 54, y: 92 }, completed: { x: 54, y: 204 }, settled: { x: 54, y: 316 }, failed: { x: 234, y: 204 } },
      bends: { "created>failed": [{ x: 260, y: 92 }] },
    },
  },
];

const startRadius = 7;
const colours = { ink: "#1f2937", line: "#4b5563", fill: "#eef2ff", stroke: "#4338ca", final: "#312e81", label: "#374151" };

const esc = (text: string) => text.replace(/&/g, "&amp;").replace(/</g, "&lt;").replace(/>/g, "&gt;");
const round = (n: number) => Math.round(n * 10) / 10;

/** Where the segment from a box's centre towards (tx, ty) leaves the box. */
function exitPoint(box: Layout["box"], node: Point, tx: number, ty: number, pad = 0): Point {
  const dx = tx - node.x;
  const dy = ty - node.y;
  const sx = dx === 0 ? Infinity : (box.width / 2 + pad) / Math.abs(dx);
  const sy = dy === 0 ? Infinity : (box.height / 2 + pad) / Math.abs(dy);
  const s = Math.min(sx, sy);
  return { x: node.x + dx * s, y: node.y + dy * s };
}

/** The layouts of a diagram: the ones that place exactly its states. */
function layoutsFor(diagram: StateDiagram): Layouts {
  const states = [...diagram.states].sort().join(", ");
  const layouts = LAYOUTS.find((l) => Object.keys(l.wide.at).sort().join(", ") === states);
  if (!layouts)
    throw new Error(
      `No layout in scripts/docs/diagrams.ts places the states ${states}; add one (or fix the mermaid) so the docs can draw it.`,
    );
  return layouts;
}

/** A final state: one the mermaid ends (`--> [*]`), or one with no way out. */
const finalStates = (d: StateDiagram) => new Set(d.states.filter((s) => d.final.has(s) || !d.transitions.some((t) => t.from === s)));

/** Alt text, from the diagram itself so that it cannot tell another story than the picture. */
function describe(title: string, d: StateDiagram): string {
  const steps = d.transitions.map((t) => `${t.from === INITIAL ? "starts as" : `${t.from} to`} ${t.to}${t.label ? ` on ${t.label}` : ""}`);
  return `${title}: ${steps.join("; ")}. Final: ${[...finalStates(d)].join(", ")}.`;
}

/** The points a transition's arrow passes through, from where it leaves its source to where it meets its target. */
function route(layout: Layout, from: string, to: string): Point[] {
  const { at, box, start } = layout;
  const target = at[to]!;
  const bends = layout.bends?.[`${from}>${to}`] ?? [];
  const first = bends[0] ?? target;
  const last = bends.at(-1) ?? (from === INITIAL ? start : at[from]!);
  let a: Point;
  if (from === INITIAL) {
    const length = Math.hypot(first.x - start.x, first.y - start.y);
    a = { x: start.x + ((first.x - start.x) / length) * startRadius, y: start.y + ((first.y - start.y) / length) * startRadius };
  } else a = bends.length ? square(box, at[from]!, first) : exitPoint(box, at[from]!, first.x, first.y);
  const b = bends.length ? square(box, target, last, 2) : exitPoint(box, target, a.x, a.y, 2);
  return [a, ...bends, b];
}

/** Where a line from a bend, level with the box or plumb above or below it, meets the box's edge. */
function square(box: Layout["box"], node: Point, bend: Point, pad = 0): Point {
  const halfWidth = box.width / 2 + pad;
  const halfHeight = box.height / 2 + pad;
  if (Math.abs(bend.y - node.y) <= halfHeight) return { x: node.x + Math.sign(bend.x - node.x) * halfWidth, y: bend.y };
  if (Math.abs(bend.x - node.x) <= halfWidth) return { x: bend.x, y: node.y + Math.sign(bend.y - node.y) * halfHeight };
  throw new Error(`a bend at ${bend.x},${bend.y} is neither level with nor plumb above the state at ${node.x},${node.y}`);
}

/**
 * A transition's label, on the longest stretch of its arrow: beside a vertical one, to its right;
 * along any other, just above it, so that sloping arrows keep theirs clear. Centred unless beside.
 */
function label(text: string, points: Point[], size: number): string {
  const stretches = points.slice(1).map((b, i) => [points[i]!, b] as const);
  const [a, b] = stretches.reduce((longest, s) =>
    Math.hypot(s[1].x - s[0].x, s[1].y - s[0].y) > Math.hypot(longest[1].x - longest[0].x, longest[1].y - longest[0].y) ? s : longest,
  );
  const mx = round((a.x + b.x) / 2);
  const my = round((a.y + b.y) / 2);
  if (a.x === b.x) return `<text x="${round(a.x + 10)}" y="${round(my + size / 3)}" text-anchor="start">${esc(text)}</text>`;
  const angle = round((Math.atan2(b.y - a.y, b.x - a.x) * 180) / Math.PI);
  return `<text x="${mx}" y="${my - 6}"${angle ? ` transform="rotate(${angle} ${mx} ${my})"` : ""}>${esc(text)}</text>`;
}

/** One drawing of the diagram; `id` prefixes its ids, unique on the page. Grouped by kind, so that each attribute is written once. */
function draw(diagram: StateDiagram, layout: Layout, id: string, title: string, description: string, className?: string): string {
  const { size, start, at, box, font } = layout;
  const final = finalStates(diagram);
  const arrow = `${id}-arrow`;
  const arrows: string[] = [];
  const labels: string[] = [];
  for (const t of diagram.transitions) {
    const points = route(layout, t.from, t.to);
    const [a, b] = [points[0]!, points.at(-1)!];
    arrows.push(
      points.length === 2
        ? `<line x1="${round(a.x)}" y1="${round(a.y)}" x2="${round(b.x)}" y2="${round(b.y)}"/>`
        : `<polyline points="${points.map((p) => `${round(p.x)},${round(p.y)}`).join(" ")}"/>`,
    );
    labels.push(label(t.label, points, font.label));
  }
  const boxes = (states: string[]) =>
    states.map((state) => {
      const { x, y } = at[state]!;
      return `<rect x="${x - box.width / 2}" y="${y - box.height / 2}" width="${box.width}" height="${box.height}" rx="10"/>`;
    });
  const names = diagram.states.map((state) => `<text x="${at[state]!.x}" y="${round(at[state]!.y + font.state / 3)}">${esc(state)}</text>`);

  return [
    `<svg xmlns="http://www.w3.org/2000/svg"${className ? ` class="${className}"` : ""} viewBox="0 0 ${size.width} ${size.height}" ` +
      `width="${size.width}" height="${size.height}" role="img" aria-labelledby="${id}-title ${id}-desc" ` +
      `font-family="system-ui, -apple-system, 'Segoe UI', Roboto, sans-serif">`,
    `<title id="${id}-title">${esc(title)}</title>`,
    `<desc id="${id}-desc">${esc(description)}</desc>`,
    `<defs><marker id="${arrow}" viewBox="0 0 10 10" refX="9" refY="5" markerWidth="8" markerHeight="8" orient="auto-start-reverse">` +
      `<path d="M0,0 L10,5 L0,10 z" fill="${colours.line}"/></marker></defs>`,
    `<circle cx="${start.x}" cy="${start.y}" r="${startRadius}" fill="${colours.ink}"/>`,
    `<g class="arrows" fill="none" stroke="${colours.line}" stroke-width="1.5" marker-end="url(#${arrow})">${arrows.join("")}</g>`,
    `<g class="labels" text-anchor="middle" font-size="${font.label}" fill="${colours.label}">${labels.join("")}</g>`,
    `<g class="states" fill="${colours.fill}" stroke="${colours.stroke}" stroke-width="1.5">` +
      `${boxes(diagram.states.filter((s) => !final.has(s))).join("")}</g>`,
    `<g class="final states" fill="${colours.fill}" stroke="${colours.final}" stroke-width="3">` +
      `${boxes(diagram.states.filter((s) => final.has(s))).join("")}</g>`,
    `<g class="names" text-anchor="middle" font-size="${font.state}" font-weight="600" fill="${colours.ink}">${names.join("")}</g>`,
    `</svg>`,
  ].join("\n");
}

export function drawStateDiagram(diagram: StateDiagram): Diagram {
  const { name, title, wide, narrow } = layoutsFor(diagram);
  const description = describe(title, diagram);
  return {
    name,
    title,
    description,
    svg: draw(diagram, wide, name, title, description),
    html: [
      draw(diagram, wide, name, title, description, "diagram-wide"),
      draw(diagram, narrow, `${name}-narrow`, title, description, "diagram-narrow"),
    ].join("\n"),
  };
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

/** A page's figure of a diagram: both drawings, and its caption (HTML). */
export const diagramFigure = (diagram: Diagram, caption: string) =>
  `<figure class="diagram">\n${diagram.html}\n<figcaption>${caption}</figcaption>\n</figure>`;

/**
 * A page rendered from a document's copy (doc-copy.ts) with each image of a drawn diagram as its
 * figure instead, so that a phone shows the narrow drawing rather than the wide one shrunk.
 */
export function inlineDiagrams(html: string, diagrams: Diagram[]): string {
  return html.replace(/<p><img src="diagrams\/([\w-]+)\.svg" alt="[^"]*"><\/p>/g, (image, name: string) => {
    const diagram = diagrams.find((d) => d.name === name);
    return diagram ? diagramFigure(diagram, esc(diagram.title)) : image;
  });
}
