// @ts-nocheck
// One walk over every object of a document, for the scripts that touch each description or
// each marked element.
import type { Json } from "../../src/lib/json.ts";

/**
 * Calls `visit` on every object (not array) in `node`, parent before children, with the keys
 * that lead to it. An object reached twice (a YAML alias, a shared copy) is visited once, at
 * the first path found.
 */
export function walkObjects(node: unknown, visit: (element: Json, at: string[]) => void): void {
  const seen = new WeakSet<object>();
  const walk = (value: unknown, at: string[]) => {
    if (!value || typeof value !== "object" || seen.has(value)) return;
    seen.add(value);
    if (Array.isArray(value)) return value.forEach((item, i) => walk(item, [...at, String(i)]));
    visit(value as Json, at);
    for (const [key, child] of Object.entries(value)) walk(child, [...at, key]);
  };
  walk(node, []);
}
