import { readFileSync } from "node:fs";
import path from "node:path";
import { generatedDir } from "../../scripts/lib/paths.ts";

type Json = Record<string, any>;

const readJson = (name: string): Json => JSON.parse(readFileSync(path.join(generatedDir, name), "utf8"));

/** The bundled OpenAPI document with every $ref resolved in place. */
export const openapi = readJson("openapi.dereferenced.json");

/** The bundled OpenAPI document with its components and internal $refs. */
export const openapiBundle = readJson("openapi.json");

export const HTTP_METHODS = ["get", "put", "post", "delete", "patch", "head", "options", "trace"] as const;

export interface OperationEntry {
  path: string;
  method: string;
  operation: Json;
}

export function operations(doc: Json = openapi): OperationEntry[] {
  return Object.entries(doc.paths as Json).flatMap(([p, item]) =>
    HTTP_METHODS.filter((m) => item[m]).map((method) => ({ path: p, method, operation: item[method] })),
  );
}
