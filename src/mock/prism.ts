// Prism, run in this process and called as a function: the instance `prism mock` builds
// (`createInstance` of `@stoplight/prism-http`, serving the operations of the bundled document),
// asked directly by the mock's front instead of through a second HTTP server on loopback. The
// hop cost the mock about half its rate. What Prism's HTTP server adds around the
// instance is kept, from `@stoplight/prism-http-server` itself where it exports it (`Prefer`,
// the serializer), copied from it where it does not (CORS and the preflight, the request it
// hands the instance, the `sl-violations` header, the headers of an answer and of an error;
// `PRISM_VERSION` says from which version). The three packages
// are optional peers of this package: only the mock needs them, and they come with
// `@stoplight/prism-cli`.
import type { IncomingHttpHeaders } from "node:http";

/**
 * The version of Prism this file copies code from: the steps of the HTTP server of
 * `@stoplight/prism-http-server` 5.16.0 that the package does not export
 * (node_modules/@stoplight/prism-http-server/dist/server.js: `createServer`, its handler and
 * `setCommonCORSHeaders`, `searchParamsToNameValues`, `addViolationHeader`,
 * `createErrorObjectWithPrefix`), and the configuration `prism mock` of `@stoplight/prism-cli`
 * 5.16.0 gives the instance (node_modules/@stoplight/prism-cli/dist/util/createServer.js:
 * `createPrismServerWithLogger`). Prism releases the two together. test/mock/prism-version.test.ts
 * fails when the installed Prism is another version: re-read those two files, update the copies
 * below, then this constant.
 */
export const PRISM_VERSION = "5.16.0";

export interface PrismRequest {
  method: string;
  /** Path and query, as the request line has them. */
  url: string;
  headers: IncomingHttpHeaders;
  /** The body as Prism's server reads it: null when empty, parsed when JSON, else the text. */
  body: unknown;
}

/**
 * A finding of Prism's validators (`IPrismDiagnostic` of `@stoplight/prism-core`): where in the
 * request (or the response) it is, `["body", "address"]`; how grave (`DiagnosticSeverity`,
 * 0 for an error); the rule (Ajv's keyword); and what.
 */
export interface PrismDiagnostic {
  path?: Array<string | number>;
  severity: number;
  code?: string | number;
  message: string;
}

/** A finding as Prism's server lists it in `sl-violations`: the side it was found on first in its location, the severity by name. */
export interface PrismViolation {
  location: Array<string | number>;
  severity: string | undefined;
  code: string | number | undefined;
  message: string;
}

/** Prism's answer from the operation's responses, as its server would send it, the body not yet serialized. */
export interface PrismOutput {
  kind: "output";
  status: number;
  /** Lower-case names: CORS, `sl-violations` when Prism found anything, then the response's own. */
  headers: Record<string, string>;
  /** The example (or the generated value); `InProcessPrism.serialize` writes it for its content type. */
  body: unknown;
  /** What Prism found wrong with the request. */
  violations: PrismDiagnostic[];
}

/** An error Prism raised instead of answering (no such path or method, a `Prefer` it cannot read). */
export interface PrismError {
  kind: "error";
  /** The error's status, 500 when it has none, as Prism's server sends it. */
  status: number;
  title: string;
  detail: string | undefined;
  /** What Prism's server sends with it besides its content type: CORS and the error's own headers. */
  headers: Record<string, string>;
}

export type PrismAnswer = PrismOutput | PrismError;

export interface InProcessPrism {
  answer(request: PrismRequest): Promise<PrismAnswer>;
  /** A body as Prism's server writes it for its content type (`serialize` of `@stoplight/prism-http-server`). */
  serialize(body: unknown, contentType: string | undefined): string | undefined;
}

const INSTALL_HINT = "npm install --save-dev @stoplight/prism-http-server (or @stoplight/prism-cli, which brings it)";
// Prism's server copies long violation lists into the header only up to this length.
const MAX_SAFE_HEADER_LENGTH = 8 * 1024 - 100;
// `DiagnosticSeverity` of @stoplight/types, by value: the names Prism's server writes.
const SEVERITIES = ["Error", "Warning", "Information", "Hint"];

/**
 * Builds Prism for `document` (the bundled OpenAPI document, parsed), configured as
 * `prism mock` configures it. With `verbose`, the log of Prism's instance (routing,
 * negotiation, validation) goes to stdout as JSON lines.
 */
export async function startPrism(document: object, verbose: boolean): Promise<InProcessPrism> {
  const [{ createInstance, getHttpOperationsFromSpec }, { createLogger }, { getHttpConfigFromRequest }, { serialize }] =
    await withoutDeprecationWarnings(() =>
      Promise.all([
        importPeer<typeof import("@stoplight/prism-http")>("@stoplight/prism-http"),
        importPeer<typeof import("@stoplight/prism-core")>("@stoplight/prism-core"),
        // Not in the package's index, but the very code `prism mock` runs for these two steps.
        importPeer<typeof import("@stoplight/prism-http-server/dist/getHttpConfigFromRequest.js")>(
          "@stoplight/prism-http-server/dist/getHttpConfigFromRequest.js",
        ),
        importPeer<typeof import("@stoplight/prism-http-server/dist/serialize.js")>("@stoplight/prism-http-server/dist/serialize.js"),
      ]),
    );
  // Prism's reference parser replaces each $ref of the object it is given by its target, in
  // place: it gets a copy, and the caller's document keeps its references.
  const operations = await getHttpOperationsFromSpec(structuredClone(document));
  if (operations.length === 0) throw new Error("The OpenAPI document has no operations for Prism to serve.");
  const logger = createLogger("PRISM", { level: verbose ? "info" : "silent" });
  // What `prism mock` uses by default: validate requests, security and the examples.
  const config = {
    isProxy: false as const,
    validateRequest: true,
    validateResponse: true,
    checkSecurity: true,
    // Prism's instance reads `errors` only when proxying; `prism mock --errors` is Prism's server's, which is not run.
    // Stryker disable next-line BooleanLiteral: see above
    errors: false,
    upstreamProxy: undefined,
    // Answer with the examples, not generated values, unless a request's `Prefer` asks for them.
    mock: { dynamic: false },
  };
  const prism = createInstance(config, { logger });

  return {
    serialize: (body, contentType) => serialize(body, contentType) as string | undefined,

    // Prism's server's handler, from the request it hands the instance to the answer it sends.
    async answer(request) {
      const headers = corsHeaders(request.headers);
      // A browser's preflight, answered as Prism's server answers it.
      if (request.method === "OPTIONS" && request.headers.origin && request.headers["access-control-request-method"]) {
        headers["access-control-allow-methods"] = request.headers["access-control-request-method"];
        headers["vary"] = "origin";
        return { kind: "output", status: 204, headers, body: undefined, violations: [] };
      }
      const { pathname, searchParams } = new URL(request.url, "http://example.com");
      const input = {
        method: request.method.toLowerCase() as Lowercase<string> as "get",
        url: { path: pathname, baseUrl: searchParams.get("__server") || undefined, query: nameValues(searchParams) },
        headers: request.headers as Record<string, string>,
        body: request.body,
      };

      const preferences = getHttpConfigFromRequest(input);
      if (preferences._tag === "Left") return prismError(preferences.left, headers);
      // The request's preferences over the configuration's `mock`, as Prism's server merges them
      // (lodash's merge skips a preference the request leaves undefined); a new object for each
      // request, since the mocker writes the request's Accept into it.
      const { dynamic = config.mock.dynamic, ...preferred } = preferences.right;
      const result = await prism.request(input, operations, { ...config, mock: { ...preferred, dynamic } })();
      if (result._tag === "Left") return prismError(result.left, headers);

      const { output, validations } = result.right;
      const listed = validations.input.map(violation("request")).concat(validations.output.map(violation("response")));
      if (listed.length > 0) headers["sl-violations"] = violationsHeader(listed);
      // Lower-cased, as `getHeader` reads them in Prism's server: the mocker writes `Content-type`.
      for (const [name, value] of Object.entries(output.headers ?? {})) headers[name.toLowerCase()] = String(value);
      return { kind: "output", status: output.statusCode, headers, body: output.body, violations: validations.input };
    },
  };
}

/**
 * An error of Prism's (a `ProblemJsonError`, or an Error without its fields) as its server answers it, `headers` beside
 * the error's own.
 */
function prismError(
  error: Error & { status?: number; detail?: string; additional?: { headers?: unknown } },
  headers: Record<string, string>,
): PrismError {
  return {
    kind: "error",
    status: error.status || 500,
    title: error.message,
    detail: error.detail,
    headers: { ...headers, ...(error.additional?.headers as Record<string, string> | undefined) },
  };
}

/** The CORS headers Prism's server sends with every answer when `cors` is on, as `prism mock` has it. */
function corsHeaders(incoming: IncomingHttpHeaders): Record<string, string> {
  return {
    "access-control-allow-origin": incoming.origin || "*",
    "access-control-allow-headers": incoming["access-control-request-headers"] || "*",
    "access-control-allow-credentials": "true",
    "access-control-expose-headers": (incoming["access-control-expose-headers"] as string | undefined) || "*",
  };
}

/** The query as Prism's server hands it over: one value as a string, repeated ones as a list. */
function nameValues(searchParams: URLSearchParams) {
  const params: Record<string, string | string[]> = {};
  for (const key of searchParams.keys()) {
    const values = searchParams.getAll(key);
    params[key] = values.length === 1 ? values[0]! : values;
  }
  return params;
}

/**
 * @internal A finding of Prism's validators as its server lists it: the side it was found on (`request` or `response`)
 * before its path, the severity by name.
 */
export const violation =
  (side: "request" | "response") =>
  (diagnostic: PrismDiagnostic): PrismViolation => ({
    location: [side, ...(diagnostic.path ?? [])],
    severity: SEVERITIES[diagnostic.severity],
    code: diagnostic.code,
    message: diagnostic.message,
  });

/** @internal The `sl-violations` header: the list as JSON, cut short as Prism's server cuts it so that it fits a header. */
export function violationsHeader(violations: PrismViolation[]): string {
  const list = JSON.stringify(violations);
  return list.length > MAX_SAFE_HEADER_LENGTH ? `Too many violations! ${list.substring(0, MAX_SAFE_HEADER_LENGTH)}` : list;
}

/**
 * @internal Runs `load` with Node's deprecation warnings off, and puts them back as they were.
 * Prism's HTTP package requires node-fetch 2, whose whatwg-url requires Node's deprecated
 * punycode: Node 22 warns about it (DEP0040) at every start of the mock, to a user who can do
 * nothing about it. Off while Prism loads only, so that a deprecation of our own still shows.
 */
export async function withoutDeprecationWarnings<T>(load: () => Promise<T>): Promise<T> {
  const silenced = process.noDeprecation;
  process.noDeprecation = true;
  try {
    return await load();
  } finally {
    process.noDeprecation = silenced;
  }
}

/** @internal The module of an optional peer, or an error that says what to install. */
export async function importPeer<T>(name: string): Promise<T> {
  try {
    // Prism's packages are CommonJS: their exports are the default export's properties.
    const module = await import(name);
    return (module.default ?? module) as T;
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === "ERR_MODULE_NOT_FOUND")
      throw new Error(`The mock runs Prism, and ${name} is not installed: ${INSTALL_HINT}.`);
    throw error;
  }
}
