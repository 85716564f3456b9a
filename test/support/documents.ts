import { readFileSync } from "node:fs";
import path from "node:path";
import { generatedDir } from "../../scripts/lib/paths.ts";
import { resolveRef, type Json } from "../../src/lib/json.ts";
import { operationsOf } from "../../scripts/lib/openapi.ts";

const readJson = (name: string): Json => JSON.parse(readFileSync(path.join(generatedDir, name), "utf8"));

/** The bundled OpenAPI document with every $ref resolved in place. */
export const openapi = readJson("openapi.dereferenced.json");

/** The bundled OpenAPI document with its components and internal $refs. */
export const openapiBundle = readJson("openapi.json");

/** A copy of `doc` with every local $ref replaced by what it points to (the documents have no cycles). */
export function dereference(doc: Json): Json {
  const inline = (node: unknown): unknown => {
    if (Array.isArray(node)) return node.map(inline);
    if (!node || typeof node !== "object") return node;
    const target = resolveRef<Json>(doc, node as Json);
    return Object.fromEntries(Object.entries(target).map(([key, value]) => [key, inline(value)]));
  };
  return inline(doc) as Json;
}

/** The sandbox's control API document, every $ref resolved in place. */
export const sandboxApi = dereference(readJson("sandbox.json"));

/** Every operation of the dereferenced document (or of `doc`). */
export const operations = (doc: Json = openapi) => operationsOf(doc);
