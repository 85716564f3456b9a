// Finds the operation of a request from the paths and methods of the two documents (the
// contract and the control API), as generated at build time.
import { operations, type OperationRequest } from "../../../generated/sandbox-requests.js";
import { aSlashAway, templatePattern as patternOf } from "../../lib/trailing-slash.ts";
import { safeDecode } from "./http.ts";

export type RouteMatch =
  | { found: OperationRequest; pathParameters: Record<string, string> }
  /** `near`: the path a slash away that an operation has, and the document it is in. */
  | { found: "no path"; near?: { path: string; document: OperationRequest["document"] } }
  | { found: "no method"; allowed: string[] };

interface Route {
  pattern: RegExp | null;
  names: string[];
  byMethod: Map<string, OperationRequest>;
}

export function createRouter(): (method: string, pathname: string) => RouteMatch {
  const exact = new Map<string, Route>();
  const templated: Array<Route & { pattern: RegExp }> = [];
  for (const op of operations) {
    const names = [...op.path.matchAll(/\{([^}]+)\}/g)].map((m) => m[1]!);
    const known = exact.get(op.path) ?? templated.find((r) => r.pattern.source === patternOf(op.path).source);
    if (known) {
      known.byMethod.set(op.method, op);
      continue;
    }
    const route: Route = { pattern: names.length ? patternOf(op.path) : null, names, byMethod: new Map([[op.method, op]]) };
    if (route.pattern) templated.push(route as Route & { pattern: RegExp });
    else exact.set(op.path, route);
  }

  const routeOf = (pathname: string): { route: Route; match?: RegExpExecArray } | undefined => {
    const route = exact.get(pathname);
    if (route) return { route };
    for (const candidate of templated) {
      const match = candidate.pattern.exec(pathname);
      if (match) return { route: candidate, match };
    }
    return undefined;
  };

  return (method, pathname) => {
    const found = routeOf(pathname);
    if (!found) {
      const near = aSlashAway(pathname, (path) => routeOf(path) !== undefined);
      if (near === undefined) return { found: "no path" };
      // Every route has an operation, and a path's operations are all in one document.
      const [op] = routeOf(near)!.route.byMethod.values();
      return { found: "no path", near: { path: near, document: op!.document } };
    }
    const { route, match } = found;
    const pathParameters: Record<string, string> = match
      ? Object.fromEntries(route.names.map((name, i) => [name, safeDecode(match[i + 1]!)]))
      : {};
    // HTTP asks for HEAD wherever GET is served (RFC 9110, 9.3.2): node:http sends no body for it.
    const op = route.byMethod.get(method === "HEAD" ? "GET" : method);
    if (!op) return { found: "no method", allowed: allowedOf(route) };
    return { found: op, pathParameters };
  };
}

const allowedOf = (route: Route) => [...route.byMethod.keys()].flatMap((method) => (method === "GET" ? ["GET", "HEAD"] : [method]));
