// One request to the contract's operations or to the control API, read top to bottom:
// handleRequest routes it, finds its account by bearer token, meets the account's request
// fault, has answer() read the body, validate it from the contract and run the handler (under
// its Idempotency-Key), journals it and sends the answer. Every rejection is the contract's
// problem document. A body left unread is node:http's to drain once the answer is sent.
import { isUtf8 } from "node:buffer";
import type { IncomingMessage, ServerResponse } from "node:http";
import { setTimeout as sleep } from "node:timers/promises";
import type { OperationRequest } from "../../../generated/sandbox-requests.js";
import { foreignCharset, isJsonType, MAX_BODY_BYTES, readBody } from "../../lib/request-body.ts";
import { problem, SERVER_CONDITIONS, validationProblem, type Problem } from "../../lib/problem.ts";
import { slashAwayDetail } from "../../lib/trailing-slash.ts";
import { handlers } from "../api/index.ts";
import type { Answer, Call, Operation, Sandbox } from "../api/operation.ts";
import { accountNow } from "../flow/clock.ts";
import type { Account } from "../store/accounts.ts";
import type { FaultRow } from "../store/faults.ts";
import { reportUnlessUnavailable } from "../store/database.ts";
import { requestHash } from "../store/idempotency.ts";
import { CORS_HEADERS, isPreflight, preflightHeaders } from "./cors.ts";
import { bearerToken, sendJson } from "./http.ts";
import { createRouter } from "./router.ts";
import { fieldErrors } from "./validation.ts";

const IDEMPOTENCY_KEY = "Idempotency-Key";

/** Every operation of the contract and of the control API, by method and path. */
const route = createRouter();

/** An answer ready to send: its status, its body as JSON text (none for 204), and extra headers. */
interface Reply {
  status: number;
  body: string | undefined;
  headers?: Record<string, string>;
}

export async function handleRequest(sandbox: Sandbox, req: IncomingMessage, res: ServerResponse): Promise<void> {
  const cors = req.headers.origin === undefined ? undefined : CORS_HEADERS;
  const send = ({ status, body, headers }: Reply) => sendJson(res, status, body, cors ? { ...cors, ...headers } : headers);
  // node:http gives every request it hands a server its url and method.
  const url = req.url!;
  const pathname = url.split("?", 1)[0]!;

  // No operation takes OPTIONS: a path that exists answers with the methods it takes.
  const match = route(isPreflight(req) ? "OPTIONS" : req.method!, pathname);
  if (isPreflight(req) && match.found === "no method") return sendJson(res, 204, undefined, preflightHeaders(match.allowed));
  if (match.found === "no path") return send(notFound(pathname, match.near));
  if (match.found === "no method")
    return send(
      rejection(problem(405, "method_not_allowed", `${pathname} takes ${match.allowed.join(", ")}, not ${req.method}.`), {
        Allow: match.allowed.join(", "),
      }),
    );
  const op = match.found;

  const token = bearerToken(req.headers.authorization);
  if (!token) return send(unauthorized(req.headers.authorization !== undefined));
  const { account, requestFaults } = await sandbox.store.accounts.lookUp(token);

  // The control API is the test's own: only the contract's operations meet faults and are journaled.
  const contract = op.document === "contract";
  const started = performance.now();
  const receivedAtMs = accountNow(account);
  const fault = contract && requestFaults ? await sandbox.store.faults.forRequest(account.id, op.operationId) : undefined;
  if (fault?.effect === "delay") await sleep(fault.delay_ms!, undefined, { signal: sandbox.closing });

  const reply =
    fault?.effect === "status"
      ? faultReply(fault)
      : await answer(sandbox, req, op, url.slice(pathname.length + 1), match.pathParameters, account);

  const dropped = fault?.effect === "drop";
  if (contract) {
    const key = req.headers["idempotency-key"];
    // The operation is done whatever becomes of its journal entry: a database gone meanwhile loses the entry, not the answer.
    await sandbox.store.journal
      .record(account.id, {
        method: req.method!,
        // Cut to the lengths the journal's schema gives: a rejected request may carry longer ones.
        path: pathname.slice(0, 2048),
        operationId: op.operationId,
        status: reply.status,
        answered: !dropped,
        idempotencyKey: typeof key === "string" ? key.slice(0, 255) : undefined,
        fault: fault && { id: fault.id, effect: fault.effect },
        receivedAtMs,
        durationMs: Math.round(performance.now() - started),
      })
      .catch(reportUnlessUnavailable);
  }
  // A drop fault: the work is done and the answer made; the client never gets it.
  if (dropped) return void req.socket.destroy();
  send(reply);
}

/** What the operation answers: the body read, the request validated, then the handler, under its Idempotency-Key if it has one. */
async function answer(
  sandbox: Sandbox,
  req: IncomingMessage,
  op: OperationRequest,
  query: string,
  pathParameters: Record<string, string>,
  account: Account,
): Promise<Reply> {
  const read = op.validateBody ? await readJson(req) : { body: undefined, raw: undefined };
  if ("rejection" in read) return read.rejection;
  const handler = handlers[op.operationId];
  const parameters = parametersOf(op, req, query, pathParameters);
  const errors = requestErrors(op, handler, parameters, read.body);
  if (errors.length > 0) return rejection(validationProblem(errors));
  const call: Call = { account, body: read.body, parameters };
  if ("waits" in handler) return serialized(await handler.handle(call, sandbox));
  const key = parameters[IDEMPOTENCY_KEY];
  if (key !== undefined && read.raw) return idempotent(sandbox, op, handler, call, key, read.raw);
  return serialized(await handler.handle(call, sandbox));
}

const rejection = (body: Problem, headers?: Record<string, string>): Reply => ({
  status: body.status,
  body: JSON.stringify(body),
  ...(headers ? { headers } : {}),
});

/** An answer with its body as the JSON text to send (none for 204: JSON.stringify(undefined) is undefined). */
const serialized = ({ status, body }: Answer): Reply => ({ status, body: JSON.stringify(body) as string | undefined });

function notFound(pathname: string, near: { path: string; document: string } | undefined): Reply {
  const detail = near
    ? slashAwayDetail(pathname, near.path, near.document === "sandbox" ? "the control API's path" : "the contract's path")
    : `No operation has the path ${pathname}.`;
  return rejection(problem(404, "not_found", detail));
}

function unauthorized(hadHeader: boolean): Reply {
  const error = hadHeader ? ', error="invalid_token"' : "";
  return rejection(problem(401, "unauthorized", "The Authorization header is missing or its bearer token is not valid."), {
    "WWW-Authenticate": `Bearer realm="payin"${error}`,
  });
}

/** The answer of a status fault: the status's problem document, with Retry-After where the contract gives one. */
function faultReply(fault: FaultRow): Reply {
  const status = fault.status!;
  const retryAfter = status === 500 ? undefined : String(fault.retry_after_seconds ?? 1);
  const detail =
    `A fault armed with POST /_sandbox/v1/faults (${fault.id}) answered this request` +
    `${retryAfter === undefined ? "" : `; retry after ${retryAfter} s`}.`;
  return rejection(
    problem(status, SERVER_CONDITIONS[status]!, detail),
    retryAfter === undefined ? undefined : { "Retry-After": retryAfter },
  );
}

/** The request's JSON body and its bytes, or the rejection of a body that is not UTF-8 JSON within the size limit. */
async function readJson(req: IncomingMessage): Promise<{ body: unknown; raw: Buffer } | { rejection: Reply }> {
  if (!isJsonType(req.headers["content-type"]))
    return { rejection: rejection(problem(415, "unsupported_media_type", "Send the body as application/json.")) };
  const charset = foreignCharset(req.headers["content-type"]);
  if (charset !== undefined)
    return {
      rejection: rejection(problem(415, "unsupported_media_type", `Send the body as UTF-8 JSON: charset=${charset} is not taken.`)),
    };
  const raw = await readBody(req);
  if (raw === "too large")
    return {
      rejection: rejection(problem(413, "payload_too_large", `Request bodies are limited to ${MAX_BODY_BYTES / 1024} KiB.`), {
        Connection: "close",
      }),
    };
  if (!isUtf8(raw)) return { rejection: rejection(problem(400, "malformed_request", "The request body is not valid UTF-8.")) };
  try {
    return { body: JSON.parse(raw.toString("utf8")), raw };
  } catch (error) {
    return { rejection: rejection(problem(400, "malformed_request", `The request body is not valid JSON: ${(error as Error).message}.`)) };
  }
}

/** What is wrong with the request, by field: its parameters and body against the contract's schemas, then the operation's own rules. */
function requestErrors(
  op: OperationRequest,
  handler: Pick<Operation, "waive" | "explain" | "check">,
  parameters: Record<string, string>,
  body: unknown,
) {
  const errors = [
    // Stryker disable next-line StringLiteral: the parameters object is built here and is always an object, so no error names it whole
    ...fieldErrors(op.validateParameters, parameters, "parameters"),
    ...(op.validateBody
      ? fieldErrors(op.validateBody, body, "body", handler.waive && ((e) => handler.waive!(e, body)), handler.explain)
      : []),
  ];
  // The rules beyond the schemas, for the fields the schemas found nothing wrong with.
  return [...errors, ...(handler.check?.(body) ?? []).filter((e) => !errors.some((known) => known.field === e.field))];
}

/** Runs a create under its Idempotency-Key: the first answer is kept, and replayed for the same body. */
function idempotent(sandbox: Sandbox, op: OperationRequest, handler: Operation, call: Call, key: string, raw: Buffer): Promise<Reply> {
  const { store } = sandbox;
  const { account } = call;
  return store.transaction(async (): Promise<Reply> => {
    const claim = await store.idempotencyKeys.claim(
      account.id,
      op.operationId,
      key,
      requestHash(raw),
      accountNow(account),
      account.clockOffsetMs,
    );
    if (!claim.fresh) {
      if (claim.sameBody) return { status: claim.answer.status, body: claim.answer.body };
      return rejection(problem(409, "idempotency_key_reused", "This Idempotency-Key was first used with a different request body."));
    }
    // The key and the answer are written in the transaction of the create.
    const answer = serialized(await handler.handle(call, sandbox));
    // Both creates answer with a body.
    await store.idempotencyKeys.record(account.id, op.operationId, key, { status: answer.status, body: answer.body! });
    return answer;
  });
}

function parametersOf(op: OperationRequest, req: IncomingMessage, queryString: string, pathParameters: Record<string, string>) {
  const parameters: Record<string, string> = {};
  const query = new URLSearchParams(queryString);
  for (const { name, in: where } of op.parameters) {
    const value = where === "path" ? pathParameters[name] : where === "query" ? query.get(name) : req.headers[name.toLowerCase()];
    if (typeof value === "string") parameters[name] = value;
  }
  return parameters;
}
