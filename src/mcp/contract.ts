// What payin-mcp knows without a service: the package's own documents and guides, read from the
// installed package. Schemas come from the bundled contract, made small (compact.ts), so that a
// tool's input schema and get_schema's answer are the contract's, never written again.
import { readdirSync, readFileSync } from "node:fs";
import path from "node:path";
import type { Json } from "../lib/json.ts";
import { packageRoot } from "../package-root.ts";
import { compact } from "./compact.ts";

const root = packageRoot(import.meta.url);
/** A file of the installed package, by its path from the package's folder. */
export const readPackageFile = (file: string) => readFileSync(path.join(root, file), "utf8");
export const openapi: Json = JSON.parse(readPackageFile("generated/openapi.json"));

/** A schema of the contract, by its name, made small. */
export const contractSchema = (name: string) => compact(openapi.components.schemas[name], openapi);
/** Any part of the contract, its refs written in and made small. */
export const compacted = (schema: unknown) => compact(schema, openapi);

export interface FoundOperation {
  method: string;
  path: string;
  operation: Json;
}

/** Every operation of the contract. */
export const operations: FoundOperation[] = Object.entries<Json>(openapi.paths).flatMap(([route, item]) =>
  Object.entries<Json>(item).flatMap(([method, operation]) => (operation?.operationId ? [{ method, path: route, operation }] : [])),
);

/** The operation with that operationId, or at that path (`POST /webhooks`, or the path alone: its first method). */
export const findOperation = (name: string): FoundOperation | undefined =>
  operations.find(
    ({ method, path: route, operation }) =>
      operation.operationId === name || route === name || route === `${name}/` || `${method.toUpperCase()} ${route}` === name,
  );

/** The guides the package ships, by their paths. */
export const GUIDES = readdirSync(path.join(root, "scripts/docs/guides"))
  .filter((file) => file.endsWith(".md"))
  .map((file) => `scripts/docs/guides/${file}`);

/** The documents and guides offered as resources: their URI, name, type and file. */
export const RESOURCES = [
  {
    uri: "payin://contract/openapi.json",
    name: "The contract (OpenAPI 3.1)",
    mimeType: "application/json",
    file: "generated/openapi.json",
  },
  {
    uri: "payin://contract/asyncapi.json",
    name: "The webhook events (AsyncAPI 3)",
    mimeType: "application/json",
    file: "generated/asyncapi.json",
  },
  {
    uri: "payin://contract/payin.arazzo.yaml",
    name: "The payin flows (Arazzo)",
    mimeType: "application/yaml",
    file: "generated/payin.arazzo.yaml",
  },
  { uri: "payin://docs/decisions.md", name: "The decision register", mimeType: "text/markdown", file: "openapi/DECISIONS.md" },
  ...GUIDES.map((file) => ({
    uri: `payin://docs/${path.basename(file)}`,
    name: `Guide: ${/^# (.+)$/m.exec(readPackageFile(file))?.[1] ?? file}`,
    mimeType: "text/markdown",
    file,
  })),
];
