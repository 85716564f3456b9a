// Prism, run in this process and called as a function: the instance `prism mock` builds
// (`createInstance` of `@stoplight/prism-http`, serving the operations of the bundled document),
// asked directly by the mock's front instead of through a second HTTP server on loopback. The
// hop cost the mock about half its rate. What Prism's HTTP server adds around the
// instance is kept, from `@stoplight/prism-http-server` itself where it exports it: `Prefer`,
// the `sl-violations` header, CORS and the serialized body. The three packages are optional
// peers of this package: only the mock needs them, and they come with `@stoplight/prism-cli`.
import type { IncomingHttpHeaders } from "node:http";

export interface PrismRequest {
  method: string;
  /** Path and query, as the request line has them. */
  url: string;
  headers: IncomingHttpHeaders;
  /** The body as Prism's server reads it: null when empty, parsed when JSON, else the text. */
  body: unknown;
}

/** Where in the request (or response) a violation is, and what it is; `sl-violations` lists these. */
export interface PrismViolation {
  location: Array<string | number>;
  severity: string;
  code: string | number | undefined;
  message: string;
}

export interface PrismAnswer {
  status: number;
  headers: Record<string, string>;
  body: string;
  /** What Prism found wrong with the request, when it answered from the operation's responses. */
  violations: PrismViolation[];
  /** Set when Prism raised an error of its own (no such path or method, a bad `Prefer`): its problem's title and detail. */
  prismError?: { title?: string; detail?: string };
}

export interface InProcessPrism {
  answer(request: PrismRequest): Promise<PrismAnswer>;
}

const INSTALL_HINT = "npm install --save-dev @stoplight/prism-http-server (or @stoplight/prism-cli, which brings it)";
// Prism's server copies long violation lists into the header only up to this length.
const MAX_SAFE_HEADER_LENGTH = 8 * 1024 - 100;
// `DiagnosticSeverity` of @stoplight/types, by value: the names Prism's server writes.
const SEVERITIES = ["Error", "Warning", "Information", "Hint"];

/**
 * Builds Prism for `document` (a file path of the bundled OpenAPI document), configured as
 * `prism mock` configures it. With `verbose`, the log of Prism's instance (routing,
 * negotiation, validation) goes to stdout as JSON lines.
 */
export async function startPrism(document: string, verbose: boolean): Promise<InProcessPrism> {
  const [{ createInstance, getHttpOperationsFromSpec, ProblemJsonError }, { createLogger }, { getHttpConfigFromRequest }, { serialize }] = await Promise.all([
    importPeer<typeof import("@stoplight/prism-http")>("@stoplight/prism-http"),
    importPeer<typeof import("@stoplight/prism-core")>("@stoplight/prism-core"),
    // Not in the package's index, but the very code `prism mock` runs for these two steps.
    importPeer<typeof import("@stoplight/prism-http-server/dist/getHttpConfigFromRequest.js")>("@stoplight/prism-http-server/dist/getHttpConfigFromRequest.js"),
    importPeer<typeof import("@stoplight/prism-http-server/dist/serialize.js")>("@stoplight/prism-http-server/dist/serialize.js"),
  ]);
  const operations = await getHttpOperationsFromSpec(document);
  if (operations.length === 0) throw new Error(`${document} has no operations for Prism to serve.`);
  const logger = createLogger("PRISM", { level: verbose ? "info" : "silent" });
  // What `prism mock` uses by default: validate requests and security, answer with examples.
  const config = {
    isProxy: false as const,
    validateRequest: true,
    // Stryker disable next-line BooleanLiteral: every example is valid against its schema (test/openapi/examples.test.ts holds them so), so checking them never finds a violation
    validateResponse: true,
    checkSecurity: true,
    // Stryker disable next-line BooleanLiteral: it turns response violations into errors, and there are none (see validateResponse)
    errors: false,
    upstreamProxy: undefined,
    mock: { dynamic: false },
  };
  const prism = createInstance(config, { logger });

  return {
    async answer(request) {
      const headers = corsHeaders(request.headers);
      // A browser's preflight, answered as Prism's server answers it.
      if (request.method === "OPTIONS" && request.headers.origin && request.headers["access-control-request-method"]) {
        headers["access-control-allow-methods"] = request.headers["access-control-request-method"];
        headers["vary"] = "origin";
        // Stryker disable next-line StringLiteral: node:http sends no body with a 204, whatever it is given
        return { status: 204, headers, body: "", violations: [] };
      }
      const { pathname, searchParams } = new URL(request.url, "http://mock.invalid");
      const input = {
        method: request.method.toLowerCase() as Lowercase<string> as "get",
        url: { path: pathname, baseUrl: searchParams.get("__server") ?? undefined, query: nameValues(searchParams) },
        headers: request.headers as Record<string, string>,
        body: request.body,
      };

      const preferences = getHttpConfigFromRequest(input);
      const result =
        preferences._tag === "Left"
          ? preferences
          : await prism.request(input, operations, { ...config, mock: { ...config.mock, ...defined(preferences.right) } })();
      if (result._tag === "Left") {
        const error = result.left as InstanceType<typeof ProblemJsonError>;
        const problem = ProblemJsonError.toProblemJson(error);
        return {
          status: problem.status,
          headers: { ...headers, "content-type": "application/problem+json", ...(error.additional?.headers as Record<string, string> | undefined) },
          body: JSON.stringify(problem),
          violations: [],
          prismError: { title: problem.title, detail: problem.detail || undefined },
        };
      }

      const { output, validations } = result.right;
      const violations = validations.input.map(violation("request"));
      const all = violations.concat(validations.output.map(violation("response")));
      if (all.length > 0) headers["sl-violations"] = violationsHeader(all);
      // Lower-cased, as `getHeader` reads them in Prism's server: the mocker writes `Content-type`.
      for (const [name, value] of Object.entries(output.headers ?? {})) headers[name.toLowerCase()] = String(value);
      return { status: output.statusCode, headers, body: (serialize(output.body, headers["content-type"]) as string | undefined) ?? "", violations };
    },
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

function nameValues(searchParams: URLSearchParams) {
  const params: Record<string, string | string[]> = {};
  for (const key of searchParams.keys()) {
    const values = searchParams.getAll(key);
    params[key] = values.length === 1 ? values[0]! : values;
  }
  return params;
}

/** The preferences `Prefer` set: a lodash merge, as Prism's server does it, skips the others. */
function defined<T extends object>(preferences: T): Partial<T> {
  return Object.fromEntries(Object.entries(preferences).filter(([, value]) => value !== undefined)) as Partial<T>;
}

/** @internal A violation of Prism's validators as its server lists it: where (`request` or `response`, then the path), and the severity's name. */
export const violation =
  (where: "request" | "response") =>
  (detail: { path?: Array<string | number>; severity: number; code?: string | number; message: string }): PrismViolation => ({
    location: [where, ...(detail.path ?? [])],
    severity: SEVERITIES[detail.severity] ?? String(detail.severity),
    code: detail.code,
    message: detail.message,
  });

/** @internal The `sl-violations` header: the list as JSON, cut short as Prism's server cuts it so that it fits a header. */
export function violationsHeader(violations: PrismViolation[]): string {
  const list = JSON.stringify(violations);
  return list.length > MAX_SAFE_HEADER_LENGTH ? `Too many violations! ${list.substring(0, MAX_SAFE_HEADER_LENGTH)}` : list;
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
