// The mock of the Payin Acceptance Service: Prism, run in this process and validating every
// request against the bundled OpenAPI document, behind a small front server that answers
// what Prism cannot: malformed JSON (Prism never answers it), bodies over the contract's
// 64 KiB (D16), and validation problems that name the caller's real fields. Prism is called
// as a function (./prism.ts): the front is the only server.
import { readFileSync } from "node:fs";
import { createServer, type IncomingMessage, type ServerResponse } from "node:http";
import path from "node:path";
import type { Json } from "../lib/json.ts";
import { problem as buildProblem, PROBLEM_CONTENT_TYPE, responseProblems } from "../lib/problem.ts";
import { packageRoot } from "../package-root.ts";
import { startPrism, type InProcessPrism, type PrismAnswer } from "./prism.ts";
import { fieldErrors } from "./violations.ts";
import { listen } from "../lib/listen.ts";
import { isJsonType, MAX_BODY_BYTES, readBody } from "../lib/request-body.ts";

export interface MockOptions {
  /** Port of the mock; 0 picks a free one. Default 4010. */
  port?: number;
  /** Interface to listen on. Default 127.0.0.1. */
  host?: string;
  /** The bundled OpenAPI document, as JSON. Default: this package's `generated/openapi.json`. */
  document?: string;
  /** Print Prism's log. */
  verbose?: boolean;
}

export interface RunningMock {
  url: string;
  port: number;
  close(): Promise<void>;
}

export async function startMock(options: MockOptions = {}): Promise<RunningMock> {
  const host = options.host ?? "127.0.0.1";
  const document = path.resolve(options.document ?? path.join(packageRoot(import.meta.url), "generated", "openapi.json"));
  let openapi: Json;
  try {
    openapi = JSON.parse(readFileSync(document, "utf8"));
  } catch (error) {
    throw new Error(`The mock needs the bundled OpenAPI document as JSON (${document}): ${(error as Error).message}`);
  }
  const problem = responseProblems(openapi, ["BadRequest", "PayloadTooLarge", "ServiceUnavailable"]);

  const prism = await startPrism(document, options.verbose ?? false);
  const server = createServer((req, res) => {
    handle(req, res, prism, problem).catch((error: unknown) => {
      // Prism failing, or an answer of its that is not JSON: the contract's answer to an outage.
      if (res.headersSent || res.destroyed) return res.destroy();
      res.setHeader("Retry-After", "1");
      sendJson(res, 503, problem("ServiceUnavailable", `The mock could not answer: ${(error as Error).message}`));
    });
  });
  const port = await listen(server, options.port ?? 4010, host);
  return {
    url: `http://${host}:${port}`,
    port,
    close: async () => {
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}

async function handle(req: IncomingMessage, res: ServerResponse, prism: InProcessPrism, problem: ReturnType<typeof responseProblems>) {
  const raw = await readBody(req);
  if (raw === "too large") {
    res.setHeader("Connection", "close");
    return sendJson(res, 413, problem("PayloadTooLarge", `The request body is larger than ${MAX_BODY_BYTES / 1024} KiB.`));
  }
  // The body as Prism's own server would hand it over: null when empty, parsed when JSON.
  let body: unknown = null;
  if (raw.length > 0 && isJsonType(req.headers["content-type"])) {
    try {
      body = JSON.parse(raw.toString("utf8"));
    } catch (error) {
      return sendJson(res, 400, problem("BadRequest", `The request body is not valid JSON: ${(error as Error).message}.`));
    }
  } else if (raw.length > 0) body = raw.toString("utf8");

  const answer = await prism.answer({ method: req.method!, url: req.url!, headers: req.headers, body });
  let text = answer.body;
  if (answer.prismError) text = JSON.stringify(fromPrismError(answer.status, answer.prismError));
  else if (answer.status === 422 && answer.violations.length > 0) {
    const errors = fieldErrors(answer.violations);
    text = JSON.stringify({ ...JSON.parse(text), detail: `The request has ${errors.length} invalid field${errors.length === 1 ? "" : "s"}.`, errors });
  }
  res.writeHead(answer.status, answer.headers);
  res.end(text);
}

/** Prism's own errors (an unknown path, a method the path lacks) in the contract's problem shape. */
function fromPrismError(status: number, prism: NonNullable<PrismAnswer["prismError"]>) {
  const code = status === 404 ? "not_found" : status === 405 ? "method_not_allowed" : "invalid_request";
  return buildProblem({
    status,
    code,
    title: prism.title ?? "Invalid request",
    detail: prism.detail ?? prism.title ?? "The mock cannot answer this request.",
  });
}

function sendJson(res: ServerResponse, status: number, problem: object) {
  res.writeHead(status, { "Content-Type": PROBLEM_CONTENT_TYPE });
  res.end(JSON.stringify(problem));
}
