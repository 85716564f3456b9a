// Valid request bodies generated from the contract's request schemas (the ways to break them
// are the conformance kit's, src/conformance/breakages.ts). Covers the JSON Schema the request
// bodies use: objects, enums, patterns, formats (email, date, uri), lengths, exclusive minimums
// and `allOf`.
import fc from "fast-check";
import type { Json } from "../../../src/lib/json.ts";

type Schema = Json;

const FORMATS: Record<string, fc.Arbitrary<string>> = {
  email: fc.tuple(fc.stringMatching(/^[a-z][a-z0-9]{0,15}$/), fc.constantFrom("example.com", "example.org")).map(([u, d]) => `${u}@${d}`),
  date: fc.date({ min: new Date("1920-01-01"), max: new Date("2010-12-31"), noInvalidDate: true }).map((d) => d.toISOString().slice(0, 10)),
  uri: fc
    .tuple(fc.constantFrom("shop", "pay", "www"), fc.stringMatching(/^[a-z0-9-]{0,20}$/))
    .map(([h, p]) => `https://${h}.example.com/${p}`),
};

/** The schema with its `allOf` parts folded in (its own keywords win), as the documents combine them. */
function merged(schema: Schema): Schema {
  if (!schema.allOf) return schema;
  const { allOf, ...own } = schema;
  return Object.assign({}, ...(allOf as Schema[]).map(merged), own);
}

export function validValue(original: Schema): fc.Arbitrary<unknown> {
  const schema = merged(original);
  if (schema.enum) return fc.constantFrom(...schema.enum);
  if (schema.const !== undefined) return fc.constant(schema.const);
  switch (schema.type) {
    case "object": {
      const required = new Set<string>(schema.required ?? []);
      const props = Object.fromEntries(Object.entries<Schema>(schema.properties ?? {}).map(([k, s]) => [k, validValue(s)]));
      return fc.record(props, { requiredKeys: [...required] });
    }
    case "number":
      return fc.integer({ min: 1, max: 10_000_000 }).map((cents) => cents / 100);
    case "string": {
      const max = schema.maxLength ?? 64;
      const min = schema.minLength ?? 0;
      const base: fc.Arbitrary<string> =
        (schema.format && FORMATS[schema.format]) ??
        (schema.pattern
          ? fc.stringMatching(new RegExp(schema.pattern))
          : fc.string({ unit: "grapheme-ascii", minLength: Math.max(min, 1), maxLength: Math.min(max, 40) }));
      return base.filter((s: string) => s.length >= min && s.length <= max);
    }
    default:
      throw new Error(`No generator for schema ${JSON.stringify(schema).slice(0, 80)}`);
  }
}
