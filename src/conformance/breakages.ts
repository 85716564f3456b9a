// The ways to break a request body one field at a time, from the contract's own request schema
// (the bundled document shipped in the package): each field of the wrong type, outside its enum,
// against its pattern or format, too long or too short, below its minimum, missing when
// required, and a property the schema does not allow, nested objects included.
import { resolveRef, type Json } from "../lib/json.ts";
import { readPackageFile } from "../package-root.ts";

const bundle: Json = JSON.parse(readPackageFile(import.meta.url, "generated/openapi.json"));

/** A schema with its `$ref` followed and its `allOf` parts folded in (its own keywords win). */
function resolved(node: Json): Json {
  const schema = resolveRef<Json>(bundle, node);
  if (!schema.allOf) return schema;
  const { allOf, ...own } = schema;
  return Object.assign({}, ...(allOf as Json[]).map(resolved), own);
}

/** The JSON body schema of a request of the contract. */
export function requestSchema(method: string, pathTemplate: string): Json {
  return resolved(bundle.paths[pathTemplate][method.toLowerCase()].requestBody.content["application/json"].schema);
}

export interface Breakage {
  /** Dot path of the field that is broken. */
  field: string;
  /** What is done to it. */
  how: string;
  apply(body: Record<string, any>): void;
}

const at = (body: Record<string, any>, where: string[]) => where.reduce((o, k) => (o[k] ??= {}), body);

/** Every single-field way to break a body of this schema. */
export function breakages(schema: Json, where: string[] = []): Breakage[] {
  const out: Breakage[] = [];
  const field = (name: string) => [...where, name].join(".");
  for (const [name, original] of Object.entries<Json>(schema.properties ?? {})) {
    const prop = resolved(original);
    const set = (how: string, value: unknown) =>
      out.push({ field: field(name), how, apply: (body) => void (at(body, where)[name] = value) });
    set("wrong type", prop.type === "string" ? 12345 : "a string");
    if (prop.enum) set("value outside the enum", "NOT_ALLOWED");
    if (prop.pattern)
      set(
        "does not match its pattern",
        ["!!", "\u0000"].find((v) => !new RegExp(prop.pattern, "u").test(v)),
      );
    if (prop.format === "email") set("not an email", "not-an-email");
    if (prop.format === "date") set("not a date", "21/11/2026");
    if (prop.format === "uri") set("not a URI", "not a uri");
    if (prop.maxLength) set("too long", "A".repeat(prop.maxLength + 1));
    if (prop.minLength) set("too short", "");
    if (prop.exclusiveMinimum !== undefined) set("not above its minimum", prop.exclusiveMinimum);
    if (schema.required?.includes(name))
      out.push({ field: field(name), how: "missing", apply: (body) => void delete at(body, where)[name] });
    if (prop.type === "object") out.push(...breakages(prop, [...where, name]));
  }
  if (schema.additionalProperties === false)
    out.push({ field: field("unexpected_field"), how: "unknown property", apply: (body) => void (at(body, where).unexpected_field = 1) });
  return out;
}
