// The mock of the Payin Acceptance Service: Prism, run in this process and validating every
// request against the bundled OpenAPI document, behind a small front server that answers
// what Prism cannot: malformed JSON (Prism never answers it), bodies over the contract's
// 64 KiB (D16), and validation problems that name the caller's real fields. Prism is called
// as a function (./prism.ts): the front is the only server.
import { isUtf8 } from "node:buffer";
import { readFileSync } from "node:fs";
import { createServer, type IncomingMessage, type ServerResponse } from "node:http";
import path from "node:path";
import type { Json } from "../lib/json.ts";
import { amountError, minorUnitsOf, type MinorUnits } from "../lib/amount.ts";
import { problem, PROBLEM_CONTENT_TYPE, validationProblem, type Problem } from "../lib/problem.ts";
import { packageRoot } from "../package-root.ts";
import { startPrism, type InProcessPrism, type PrismError } from "./prism.ts";
import { fieldErrors } from "./violations.ts";
import { bindPort } from "../lib/bind-port.ts";
import { aSlashAway, slashAwayDetail, templatesMatcher } from "../lib/trailing-slash.ts";
import { foreignCharset, isJsonType, MAX_BODY_BYTES, readBody } from "../lib/request-body.ts";

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
  const minorUnits = minorUnitsOf(openapi);
  const documented = templatesMatcher(Object.keys((openapi as { paths?: object }).paths ?? {}));

  const prism = await startPrism(openapi, options.verbose ?? false);
  const server = createServer((req, res) => {
    handle(req, res, prism, minorUnits, documented).catch((error: unknown) => {
      // Prism failing, or an answer of its the front cannot send: the contract's answer to an
      // outage. Every answer is whole before its head is written, so nothing is sent yet.
      sendProblem(res, problem(503, "service_unavailable", `The mock could not answer: ${(error as Error).message}`), {
        "retry-after": "1",
      });
    });
  });
  const port = await bindPort(server, options.port ?? 4010, host);
  return {
    url: `http://${host}:${port}`,
    port,
    close: async () => {
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}

async function handle(
  req: IncomingMessage,
  res: ServerResponse,
  prism: InProcessPrism,
  minorUnits: MinorUnits,
  documented: (path: string) => boolean,
) {
  const raw = await readBody(req);
  if (raw === "too large") {
    return sendProblem(res, problem(413, "payload_too_large", `The request body is larger than ${MAX_BODY_BYTES / 1024} KiB.`), {
      connection: "close",
    });
  }
  // The body as Prism's own server would hand it over: null when empty, parsed when JSON.
  let body: unknown = null;
  const charset = foreignCharset(req.headers["content-type"]);
  if (raw.length > 0 && isJsonType(req.headers["content-type"])) {
    if (charset !== undefined)
      return sendProblem(res, problem(415, "unsupported_media_type", `Send the body as UTF-8 JSON: charset=${charset} is not taken.`));
    if (!isUtf8(raw)) return sendProblem(res, problem(400, "malformed_request", "The request body is not valid UTF-8."));
    try {
      body = JSON.parse(raw.toString("utf8"));
    } catch (error) {
      return sendProblem(res, problem(400, "malformed_request", `The request body is not valid JSON: ${(error as Error).message}.`));
    }
  } else if (raw.length > 0) body = raw.toString("utf8");

  const answer = await prism.answer({ method: req.method!, url: req.url!, headers: req.headers, body });
  if (answer.kind === "error")
    return sendProblem(res, fromPrismError(answer, new URL(req.url!, "http://mock").pathname, documented), answer.headers);
  const errors = answer.status === 422 ? fieldErrors(answer.violations) : [];
  // The amount rule (D2), which no schema can state, for a request Prism let through or refused for other fields.
  const amount = answer.status < 300 || answer.status === 422 ? amountError(body, minorUnits) : undefined;
  if (amount && !errors.some((e) => e.field === amount.field)) errors.push(amount);
  if (errors.length === 0) {
    // Serialized before the head is written: a body it cannot write is still answered with a 503.
    const serialized = prism.serialize(answer.body, answer.headers["content-type"]);
    res.writeHead(answer.status, answer.headers);
    return res.end(serialized);
  }
  // Prism's own 422 is the document's example, which names the example's fields: the caller's instead.
  sendProblem(res, validationProblem(errors), answer.headers);
}

/**
 * Prism's own errors (an unknown path, a method the path lacks) in the contract's problem shape; a path a slash away from
 * the document's says so.
 */
function fromPrismError({ status, title, detail }: PrismError, pathname: string, documented: (path: string) => boolean): Problem {
  const near = status === 404 ? aSlashAway(pathname, documented) : undefined;
  if (near !== undefined) return problem(404, "not_found", slashAwayDetail(pathname, near));
  const code = status === 404 ? "not_found" : status === 405 ? "method_not_allowed" : "invalid_request";
  return problem(status, code, detail || title || "The mock cannot answer this request.");
}

/** A problem, as JSON, with `headers` beside its content type. */
function sendProblem(res: ServerResponse, body: Problem, headers: Record<string, string> = {}) {
  res.writeHead(body.status, { ...headers, "content-type": PROBLEM_CONTENT_TYPE });
  res.end(JSON.stringify(body));
}
