// The one way into every operation and every page, whatever carries the request (HTTP, a later
// transport): the caller's access (its token's length and rate, or on a customer's page its
// address's rate), the account of its token, the account's request fault, the body read and
// validated from the documents, the handler (under its Idempotency-Key), and the journal entry.
// A transport translates its own medium only: it hands over the token, the parameters and a way
// to read the body, and sends the answer, or, after a drop fault, none.
import { operations, type OperationId, type OperationRequest } from "../../../generated/sandbox-requests.js";
import { sleepOn } from "../../lib/clock.ts";
import { fieldPath } from "../../lib/field.ts";
import { problem, SERVER_CONDITIONS, validationProblem, type ProblemFieldError as FieldError } from "../../lib/problem.ts";
import { accountNow } from "../flow/clock.ts";
import { ConflictError, RecordGoneError, reportUnlessUnavailable } from "../store/database.ts";
import type { Account } from "../store/accounts.ts";
import type { FaultRow } from "../store/faults.ts";
import { requestHash } from "../store/idempotency.ts";
import { refusal, type Answer } from "./answer.ts";
import { handlers } from "./index.ts";
import type { Call, Operation, Sandbox } from "./operation.ts";
import { PAGES, type PageId } from "./pages/index.ts";
import type { Page } from "./pages/page.ts";
import { fieldErrors } from "./validation.ts";

const IDEMPOTENCY_KEY = "Idempotency-Key";
const NUL_MESSAGE = "must not hold the character U+0000 (NUL)";

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

/** An account a token found, and whether it has a request fault armed. */
type Found = { account: Account; requestFaults: boolean };

const byId = new Map(operations.map((op) => [op.operationId, op]));
const pages: Readonly<Record<string, Page>> = PAGES;

export async function execute(sandbox: Sandbox, call: OperationCall): Promise<Outcome> {
  const { store } = sandbox;
  const page = pages[call.operationId];
  const client = call.client ?? "";
  // A caller turned away (a token too short, a rate exceeded) is refused before its account is looked up. A listener's
  // answer to a delivery is the sandbox's own asking: no rate turns it away, or the delivery would fail though answered.
  const caller = page?.caller === "customer" ? { client } : { token: call.token ?? "", client };
  const turnedAway = sandbox.access.refusal(caller, call.operationId !== "answerDelivery");
  if (turnedAway) return { answer: turnedAway, dropped: false };
  if (page) return { answer: await show(sandbox, page, call), dropped: false };
  const op = byId.get(call.operationId as OperationId)!;
  // The token before its address's refusals: a valid token is never turned away for what its neighbours guessed.
  const lookUp = (fresh = false) => sandbox.access.lookUp(store.accounts, call.token!, client, fresh);
  const found = await lookUp();
  if (!found) return { answer: sandbox.access.unknownToken(client), dropped: false };
  // Its account's share of the database's connections: a burst of one account's requests waits on itself.
  return store.onBehalfOf(found.account.id, () => serve(sandbox, call, op, found, lookUp));
}

/** Serves an operation's call for the account its token found: its fault, its body, its work and its journal entry. */
async function serve(
  sandbox: Sandbox,
  call: OperationCall,
  op: OperationRequest,
  first: Found,
  lookUp: (fresh?: boolean) => Promise<Found | undefined>,
): Promise<Outcome> {
  const { store, clock } = sandbox;
  const client = call.client ?? "";
  const handler = handlers[op.operationId];
  let found: Found | undefined = first;
  // The control API is the test's own: only the contract's operations meet faults and are journaled.
  const contract = op.document === "contract";
  const started = clock.now();
  const receivedAtMs = accountNow(clock, found.account);
  const fault = contract && found.requestFaults ? await store.faults.forRequest(found.account.id, op.operationId) : undefined;
  if (fault?.effect === "delay") await sleepOn(clock, fault.delay_ms!, sandbox.closing);
  // Closing cuts short what waited on purpose: its caller gets no answer.
  if (sandbox.closing.aborted) return { answer: refusal(problem(503, "service_unavailable", "This sandbox is stopping.")), dropped: true };
  const dropped = fault?.effect === "drop";
  const journal = async (answer: Answer) => {
    if (!contract) return;
    await store.journal.record(found!.account.id, {
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
    });
  };
  /** An answer made without the operation's work: journaled on its own, and lost from the journal with a database gone, not the answer. */
  const refused = async (answer: Answer): Promise<Outcome> => {
    await journal(answer).catch(reportUnlessUnavailable);
    return { answer, dropped };
  };
  if (fault?.effect === "status") return refused(faultAnswer(fault));

  const read = op.validateBody ? await call.body() : { json: undefined, raw: undefined };
  if ("refusal" in read) return refused(read.refusal);
  const errors = requestErrors(sandbox, op, handler, call.parameters, read.json);
  if (errors.length > 0) return refused(refusal(validationProblem(errors)));
  // An operation that waits for deliveries (or streams them) does so outside any transaction; it writes in its own.
  if ("waits" in handler)
    return { answer: await handler.handle({ account: found.account, body: read.json, parameters: call.parameters }, sandbox), dropped };

  const key = call.parameters[IDEMPOTENCY_KEY];
  // A read is its statements, each its own; anything else is one transaction: the account's last request, the work, its
  // Idempotency-Key and its journal entry, committed together once. First optimistic: what may conflict with a row
  // already there (a key used before, a contact taken) is written without asking, which on PostgreSQL makes a create
  // one statement; a conflict undoes it all, and the request runs again, asking, to answer what conflicted.
  let optimistic = true;
  const once = <T>(work: () => Promise<T>) => (op.method === "GET" ? work() : store.transaction(work, { optimistic }));
  for (let tries = 1; ; tries++) {
    const handled: Call = { account: found.account, body: read.json, parameters: call.parameters };
    try {
      const answer = await once(async () => {
        await store.accounts.touch(handled.account);
        const answer =
          key !== undefined && read.raw
            ? await idempotent(sandbox, op, handler, handled, key, read.raw)
            : await handler.handle(handled, sandbox);
        await journal(answer);
        return answer;
      });
      return { answer, dropped };
    } catch (error) {
      // The key's first use answered already: its answer, and none of this one's work.
      if (error instanceof KeyTaken) return refused(error.answer);
      if (error instanceof ConflictError && optimistic) {
        optimistic = false;
        continue;
      }
      // The account was deleted (or emptied) under the request: once more on what is there now, a new account's in an
      // open sandbox, or refused.
      if (!(error instanceof RecordGoneError) || tries > 1) throw error;
      found = await lookUp(true);
      if (!found) return { answer: sandbox.access.unknownToken(client), dropped: false };
    }
  }
}

/** A page: its account (but a customer's), its input validated as the operation it is like, then the page. */
async function show(sandbox: Sandbox, page: Page, call: OperationCall): Promise<Answer> {
  const found = page.caller === "account" ? await sandbox.access.lookUp(sandbox.store.accounts, call.token!, call.client ?? "") : undefined;
  if (page.caller === "account" && !found) return sandbox.access.unknownToken(call.client ?? "");
  const account = found?.account;
  // A signed-in page is its account's request, within its share of the database's connections.
  if (account) return sandbox.store.onBehalfOf(account.id, () => showFor(sandbox, page, call, account));
  return showFor(sandbox, page, call, undefined);
}

async function showFor(sandbox: Sandbox, page: Page, call: OperationCall, account: Account | undefined): Promise<Answer> {
  const like = page.validatedAs && byId.get(page.validatedAs)!;
  const read = like?.validateBody ? await call.body() : { json: undefined };
  if ("refusal" in read) return read.refusal;
  const errors = like ? requestErrors(sandbox, like, handlers[like.operationId], call.parameters, read.json) : [];
  if (errors.length > 0) return refusal(validationProblem(errors));
  return page.handle({ ...(account ? { account } : {}), parameters: call.parameters, body: read.json }, sandbox);
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
  const nul = nulFields(body);
  const told = (e: FieldError, known: FieldError[]) => known.some((other) => other.field === e.field);
  return [...errors, ...nul.filter((e) => !told(e, errors)), ...checked.filter((e) => !told(e, errors) && !told(e, nul))];
}

/**
 * The body's strings that hold a NUL, each named: PostgreSQL takes no NUL in text, so that such a string, where no schema
 * refused it (an id, a free text), would fail the request once the database is asked.
 */
function nulFields(value: unknown, path: string[] = []): FieldError[] {
  if (typeof value === "string") return value.includes("\0") ? [{ field: fieldPath(path) || "body", message: NUL_MESSAGE }] : [];
  if (typeof value !== "object" || value === null) return [];
  return Object.entries(value).flatMap(([key, inner]) => nulFields(inner, [...path, key]));
}

/** The key's first use answered already: the answer this request gets instead, its own work undone. */
class KeyTaken extends Error {
  readonly answer: Answer;
  constructor(answer: Answer) {
    super("The Idempotency-Key answered already.");
    this.answer = answer;
  }
}

/**
 * Runs a create under its Idempotency-Key, inside the request's transaction: the work first, then
 * the key kept with its answer. A key used already (by an earlier request, or one at the same
 * moment, whose transaction this one waits for) throws KeyTaken, so that this one's work is
 * undone: the first answer for the same body, 409 for another.
 */
async function idempotent(
  sandbox: Sandbox,
  op: OperationRequest,
  handler: Operation,
  call: Call,
  key: string,
  raw: Buffer,
): Promise<Answer> {
  const { store, clock } = sandbox;
  const { account } = call;
  const answer = await handler.handle(call, sandbox);
  // Both creates answer with a body.
  const stored = { status: answer.status, body: JSON.stringify(answer.body) };
  const kept = await store.idempotencyKeys.keep(
    account.id,
    op.operationId,
    key,
    requestHash(raw),
    stored,
    accountNow(clock, account),
    account.clockOffsetMs,
  );
  if (kept.fresh) return answer;
  if (!kept.sameBody)
    throw new KeyTaken(
      refusal(problem(409, "idempotency_key_reused", "This Idempotency-Key was first used with a different request body.")),
    );
  throw new KeyTaken({ status: kept.answer.status, body: JSON.parse(kept.answer.body) });
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
