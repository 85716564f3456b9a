// A JSON Schema as a Markdown table of its fields, nested fields under their parent's name
// (`data.amount`): how the events reference and the Markdown of the API references show a body.
import type { Json } from "../../src/lib/json.ts";

/** The properties of a schema, its `allOf` parts merged in. */
function merged(schema: Json): { properties: Record<string, Json>; required: Set<string> } {
  const properties: Record<string, Json> = {};
  const required = new Set<string>();
  const visit = (part: Json) => {
    for (const inner of part.allOf ?? []) visit(inner);
    for (const [name, property] of Object.entries<Json>(part.properties ?? {}))
      properties[name] = property.allOf && properties[name] ? { ...properties[name], ...property } : property;
    for (const name of part.required ?? []) required.add(name);
  };
  visit(schema);
  return { properties, required };
}

/** A field's type as a reader wants it: the constant, the values, the format. */
function typeOf(schema: Json): string {
  const all = [schema, ...(schema.allOf ?? [])];
  const pick = <T>(key: string) => all.map((part) => part[key] as T | undefined).find((value) => value !== undefined);
  const constant = pick<unknown>("const");
  if (constant !== undefined) return `\`${JSON.stringify(constant)}\``;
  const values = pick<unknown[]>("enum");
  if (values) return values.map((value) => `\`${JSON.stringify(value)}\``).join(" \\| ");
  const type = pick<string | string[]>("type") ?? (Object.keys(merged(schema).properties).length ? "object" : "any");
  const format = pick<string>("format");
  return `${[type].flat().join(" \\| ")}${format ? ` (${format})` : ""}`;
}

const cell = (text: string) => text.replace(/\s*\n\s*/g, " ").replace(/\|/g, "\\|");

/** The rows of a schema's fields, nested fields under their parent's name (`data.amount`). */
function fieldRows(schema: Json, prefix = "", omit: ReadonlySet<string> = new Set()): string[] {
  const { properties, required } = merged(schema);
  return Object.entries(properties).flatMap(([name, property]) => {
    if (omit.has(name)) return [];
    const path = `${prefix}${name}`;
    const row = `| \`${path}\` | ${typeOf(property)} | ${required.has(name) ? "yes" : "no"} | ${cell(property.description ?? "")} |`;
    return [row, ...fieldRows(property, `${path}.`)];
  });
}

/** The table of a schema's fields, but for the top-level ones in `omit` (shown once elsewhere). */
export function fieldsTable(schema: Json, omit: ReadonlySet<string> = new Set()): string {
  return ["| Field | Type | Required | Description |", "|---|---|---|---|", ...fieldRows(schema, "", omit)].join("\n");
}
