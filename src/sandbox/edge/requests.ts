// One HTTP request to the contract's operations or to the control API, translated: routed, its
// bearer token and parameters taken from the request, its body read when the operation asks
// for it, and the operation's answer sent as JSON (none after a drop fault). What the operation
// does (the account, faults, validation, idempotency, the journal) is the service entry's
// (../api/execute.ts), run by the runtime. A body left unread is node:http's to drain once the
// answer is sent.
import { isUtf8 } from "node:buffer";
import type { IncomingMessage, ServerResponse } from "node:http";
import type { OperationRequest } from "../../../generated/sandbox-requests.js";
import { foreignCharset, isJsonType, MAX_BODY_BYTES, readBody } from "../../lib/request-body.ts";
import { problem } from "../../lib/problem.ts";
import { slashAwayDetail } from "../../lib/trailing-slash.ts";
import { refusal, type Answer } from "../api/answer.ts";
import type { Body } from "../api/execute.ts";
import type { Edge } from "./edge.ts";
import { CORS_HEADERS, isPreflight, preflightHeaders } from "./cors.ts";
import { bearerToken, sendJson } from "./http.ts";
import { createRouter } from "./router.ts";

/** Every operation of the contract and of the control API, by method and path. */
const route = createRouter();

/** The operationId a request is routed to, or what the sandbox answers it with instead (`not_found`, `method_not_allowed`). */
export function operationOf(method: string, pathname: string): string {
  const match = route(method === "OPTIONS" ? "OPTIONS" : method, pathname);
  return match.found === "no path" ? "not_found" : match.found === "no method" ? "method_not_allowed" : match.found.operationId;
}

export async function handleRequest({ runtime, client }: Edge, req: IncomingMessage, res: ServerResponse): Promise<void> {
  const cors = req.headers.origin === undefined ? undefined : CORS_HEADERS;
  // JSON.stringify(undefined), a 204's body, is undefined: no body is sent.
  const send = ({ status, body, headers }: Answer) =>
    sendJson(res, status, JSON.stringify(body) as string | undefined, cors ? { ...cors, ...headers } : headers);
  // node:http gives every request it hands a server its url and method.
  const url = req.url!;
  const pathname = url.split("?", 1)[0]!;

  // No operation takes OPTIONS: a path that exists answers with the methods it takes.
  const match = route(isPreflight(req) ? "OPTIONS" : req.method!, pathname);
  if (isPreflight(req) && match.found === "no method") return sendJson(res, 204, undefined, preflightHeaders(match.allowed));
  if (match.found === "no path") return send(notFound(pathname, match.near));
  if (match.found === "no method")
    return send(
      refusal(problem(405, "method_not_allowed", `${pathname} takes ${match.allowed.join(", ")}, not ${req.method}.`), {
        Allow: match.allowed.join(", "),
      }),
    );
  const op = match.found;

  const token = bearerToken(req.headers.authorization);
  if (!token) return send(unauthorized(req.headers.authorization !== undefined));
  const key = req.headers["idempotency-key"];
  const { answer, dropped } = await runtime.execute({
    operationId: op.operationId,
    token,
    client: client(req),
    parameters: parametersOf(op, req, url.slice(pathname.length + 1), match.pathParameters),
    ...(typeof key === "string" ? { idempotencyKey: key } : {}),
    body: () => readJson(req),
    method: req.method!,
    path: pathname,
  });
  // A drop fault: the work is done and the answer made; the client never gets it.
  if (dropped) return void req.socket.destroy();
  if (answer.stream) return stream(req, res, answer.stream, cors);
  send(answer);
}

/**
 * Server-sent events, written as they come, until either side ends: the client's leaving ends
 * the stream (and the listener with it); the stream's end closes the answer.
 */
async function stream(
  req: IncomingMessage,
  res: ServerResponse,
  events: NonNullable<Answer["stream"]>,
  cors: Record<string, string> | undefined,
) {
  res.writeHead(200, {
    "Content-Type": "text/event-stream",
    "Cache-Control": "no-store",
    // A reverse proxy that buffers answers (nginx) passes this one on as it comes.
    "X-Accel-Buffering": "no",
    ...cors,
  });
  const iterator = events[Symbol.asyncIterator]();
  res.on("close", () => void iterator.return?.());
  // A client gone while the listener was connecting closed before anyone listened: end it now.
  if (res.destroyed || req.socket.destroyed) void iterator.return?.();
  for (let next = await iterator.next(); !next.done; next = await iterator.next()) {
    const item = next.value;
    res.write(typeof item === "string" ? item : `event: ${item.event}\ndata: ${JSON.stringify(item.data)}\n\n`);
  }
  res.end();
}

function notFound(pathname: string, near: { path: string; document: string } | undefined): Answer {
  const detail = near
    ? slashAwayDetail(pathname, near.path, near.document === "sandbox" ? "the control API's path" : "the contract's path")
    : `No operation has the path ${pathname}.`;
  return refusal(problem(404, "not_found", detail));
}

function unauthorized(hadHeader: boolean): Answer {
  const error = hadHeader ? ', error="invalid_token"' : "";
  return refusal(problem(401, "unauthorized", "The Authorization header is missing or its bearer token is not valid."), {
    "WWW-Authenticate": `Bearer realm="payin"${error}`,
  });
}

/** The request's JSON body and its bytes, or the refusal of a body that is not UTF-8 JSON within the size limit. */
async function readJson(req: IncomingMessage): Promise<Body> {
  if (!isJsonType(req.headers["content-type"]))
    return { refusal: refusal(problem(415, "unsupported_media_type", "Send the body as application/json.")) };
  const charset = foreignCharset(req.headers["content-type"]);
  if (charset !== undefined)
    return {
      refusal: refusal(problem(415, "unsupported_media_type", `Send the body as UTF-8 JSON: charset=${charset} is not taken.`)),
    };
  const raw = await readBody(req);
  if (raw === "too large")
    return {
      refusal: refusal(problem(413, "payload_too_large", `Request bodies are limited to ${MAX_BODY_BYTES / 1024} KiB.`), {
        Connection: "close",
      }),
    };
  if (!isUtf8(raw)) return { refusal: refusal(problem(400, "malformed_request", "The request body is not valid UTF-8.")) };
  try {
    return { json: JSON.parse(raw.toString("utf8")), raw };
  } catch (error) {
    return { refusal: refusal(problem(400, "malformed_request", `The request body is not valid JSON: ${(error as Error).message}.`)) };
  }
}

/** The operation's parameters, each from where the document says it is: the path, the query or a header. */
function parametersOf(op: OperationRequest, req: IncomingMessage, queryString: string, pathParameters: Record<string, string>) {
  const parameters: Record<string, string> = {};
  const query = new URLSearchParams(queryString);
  for (const { name, in: where } of op.parameters) {
    const value = where === "path" ? pathParameters[name] : where === "query" ? query.get(name) : req.headers[name.toLowerCase()];
    if (typeof value === "string") parameters[name] = value;
  }
  return parameters;
}
