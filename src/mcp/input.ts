// Every tool's input checked against the tool's own input schema before the tool does anything,
// with the SDK's JSON Schema validator (Ajv, which the SDK brings: nothing more to install). A
// refusal names each field that does not fit, what it was given and what it takes, in words
// read from the same schema.
import type { Json } from "../lib/json.ts";
import { echoed, type Tool } from "./tool.ts";

/** The SDK's validator of a JSON Schema: valid, or Ajv's errors as text (`data/outcome must be …, data must have …`). */
export type SchemaValidator = (input: unknown) => { valid: boolean; errorMessage?: string };

const FORMATS: Record<string, string> = {
  email: "an email address",
  uri: "an absolute URI",
  date: "a date, YYYY-MM-DD",
  "date-time": "a date and time",
};

/** What a schema takes, in words: `one of pay, fail, expire`; `a string of 1 to 64 characters`. */
export function takes(schema: Json): string {
  if (schema.enum) return `one of ${schema.enum.join(", ")}`;
  if ("const" in schema) return `exactly ${JSON.stringify(schema.const)}`;
  const parts: string[] = [];
  const range = (low: number | undefined, high: number | undefined, unit: string) =>
    low !== undefined && high !== undefined
      ? `${low} to ${high}${unit}`
      : low !== undefined
        ? `at least ${low}${unit}`
        : `at most ${high}${unit}`;
  if (schema.type === "string") {
    parts.push(FORMATS[schema.format] ?? "a string");
    if (schema.pattern) parts.push(`matching ${schema.pattern}`);
    if (schema.minLength !== undefined || schema.maxLength !== undefined)
      parts.push(`of ${range(schema.minLength, schema.maxLength, " characters")}`);
  } else if (schema.type === "number" || schema.type === "integer") {
    parts.push(schema.type === "integer" ? "a whole number" : "a number");
    if (schema.exclusiveMinimum !== undefined) parts.push(`above ${schema.exclusiveMinimum}`);
    if (schema.minimum !== undefined || schema.maximum !== undefined) parts.push(`from ${range(schema.minimum, schema.maximum, "")}`);
  } else if (schema.type === "object") {
    parts.push(schema.required?.length ? `an object with ${schema.required.join(", ")}` : "an object");
  } else parts.push(schema.type ? `a ${schema.type}` : "a value");
  const said = parts.join(" ");
  return schema.description ? `${said} (${schema.description.replace(/\.$/, "")})` : said;
}

/** The schema of the field at `path` (`outcome`, `address/city`, `headers/webhook-id` of a map), if the schema has it. */
function schemaAt(schema: Json, path: readonly string[]): Json | undefined {
  const inMap = (at: Json | undefined) => (typeof at?.additionalProperties === "object" ? at.additionalProperties : undefined);
  return path.reduce<Json | undefined>((at, key) => at?.properties?.[key] ?? inMap(at) ?? at?.items, schema);
}

const valueAt = (input: unknown, path: readonly string[]) => path.reduce<any>((at, key) => at?.[key], input);

/** What the given value was, short. */
const shown = (value: unknown) => echoed(JSON.stringify(value) ?? String(value));

/** The lines that say why the input does not fit, one per field, from Ajv's text of its errors. */
export function refusalLines(schema: Json, input: Json, errors: string): string[] {
  const lines = new Map<string, string>();
  for (const [, pointer = "", message] of errors.matchAll(/(?:^|, )data(\/\S*)? (.+?)(?=, data[/ ]|$)/g)) {
    const at = pointer.split("/").filter(Boolean);
    const missing = /^must have required property '(.+)'$/.exec(message!)?.[1];
    if (missing) {
      const field = echoed([...at, missing].join("."));
      lines.set(field, `\`${field}\` is required: ${takes(schemaAt(schema, [...at, missing]) ?? {})}`);
    } else if (message === "must NOT have additional properties") {
      const object = schemaAt(schema, at) ?? {};
      const known = Object.keys(object.properties ?? {});
      // A field's name is the caller's too: said back short, and at most a few of them.
      const extras = Object.keys(valueAt(input, at) ?? {}).filter((key) => !known.includes(key));
      for (const extra of extras.slice(0, 5)) {
        const field = echoed([...at, extra].join("."));
        lines.set(field, `\`${field}\` is not taken here; the fields are ${known.join(", ")}`);
      }
    } else {
      const field = echoed(at.join("."));
      const what = schemaAt(schema, at);
      // Ajv's own words where the schema has none to read (they say "must" themselves).
      lines.set(field, `\`${field}\` ${what ? `must be ${takes(what)}` : message}, not ${shown(valueAt(input, at))}`);
    }
  }
  // As many lines as an input has wrong fields, but no more than an agent reads.
  return [...lines.values()].slice(0, 10);
}

/** Checks each tool's input against its schema: undefined when it fits, else the refusal that says why. */
export function inputChecker(tools: readonly Tool[], validator: (schema: Json) => SchemaValidator) {
  const validators = new Map(tools.map((tool) => [tool.name, validator(tool.inputSchema)]));
  return (tool: Tool, input: Json): string | undefined => {
    const result = validators.get(tool.name)!(input);
    if (result.valid) return undefined;
    const lines = refusalLines(tool.inputSchema, input, result.errorMessage ?? "");
    const why = (lines.length ? lines : [echoed(result.errorMessage ?? "", 500)]).map((line) => `- ${line}`).join("\n");
    return `${tool.name} did nothing: its input does not fit its schema.\n${why}`;
  };
}
