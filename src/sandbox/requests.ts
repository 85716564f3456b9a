// One request through the sandbox: route, bearer token, the account's faults, body, validation
// from the contract, idempotency, then the operation's handler; the journal keeps what came of
// each request to the contract. Every rejection is the contract's problem document.
// A body left unread is node:http's to drain: it does so once the answer is sent.
import { isUtf8 } from "node:buffer";
import type { IncomingMessage, ServerResponse } from "node:http";
import { setTimeout as sleep } from "node:timers/promises";
import type { OperationRequest } from "../../generated/sandbox-requests.js";
import { accountNow } from "./clock.ts";
import { foreignCharset, isJsonType, MAX_BODY_BYTES, readBody } from "../lib/request-body.ts";
import { bearerToken, sendJson } from "./http.ts";
import type { Answer, Call, Sandbox } from "./operation.ts";
import { problem, SERVER_CONDITIONS, validationProblem, type Problem } from "../lib/problem.ts";
import type { Account } from "./store/accounts.ts";
import type { FaultRow } from "./store/faults.ts";
import { requestHash } from "./store/idempotency.ts";
import { fieldErrors } from "./validation.ts";
import { slashAwayDetail } from "../lib/trailing-slash.ts";

const IDEMPOTENCY_KEY = "Idempotency-Key";

/** An answer ready to send: its status, its body as JSON text (none for 204), and extra headers. */
interface Reply {
  status: number;
  body: string | undefined;
  headers?: Record<string, string>;
}

const rejection = (body: Problem, headers?: Record<string, string>): Reply => ({ status: body.status, body: JSON.stringify(body), ...(headers ? { headers } : {}) });

export async function handleRequest(sandbox: Sandbox, req: IncomingMessage, res: ServerResponse) {
  // node:http gives every request it hands a server its url and method.
  const url = req.url!;
  const pathname = url.split("?", 1)[0]!;
  const match = sandbox.route(req.method!, pathname);
  const send = ({ status, body, headers }: Reply) => sendJson(res, status, body, headers);
  if (match.found === "no path") {
    const { near } = match;
    const detail = near ? slashAwayDetail(pathname, near.path, near.document === "sandbox" ? "the control API's path" : "the contract's path") : `No operation has the path ${pathname}.`;
    return send(rejection(problem(404, "not_found", detail)));
  }
  if (match.found === "no method") {
    return send(rejection(problem(405, "method_not_allowed", `${pathname} takes ${match.allowed.join(", ")}, not ${req.method}.`), { Allow: match.allowed.join(", ") }));
  }
  const op = match.found;

  const token = bearerToken(req.headers.authorization);
  if (!token) {
    const error = req.headers.authorization ? ', error="invalid_token"' : "";
    return send(
      rejection(problem(401, "unauthorized", "The Authorization header is missing or its bearer token is not valid."), {
        "WWW-Authenticate": `Bearer realm="payin"${error}`,
      }),
    );
  }
  const account = sandbox.store.accounts.forToken(token);
  const answer = () => answerOf(sandbox, req, op, url.slice(pathname.length + 1), match.pathParameters, account);
  // The control API is the test's own: only the contract's operations meet faults and are journaled.
  if (op.document === "sandbox") return send(await answer());

  const started = performance.now();
  const receivedAtMs = accountNow(account);
  const fault = sandbox.store.faults.forRequest(account.id, op.operationId);
  if (fault?.effect === "delay") await sleep(fault.delay_ms!, undefined, { signal: sandbox.closing });
  const reply = fault?.effect === "status" ? faultReply(fault) : await answer();
  const dropped = fault?.effect === "drop";
  const key = req.headers["idempotency-key"];
  sandbox.journal.record(account.id, {
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
  });
  // The work is done and the answer made; the client never gets it.
  if (dropped) return void req.socket.destroy();
  send(reply);
}

/** The answer of a status fault: the status's problem document, with Retry-After where the contract gives one. */
function faultReply(fault: FaultRow): Reply {
  const status = fault.status!;
  const retryAfter = status === 500 ? undefined : String(fault.retry_after_seconds ?? 1);
  const detail = `A fault armed with POST /_sandbox/v1/faults (${fault.id}) answered this request${retryAfter === undefined ? "" : `; retry after ${retryAfter} s`}.`;
  return rejection(problem(status, SERVER_CONDITIONS[status]!, detail), retryAfter === undefined ? undefined : { "Retry-After": retryAfter });
}

/** What the operation answers to the request: every rejection is the contract's problem document. */
async function answerOf(sandbox: Sandbox, req: IncomingMessage, op: OperationRequest, queryString: string, pathParameters: Record<string, string>, account: Account): Promise<Reply> {
  let body: unknown;
  let rawBody: Buffer | undefined;
  if (op.validateBody) {
    if (!isJsonType(req.headers["content-type"])) {
      return rejection(problem(415, "unsupported_media_type", "Send the body as application/json."));
    }
    const charset = foreignCharset(req.headers["content-type"]);
    if (charset !== undefined) {
      return rejection(problem(415, "unsupported_media_type", `Send the body as UTF-8 JSON: charset=${charset} is not taken.`));
    }
    const read = await readBody(req);
    if (read === "too large") {
      return rejection(problem(413, "payload_too_large", `Request bodies are limited to ${MAX_BODY_BYTES / 1024} KiB.`), { Connection: "close" });
    }
    if (!isUtf8(read)) return rejection(problem(400, "malformed_request", "The request body is not valid UTF-8."));
    rawBody = read;
    try {
      body = JSON.parse(read.toString("utf8"));
    } catch (error) {
      return rejection(problem(400, "malformed_request", `The request body is not valid JSON: ${(error as Error).message}.`));
    }
  }

  const parameters = parametersOf(op, req, queryString, pathParameters);
  const handler = sandbox.handlers[op.operationId];
  const waive = handler.waive && ((e: Parameters<NonNullable<typeof handler.waive>>[0]) => handler.waive!(e, body));
  const errors = [
    // Stryker disable next-line StringLiteral: the parameters object is built here and is always an object, so no error names it whole
    ...fieldErrors(op.validateParameters, parameters, "parameters"),
    ...(op.validateBody ? fieldErrors(op.validateBody, body, "body", waive, handler.explain) : []),
  ];
  // The rules beyond the schemas, for the fields the schemas found nothing wrong with.
  errors.push(...(handler.check?.(body) ?? []).filter((e) => !errors.some((known) => known.field === e.field)));
  if (errors.length > 0) return rejection(validationProblem(errors));

  const call: Call = { account, body, parameters };
  const key = parameters[IDEMPOTENCY_KEY];
  const answer = key !== undefined && rawBody ? idempotent(sandbox, op, call, key, rawBody) : serialized(await handler.handle(call, sandbox));
  // Whatever the handler committed to the outbox goes out now, not at the next tick.
  sandbox.dispatcher.kick();
  return answer;
}

/** An answer with its body as the JSON text to send (none for 204: JSON.stringify(undefined) is undefined). */
const serialized = ({ status, body }: Answer) => ({ status, body: JSON.stringify(body) as string | undefined });

/** Runs a create under its Idempotency-Key: the first answer is kept, and replayed for the same body. */
function idempotent(sandbox: Sandbox, op: OperationRequest, call: Call, key: string, rawBody: Buffer) {
  const { store } = sandbox;
  const account: Account = call.account;
  return store.transaction(() => {
    const claim = store.idempotencyKeys.claim(account.id, op.operationId, key, requestHash(rawBody), accountNow(account), account.clockOffsetMs);
    if (!claim.fresh) {
      if (claim.sameBody) return { status: claim.answer.status, body: claim.answer.body };
      const reused = problem(409, "idempotency_key_reused", "This Idempotency-Key was first used with a different request body.");
      return { status: 409, body: JSON.stringify(reused) };
    }
    // The two creates answer at once: the key and the answer are written in one transaction.
    const answer = serialized(sandbox.handlers[op.operationId].handle(call, sandbox) as Answer);
    // Both creates answer with a body.
    store.idempotencyKeys.record(account.id, op.operationId, key, { status: answer.status, body: answer.body! });
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
