// Reads the transitions of a mermaid state diagram (`stateDiagram-v2`), the form the sources
// use for the payin flow's states: `[*] --> created: session-created`, `a --> b: label`,
// `b --> [*]`. Composite wrappers (`state "Name" as S {` … `}`), `direction` and comments are
// read past; anything else is an error, so a diagram the docs cannot draw never passes quietly.

export interface StateTransition {
  /** `[*]` is the initial pseudo-state. */
  from: string;
  to: string;
  label: string;
}

export interface StateDiagram {
  /** Every state named, in order of first mention, without `[*]`. */
  states: string[];
  /** Transitions between states and from `[*]`; those to `[*]` only mark `final`. */
  transitions: StateTransition[];
  /** States with a transition to `[*]`. */
  final: Set<string>;
}

export const INITIAL = "[*]";

const TRANSITION = /^(\[\*\]|[\w-]+)\s*-->\s*(\[\*\]|[\w-]+)\s*(?::\s*(.*))?$/;
const IGNORED = [/^stateDiagram(-v2)?$/, /^direction\s+(LR|RL|TB|BT)$/, /^state\s+"[^"]*"\s+as\s+\w+\s*\{$/, /^\}$/, /^%%/];

export function parseStateDiagram(source: string): StateDiagram {
  const states: string[] = [];
  const transitions: StateTransition[] = [];
  const final = new Set<string>();
  const name = (state: string) => {
    if (state !== INITIAL && !states.includes(state)) states.push(state);
  };
  for (const raw of source.split("\n")) {
    const line = raw.trim();
    if (!line || IGNORED.some((pattern) => pattern.test(line))) continue;
    const match = TRANSITION.exec(line);
    if (!match) throw new Error(`Cannot read this line of a mermaid state diagram: ${line}`);
    const [, from, to, label = ""] = match as unknown as [string, string, string, string | undefined];
    name(from);
    name(to);
    if (to === INITIAL) final.add(from);
    else transitions.push({ from, to, label: label.trim() });
  }
  return { states, transitions, final };
}

/** A ```mermaid block of markdown: its indent (group 1) and its source (group 2). */
export const MERMAID_BLOCK = /^([ \t]*)```mermaid\n([\s\S]*?)^[ \t]*```[ \t]*$/gm;

/** The source of each ```mermaid block of a markdown text. */
export const mermaidSources = (markdown: string): string[] => [...markdown.matchAll(MERMAID_BLOCK)].map((m) => m[2]!);
