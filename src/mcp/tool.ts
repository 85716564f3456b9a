// What a payin-mcp tool is: a name, a description an agent can act on, its input and output as
// JSON Schema, MCP's hints, and what it does. An answer is structured content for the agent's
// code, and as text a line that says it followed by the same content: many clients hand the model
// the text alone, and the specification asks a tool that returns structured content to return it
// as text too. A failure (the service's problem, a tool that needs a sandbox) is the tool's
// answer, marked as an error, never a failure of the protocol. What a tool says back of its
// input is cut short (echoed), so that no input makes an answer large.
import { createPayinClient } from "../client.ts";
import type { Json } from "../lib/json.ts";
import type { DocsSearch } from "../lib/docs-search.ts";
import { createSandboxClient } from "../sandbox-client.ts";

/** Where the tools that act go: the service, or a sandbox of it. */
export interface Target {
  baseUrl?: string;
  token?: string;
}

/** What a tool runs with: its target, and the docs' search. */
export interface ToolContext {
  target: Target;
  docs: DocsSearch;
}

export interface ToolAnswer {
  content: Array<{ type: "text"; text: string }>;
  structuredContent?: Json;
  isError?: boolean;
  [key: string]: unknown;
}

export interface Tool {
  name: string;
  description: string;
  inputSchema: Json;
  outputSchema: Json;
  /** MCP's hints; a hint left out is the protocol's default (not read-only, destructive, not idempotent, open world). */
  annotations: { readOnlyHint?: boolean; destructiveHint?: boolean; idempotentHint?: boolean; openWorldHint?: boolean };
  run(input: Json, context: ToolContext): Promise<ToolAnswer>;
}

/**
 * A tool's answer: what it found, and as text a line that says it, then the same content, as JSON
 * unless `shown` renders it otherwise (every field of it, in the same words).
 */
export const answer = (line: string, structured: Json, shown = JSON.stringify(structured)): ToolAnswer => ({
  content: [{ type: "text", text: `${line}\n${shown}` }],
  structuredContent: structured,
});

/** What an answer says back of an input (or of a text an input made): at most `max` characters, the cut marked. */
export const echoed = (text: string, max = 60) => (text.length > max ? `${text.slice(0, max - 1)}…` : text);

export const failure = (text: string): ToolAnswer => ({ content: [{ type: "text", text }], isError: true });

/** The service's problem as the tool's error: its status, code, detail and fields. */
export function problemAnswer(what: string, status: number, problem: Json | undefined): ToolAnswer {
  const fields = (problem?.errors ?? []).map((e: Json) => `\n- ${e.field}: ${e.message}`).join("");
  return failure(`${what} answered ${status} ${problem?.code ?? ""}: ${problem?.detail ?? "no problem document"}${fields}`);
}

/** The answer of a tool that acts, given no service to act on. */
export const needsService = () =>
  failure("This tool acts on a service: start payin-mcp with --base-url and --token (or PAYIN_BASE_URL and PAYIN_TOKEN).");

/** The clients of the target; undefined without one. */
export function clientsOf(target: Target) {
  if (!target.baseUrl || !target.token) return undefined;
  return {
    payin: createPayinClient({ baseUrl: target.baseUrl, token: target.token }),
    sandbox: createSandboxClient({ baseUrl: target.baseUrl, token: target.token }),
  };
}

/** A control API that answers 404 without a problem's code at a path is not a sandbox's. */
export const isNotSandbox = (status: number, problem: unknown) => status === 404 && !(problem as Json | undefined)?.code;

export const notSandbox = (target: Target, tool: string) =>
  failure(`${tool} works on a payin-sandbox only: ${target.baseUrl} has no sandbox control API (/_sandbox/v1/ answered 404).`);

/**
 * An input schema: an object of these properties, all of them required unless `optional` names
 * them. With an optional one, no other property either: a misspelt optional field is refused,
 * not ignored (a misspelt required one is missing).
 */
export function inputShape(properties: Json, optional: readonly string[] = []): Json {
  const required = Object.keys(properties).filter((name) => !optional.includes(name));
  return {
    type: "object",
    properties,
    ...(required.length ? { required } : {}),
    ...(optional.length ? { additionalProperties: false } : {}),
  };
}

/** An output schema: an object of these properties (an answer's own keys; the protocol's bytes go to the inputs). */
export const shape = (properties: Json): Json => ({ type: "object", properties });

export const OBJECT = { type: "object" } as const;
export const STRING = { type: "string" } as const;
export const INTEGER = { type: "integer" } as const;
