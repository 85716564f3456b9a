// The mock of the Payin Acceptance Service: Prism, run in this process and validating every
// request against the bundled OpenAPI document, behind a small front server that answers
// what Prism cannot: malformed JSON (Prism never answers it), bodies over the contract's
// 64 KiB (D16), and validation problems that name the caller's real fields. Prism listens on
// a loopback port of its own that only the front uses.
import { readFileSync } from "node:fs";
import { Agent, createServer, request as httpRequest, type IncomingMessage, type OutgoingHttpHeaders, type ServerResponse } from "node:http";
import path from "node:path";
import type { Json } from "../lib/json.ts";
import { problem as buildProblem, PROBLEM_CONTENT_TYPE, responseProblems } from "../lib/problem.ts";
import { packageRoot } from "../package-root.ts";
import { startPrism } from "./prism.ts";
import { fieldErrors, parseViolations } from "./violations.ts";
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
  const upstream = prism.url;

  // Kept-alive connections to Prism: opening one per request cost a third of the rate.
  const agent = new Agent({ keepAlive: true, maxSockets: 64 });
  const server = createServer((req, res) => {
    handle(req, res, agent, upstream, problem).catch((error: unknown) => {
      // Prism gone, or an answer of its that is not JSON: the contract's answer to an outage.
      if (res.headersSent || res.destroyed) return res.destroy();
      res.setHeader("Retry-After", "1");
      sendJson(res, 503, problem("ServiceUnavailable", `The mock could not answer: ${(error as Error).message}`));
    });
  });
  let port: number;
  try {
    port = await listen(server, options.port ?? 4010, host);
  } catch (error) {
    agent.destroy();
    await prism.close();
    throw error;
  }
  return {
    url: `http://${host}:${port}`,
    port,
    close: async () => {
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
      agent.destroy();
      await prism.close();
    },
  };
}

async function handle(req: IncomingMessage, res: ServerResponse, agent: Agent, upstream: string, problem: ReturnType<typeof responseProblems>) {
  const body = await readBody(req);
  if (body === "too large") {
    res.setHeader("Connection", "close");
    return sendJson(res, 413, problem("PayloadTooLarge", `The request body is larger than ${MAX_BODY_BYTES / 1024} KiB.`));
  }
  if (body.length > 0 && isJsonType(req.headers["content-type"])) {
    try {
      JSON.parse(body.toString("utf8"));
    } catch (error) {
      return sendJson(res, 400, problem("BadRequest", `The request body is not valid JSON: ${(error as Error).message}.`));
    }
  }

  const headers: OutgoingHttpHeaders = {};
  for (const [name, value] of Object.entries(req.headers))
    if (value !== undefined && !HOP_BY_HOP.has(name)) headers[name] = value;
  if (body.length > 0) headers["content-length"] = body.length;
  const answer = await forward(agent, upstream, req.method!, req.url!, headers, body);

  let text = answer.body.toString("utf8");
  const status = answer.statusCode!;
  const violations = parseViolations((answer.headers["sl-violations"] as string | undefined) ?? null);
  if (status === 422 && violations.length > 0) {
    const problemBody = JSON.parse(text);
    const errors = fieldErrors(violations);
    text = JSON.stringify({ ...problemBody, detail: `The request has ${errors.length} invalid field${errors.length === 1 ? "" : "s"}.`, errors });
  } else if (status >= 400 && text.includes(PRISM_ERRORS)) {
    text = JSON.stringify(fromPrismError(status, JSON.parse(text)));
  }
  for (const [name, value] of Object.entries(answer.headers))
    if (value !== undefined && !HOP_BY_HOP.has(name) && name !== "content-encoding") res.setHeader(name, value);
  res.statusCode = status;
  res.end(text);
}

const HOP_BY_HOP = new Set(["host", "connection", "content-length", "keep-alive", "transfer-encoding"]);
function forward(agent: Agent, upstream: string, method: string, url: string, headers: OutgoingHttpHeaders, body: Buffer) {
  return new Promise<IncomingMessage & { body: Buffer }>((resolve, reject) => {
    const request = httpRequest(upstream + url, { method, headers, agent }, (response) => {
      const chunks: Buffer[] = [];
      response.on("data", (chunk: Buffer) => chunks.push(chunk));
      response.on("end", () => resolve(Object.assign(response, { body: Buffer.concat(chunks) })));
      response.on("error", reject);
    });
    request.on("error", reject);
    request.end(body.length > 0 ? body : undefined);
  });
}

const PRISM_ERRORS = "https://stoplight.io/prism/errors#";

/** Prism's own errors (an unknown path, a method the path lacks) in the contract's problem shape. */
function fromPrismError(status: number, prism: { title?: string; detail?: string }) {
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
