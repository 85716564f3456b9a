// The one way into every operation and every page, whatever carries the request (HTTP, a later
// transport): the caller's access (its token's length and rate, or on a customer's page its
// address's rate), the account of its token, the account's request fault, the body read and
// validated from the documents, the handler (under its Idempotency-Key), and the journal entry.
// A transport translates its own medium only: it hands over the token, the parameters and a way
// to read the body, and sends the answer, or, after a drop fault, none.
import { operations, type OperationId, type OperationRequest } from "../../../generated/sandbox-requests.js";
import { sleepOn } from "../../lib/clock.ts";
import { problem, SERVER_CONDITIONS, validationProblem } from "../../lib/problem.ts";
import { accountNow } from "../flow/clock.ts";
import { reportUnlessUnavailable } from "../store/database.ts";
import type { FaultRow } from "../store/faults.ts";
import { requestHash } from "../store/idempotency.ts";
import { refusal, type Answer } from "./answer.ts";
import { handlers } from "./index.ts";
import type { Call, Operation, Sandbox } from "./operation.ts";
import { PAGES, type PageId } from "./pages/index.ts";
import type { Page } from "./pages/page.ts";
import { fieldErrors } from "./validation.ts";

const IDEMPOTENCY_KEY = "Idempotency-Key";

/** A request's body as its transport read it: the JSON and its bytes, or the refusal of a body that is not JSON. */
export type Body = { json: unknown; raw: Buffer } | { refusal: Answer };

export interface OperationCall {
  operationId: OperationId | PageId;
  /** The bearer token: its account, made on first use. None on a customer's payment page. */
  token?: string;
  /** Where the call comes from (the client's address): what a customer's page is counted by. */
  client?: string;
  /** Path, query and header parameters by name, as the request carried them (an operation that takes one, its Idempotency-Key too). */
  parameters: Record<string, string>;
  /** The Idempotency-Key the request carried, whether or not its operation takes one: the journal shows it. */
  idempotencyKey?: string;
  /** Reads the body; asked only by an operation that takes one, and only once its fault let it through. */
  body(): Promise<Body>;
  /** How the request came, for the journal: by default the operation's method, and its path with the parameters filled in. */
  method?: string;
  path?: string;
}

/** What the operation answered, and whether a drop fault keeps the answer from the caller (the work is done). */
export interface Outcome {
  answer: Answer;
  dropped: boolean;
}

const byId = new Map(operations.map((op) => [op.operationId, op]));
const pages: Readonly<Record<string, Page>> = PAGES;

export async function execute(sandbox: Sandbox, call: OperationCall): Promise<Outcome> {
  const { store, clock } = sandbox;
  const page = pages[call.operationId];
  const client = call.client ?? "";
  // A caller turned away (a token too short, a rate exceeded) is refused before its account is looked up. A listener's
  // answer to a delivery is the sandbox's own asking: no rate turns it away, or the delivery would fail though answered.
  const caller = page?.caller === "customer" ? { client } : { token: call.token ?? "", client };
  const turnedAway = sandbox.access.refusal(caller, call.operationId !== "answerDelivery");
  if (turnedAway) return { answer: turnedAway, dropped: false };
  if (page) return { answer: await show(sandbox, page, call), dropped: false };
  const op = byId.get(call.operationId as OperationId)!;
  const found = await store.accounts.lookUp(call.token!, { issuedOnly: sandbox.access.issuedOnly });
  if (!found) return { answer: sandbox.access.unknownToken(client), dropped: false };
  const { account, requestFaults } = found;
  // The control API is the test's own: only the contract's operations meet faults and are journaled.
  const contract = op.document === "contract";
  const started = clock.now();
  const receivedAtMs = accountNow(clock, account);
  const fault = contract && requestFaults ? await store.faults.forRequest(account.id, op.operationId) : undefined;
  if (fault?.effect === "delay") await sleepOn(clock, fault.delay_ms!, sandbox.closing);
  // Closing cuts short what waited on purpose: its caller gets no answer.
  if (sandbox.closing.aborted) return { answer: refusal(problem(503, "service_unavailable", "This sandbox is stopping.")), dropped: true };
  const answer = fault?.effect === "status" ? faultAnswer(fault) : await operate(sandbox, op, { ...call, account });
  const dropped = fault?.effect === "drop";
  if (contract) {
    // The operation is done whatever becomes of its journal entry: a database gone meanwhile loses the entry, not the answer.
    await store.journal
      .record(account.id, {
        method: call.method ?? op.method,
        // Cut to the lengths the journal's schema gives: a refused request may carry longer ones.
        path: (call.path ?? pathOf(op, call.parameters)).slice(0, 2048),
        operationId: op.operationId,
        status: answer.status,
        answered: !dropped,
        idempotencyKey: call.idempotencyKey?.slice(0, 255),
        fault: fault && { id: fault.id, effect: fault.effect },
        receivedAtMs,
        durationMs: clock.now() - started,
      })
      .catch(reportUnlessUnavailable);
  }
  return { answer, dropped };
}

/** A page: its account (but a customer's), its input validated as the operation it is like, then the page. */
async function show(sandbox: Sandbox, page: Page, call: OperationCall): Promise<Answer> {
  const found =
    page.caller === "account" ? await sandbox.store.accounts.lookUp(call.token!, { issuedOnly: sandbox.access.issuedOnly }) : undefined;
  if (page.caller === "account" && !found) return sandbox.access.unknownToken(call.client ?? "");
  const account = found?.account;
  const like = page.validatedAs && byId.get(page.validatedAs)!;
  const read = like?.validateBody ? await call.body() : { json: undefined };
  if ("refusal" in read) return read.refusal;
  const errors = like ? requestErrors(sandbox, like, handlers[like.operationId], call.parameters, read.json) : [];
  if (errors.length > 0) return refusal(validationProblem(errors));
  return page.handle({ ...(account ? { account } : {}), parameters: call.parameters, body: read.json }, sandbox);
}

/** The body read, the request validated, then the handler, under its Idempotency-Key if it has one. */
async function operate(sandbox: Sandbox, op: OperationRequest, call: OperationCall & Pick<Call, "account">): Promise<Answer> {
  const read = op.validateBody ? await call.body() : { json: undefined, raw: undefined };
  if ("refusal" in read) return read.refusal;
  const handler = handlers[op.operationId];
  const errors = requestErrors(sandbox, op, handler, call.parameters, read.json);
  if (errors.length > 0) return refusal(validationProblem(errors));
  const handled: Call = { account: call.account, body: read.json, parameters: call.parameters };
  const key = call.parameters[IDEMPOTENCY_KEY];
  if (!("waits" in handler) && key !== undefined && read.raw) return idempotent(sandbox, op, handler, handled, key, read.raw);
  return handler.handle(handled, sandbox);
}

/** What is wrong with the request, by field: its parameters and body against the contract's schemas, then the operation's own rules. */
function requestErrors(
  sandbox: Sandbox,
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
  // Every body is an object: one that is not (null, an array) has its error already, and no rule beyond it to check.
  const checked = typeof body === "object" && body !== null && !Array.isArray(body) ? (handler.check?.(body, sandbox) ?? []) : [];
  return [...errors, ...checked.filter((e) => !errors.some((known) => known.field === e.field))];
}

/** Runs a create under its Idempotency-Key: the first answer is kept, and replayed for the same body. */
function idempotent(sandbox: Sandbox, op: OperationRequest, handler: Operation, call: Call, key: string, raw: Buffer): Promise<Answer> {
  const { store } = sandbox;
  const { account } = call;
  return store.transaction(async (): Promise<Answer> => {
    const claim = await store.idempotencyKeys.claim(
      account.id,
      op.operationId,
      key,
      requestHash(raw),
      accountNow(sandbox.clock, account),
      account.clockOffsetMs,
    );
    if (!claim.fresh) {
      if (claim.sameBody) return { status: claim.answer.status, body: JSON.parse(claim.answer.body) };
      return refusal(problem(409, "idempotency_key_reused", "This Idempotency-Key was first used with a different request body."));
    }
    // The key and the answer are written in the transaction of the create.
    const answer = await handler.handle(call, sandbox);
    // Both creates answer with a body.
    await store.idempotencyKeys.record(account.id, op.operationId, key, { status: answer.status, body: JSON.stringify(answer.body) });
    return answer;
  });
}

/** The answer of a status fault: the status's problem document, with Retry-After where the contract gives one. */
function faultAnswer(fault: FaultRow): Answer {
  const status = fault.status!;
  const retryAfter = status === 500 ? undefined : String(fault.retry_after_seconds ?? 1);
  const detail =
    `A fault armed with POST /_sandbox/v1/faults (${fault.id}) answered this request` +
    `${retryAfter === undefined ? "" : `; retry after ${retryAfter} s`}.`;
  return refusal(problem(status, SERVER_CONDITIONS[status]!, detail), retryAfter === undefined ? undefined : { "Retry-After": retryAfter });
}

/** The operation's path with its path parameters filled in: where a caller without a path of its own went. */
const pathOf = (op: OperationRequest, parameters: Record<string, string>) =>
  op.path.replace(/\{([^}]+)\}/g, (_, name: string) => encodeURIComponent(parameters[name] ?? ""));
