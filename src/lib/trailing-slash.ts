// A request path a slash away from a documented one. The contract's paths end with a slash
// (/api/v1/earn/payment-sessions/) and /webhooks does not: a client that gets it wrong is told
// which, instead of a bare 404. The sandbox and the mock word it alike.

/** `pathname` with its trailing slash added or taken off, when `known` says that path is served. */
export function aSlashAway(pathname: string, known: (path: string) => boolean): string | undefined {
  // The root has no other form; a path that ends in two slashes is more than a slash away.
  if (pathname === "/" || pathname === "" || pathname.endsWith("//")) return undefined;
  const other = pathname.endsWith("/") ? pathname.slice(0, -1) : `${pathname}/`;
  return known(other) ? other : undefined;
}

/** The detail of the 404 for `pathname`, whose served form is `near`; `whose` names the document (`the contract's path`). */
export const slashAwayDetail = (pathname: string, near: string, whose = "the contract's path") =>
  `No operation at ${pathname}; ${whose} is ${near} (${near.endsWith("/") ? "with" : "without"} the trailing slash).`;

/** Whether a path matches one of the OpenAPI path templates (`/api/v1/earn/transactions/{transaction_id}/`). */
export function templatesMatcher(templates: Iterable<string>): (pathname: string) => boolean {
  const patterns = [...templates].map((template) => templatePattern(template));
  return (pathname) => patterns.some((pattern) => pattern.test(pathname));
}

/** An OpenAPI path template as a regular expression, each `{parameter}` one path segment, captured. */
export function templatePattern(template: string): RegExp {
  const source = template
    .split(/\{[^}]+\}/)
    .map((part) => part.replace(/[.*+?^$()|[\]\\]/g, "\\$&"))
    .join("([^/]*)");
  return new RegExp(`^${source}$`);
}
