// The operations of an OpenAPI document, as its path items hold them.
import type { Json } from "../../src/lib/json.ts";

/** The methods an OpenAPI 3.1 path item may hold, in the order the specification lists them. */
export const HTTP_METHODS = ["get", "put", "post", "delete", "options", "head", "patch", "trace"] as const;

export type HttpMethod = (typeof HTTP_METHODS)[number];

export const isHttpMethod = (key: string): key is HttpMethod => (HTTP_METHODS as readonly string[]).includes(key);

export interface OperationEntry {
  /** The path template, as the document spells it: `/api/v1/earn/transactions/{transaction_id}/`. */
  path: string;
  /** Lower case, as the path item's key. */
  method: HttpMethod;
  operation: Json;
}

/**
 * Every operation of `paths`, path by path in the document's order and, within a path, in the
 * order of HTTP_METHODS. Keys of a path item that are not methods (parameters, summary,
 * extensions) are skipped.
 */
export function operationsOf(doc: Json): OperationEntry[] {
  return Object.entries<Json>(doc.paths ?? {}).flatMap(([path, item]) =>
    HTTP_METHODS.filter((method) => item[method]).map((method) => ({ path, method, operation: item[method] as Json })),
  );
}
