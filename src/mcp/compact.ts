// The contract's schemas made small enough for an agent's context: every `$ref` written in and
// every `allOf` merged into the schema that uses it, keeping what a caller acts on (types,
// constraints, enums, what is required) and, of the descriptions, each property's own first
// sentence. A shared type's description and example ("no control characters", under every
// string) are said once by the contract, not again under each field.
import { firstSentence } from "../lib/docs-sections.ts";
import type { Json } from "../lib/json.ts";

/** The keys a schema keeps: what it constrains, and how it is built. */
const KEPT = new Set([
  "type",
  "enum",
  "const",
  "format",
  "pattern",
  "minLength",
  "maxLength",
  "minimum",
  "maximum",
  "exclusiveMinimum",
  "exclusiveMaximum",
  "minItems",
  "maxItems",
  "uniqueItems",
  "required",
  "additionalProperties",
  "properties",
  "items",
  "oneOf",
  "anyOf",
]);

/** `schema` of `document` made small; a property keeps the first sentence of its description. */
export function compact(schema: unknown, document: Json): any {
  if (Array.isArray(schema)) return schema.map((item) => compact(item, document));
  if (typeof schema !== "object" || schema === null) return schema;
  const { $ref, allOf, ...rest } = schema as Json;
  const own: Json = {};
  for (const key of Object.keys(rest)) if (KEPT.has(key)) own[key] = part(key, rest[key], document);
  // What it builds on, the most general first: the schema it refers to, then each allOf branch, each refining the last.
  const bases = [...(typeof $ref === "string" ? [resolve($ref, document)] : []), ...((allOf as Json[] | undefined) ?? [])];
  return [...bases.map((base) => compact(base, document)), own].reduce((general, specific) => refined(specific, general), {});
}

/** Both schemas at once, as allOf means them: `specific`'s own word where both say something, their properties each merged. */
function refined(specific: Json, general: Json): Json {
  const merged: Json = { ...general, ...specific };
  // A constant says all an enumeration around it would.
  if ("const" in merged) delete merged.enum;
  if (general.required && specific.required) merged.required = [...new Set([...general.required, ...specific.required])];
  if (general.properties && specific.properties)
    merged.properties = Object.fromEntries(
      [...new Set([...Object.keys(general.properties), ...Object.keys(specific.properties)])].map((name) => [
        name,
        refined(specific.properties[name] ?? {}, general.properties[name] ?? {}),
      ]),
    );
  return merged;
}

function part(key: string, value: any, document: Json): any {
  if (key !== "properties") return key === "items" || key === "oneOf" || key === "anyOf" ? compact(value, document) : value;
  return Object.fromEntries(
    Object.entries<Json>(value).map(([name, property]) => {
      // Its own description, else that of the type it is (`amount` is an `Amount`).
      const description =
        property.description ?? (typeof property.$ref === "string" ? resolve(property.$ref, document).description : undefined);
      return [
        name,
        { ...(typeof description === "string" ? { description: firstSentence(description) } : {}), ...compact(property, document) },
      ];
    }),
  );
}

function resolve(ref: string, document: Json): Json {
  return ref
    .slice(2)
    .split("/")
    .reduce((at: Json, key) => at[key.replaceAll("~1", "/").replaceAll("~0", "~")], document);
}
