// @ts-nocheck
// Small helpers for the contract's documents as plain JSON, shared by the runtime (src/),
// the build and docs scripts, and the tests.

/** A JSON object read from one of the contract's documents, before anything checks its shape. */
export type Json = Record<string, any>;

/** The value at a local JSON pointer (`#/components/schemas/Amount`), or undefined. */
export function resolvePointer(doc: Json, pointer: string): unknown {
  if (pointer === "#") return doc;
  if (!pointer.startsWith("#/")) throw new Error(`Only local references are resolved, not ${pointer}`);
  return pointer
    .slice(2)
    .split("/")
    .map((part) => part.replaceAll("~1", "/").replaceAll("~0", "~"))
    .reduce<any>((at, key) => at?.[key], doc);
}

/**
 * The object a node stands for: the node itself, or what its `$ref` (and the `$ref` there, and
 * so on) points to. Throws on a reference that leads nowhere or in a circle.
 */
export function resolveRef<T = Json>(doc: Json, node: Json): T {
  const seen = new Set<string>();
  let at: unknown = node;
  while (at && typeof at === "object" && typeof (at as Json).$ref === "string") {
    const ref: string = (at as Json).$ref;
    if (seen.has(ref)) throw new Error(`Circular reference ${ref}`);
    seen.add(ref);
    at = resolvePointer(doc, ref);
    if (at === undefined) throw new Error(`Unresolved reference ${ref}`);
  }
  return at as T;
}
