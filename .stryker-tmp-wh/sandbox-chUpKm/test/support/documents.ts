// @ts-nocheck
import { readFileSync } from "node:fs";
import path from "node:path";
import { generatedDir } from "../../scripts/lib/paths.ts";
import type { Json } from "../../src/lib/json.ts";
import { operationsOf } from "../../src/lib/openapi.ts";

const readJson = (name: string): Json => JSON.parse(readFileSync(path.join(generatedDir, name), "utf8"));

/** The bundled OpenAPI document with every $ref resolved in place. */
export const openapi = readJson("openapi.dereferenced.json");

/** The bundled OpenAPI document with its components and internal $refs. */
export const openapiBundle = readJson("openapi.json");

/** Every operation of the dereferenced document (or of `doc`). */
export const operations = (doc: Json = openapi) => operationsOf(doc);
