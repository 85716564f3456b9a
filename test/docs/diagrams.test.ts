// The state diagrams of the docs are drawn from the mermaid of the sources, and the sources
// that state them (the events document and the decision register) state the same ones.
import { readFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { diagramForMermaid, diagramsIn, replaceMermaid } from "../../scripts/docs/diagrams.ts";
import { mermaidSources, parseStateDiagram } from "../../scripts/docs/state-diagram.ts";
import { generatedDir, root } from "../../scripts/lib/paths.ts";

const asyncapiDescription: string = JSON.parse(readFileSync(path.join(generatedDir, "asyncapi.json"), "utf8")).info.description;
const register = readFileSync(path.join(root, "openapi", "DECISIONS.md"), "utf8");
const stateDiagrams = (markdown: string) =>
  mermaidSources(markdown)
    .filter((s) => /stateDiagram/.test(s))
    .map(parseStateDiagram);

describe("the state diagrams of the sources", () => {
  it("the events document and the decision register state the same two diagrams", () => {
    const events = stateDiagrams(asyncapiDescription);
    expect(events).toHaveLength(2);
    expect(stateDiagrams(register)).toEqual(events);
  });

  it("every event that moves a state is an event of the contract", () => {
    const labels = stateDiagrams(asyncapiDescription).flatMap((d) => d.transitions.map((t) => t.label));
    const events = Object.keys(JSON.parse(readFileSync(path.join(generatedDir, "openapi.json"), "utf8")).webhooks);
    expect([...labels].sort()).toEqual([...events].sort());
  });
});

describe("parseStateDiagram", () => {
  it("reads transitions, their labels, and the states that end", () => {
    const d = parseStateDiagram('stateDiagram-v2\n  direction LR\n  state "S" as S {\n  [*] --> a: go\n  a --> b\n  b --> [*]\n  }\n');
    expect(d.states).toEqual(["a", "b"]);
    expect(d.transitions).toEqual([
      { from: "[*]", to: "a", label: "go" },
      { from: "a", to: "b", label: "" },
    ]);
    expect([...d.final]).toEqual(["b"]);
  });

  it("refuses a line it cannot read rather than drawing less", () => {
    expect(() => parseStateDiagram("stateDiagram-v2\n  a -> b\n")).toThrow("Cannot read this line of a mermaid state diagram: a -> b");
  });
});

describe("the drawings", () => {
  const session = mermaidSources(asyncapiDescription).find((s) => s.includes("expired"))!;

  /** The boxes of the final states: those in the group drawn with the thick border. */
  const finalBoxes = (svg: string) => /<g class="final states"[^>]*stroke-width="3">(.*?)<\/g>/.exec(svg)?.[1]?.match(/<rect /g)?.length;

  it("show each state, each transition's label, and mark the states with no way out as final", () => {
    const { svg } = diagramForMermaid(session)!;
    for (const text of ["created", "completed", "expired", "session-created", "session-completed", "session-expired"])
      expect(svg).toContain(`>${text}</text>`);
    expect(svg.match(/<line /g)).toHaveLength(3);
    expect(finalBoxes(svg)).toBe(2);
  });

  it("draw a page's figure twice, wide and narrow, each with every state and label, ids of its own, the narrow one's text 16 px", () => {
    const { html } = diagramForMermaid(session)!;
    const [wide, narrow] = html.split(/(?=<svg )/) as [string, string];
    expect(wide).toContain('class="diagram-wide"');
    expect(narrow).toContain('class="diagram-narrow"');
    for (const drawing of [wide, narrow]) {
      for (const text of ["created", "completed", "expired", "session-created", "session-completed", "session-expired"])
        expect(drawing).toContain(`>${text}</text>`);
      expect(finalBoxes(drawing)).toBe(2);
    }
    const ids = [...html.matchAll(/ id="([^"]+)"/g)].map((m) => m[1]);
    expect(new Set(ids).size).toBe(ids.length);
    // A phone's width, the text at the body's size, and the branch to expired bent round the states under created.
    expect(Number(/viewBox="0 0 (\d+)/.exec(narrow)![1])).toBeLessThanOrEqual(300);
    expect([...narrow.matchAll(/font-size="(\d+)"/g)].map((m) => Number(m[1]))).toEqual([16, 16]);
    expect(narrow.match(/<polyline /g)).toHaveLength(1);
  });

  it("follow an edit of the mermaid", () => {
    const edited = session.replace("created --> expired: session-expired", "created --> expired: timed out");
    const { svg, description } = diagramForMermaid(edited)!;
    expect(svg).toContain(">timed out</text>");
    expect(svg).not.toContain(">session-expired</text>");
    expect(description).toContain("created to expired on timed out");
  });

  it("refuse a diagram whose states no layout places", () => {
    expect(() => diagramForMermaid(`${session}  created --> refunded: refund\n`)).toThrow(
      /No layout .* places the states completed, created, expired, refunded/,
    );
  });

  it("leave other mermaid blocks as code, and replace the state diagrams", () => {
    const markdown = "```mermaid\nsequenceDiagram\n  A->>B: hi\n```\n\n```mermaid\n" + session + "```\n";
    expect(diagramsIn(markdown).map((d) => d.name)).toEqual(["payment-session-states"]);
    expect(replaceMermaid(markdown, (d) => `[${d.name}]`)).toBe(
      "```mermaid\nsequenceDiagram\n  A->>B: hi\n```\n\n[payment-session-states]\n",
    );
  });
});
