// What each operation's handler receives and returns. Handlers that change state are synchronous:
// node:sqlite is, so a request's reads and writes run without another request in between. Only
// control operations that wait for webhook deliveries answer later.
import type { ValidationError } from "../../generated/event-validators.js";
import type { OperationId } from "../../generated/sandbox-requests.js";
import type { Dispatcher } from "./dispatcher.ts";
import type { Journal } from "./journal.ts";
import type { Payments } from "./payments.ts";
import type { ProblemFieldError as FieldError } from "../lib/problem.ts";
import type { RouteMatch } from "./router.ts";
import type { Account } from "./store/accounts.ts";
import type { Store } from "./store/index.ts";

/** The sandbox as its handlers, routes and jobs see it: its state, payment flow, dispatcher, journal and address. */
export interface Sandbox {
  store: Store;
  payments: Payments;
  dispatcher: Dispatcher;
  journal: Journal;
  /** Aborted when the sandbox closes: what waits on purpose (a delay fault) stops waiting. */
  closing: AbortSignal;
  /** Where the sandbox is reached, for the links it makes: its own address or `publicUrl`, never a request's Host. */
  origin: string;
  route: (method: string, pathname: string) => RouteMatch;
  handlers: Operations;
}

export interface Call {
  account: Account;
  /** The JSON body, valid against the operation's schema; undefined when it takes none. */
  body: any;
  /** Path, query and header parameters by name, valid against their schemas. */
  parameters: Record<string, string>;
}

export interface Answer {
  status: number;
  /** Sent as JSON (a problem document when the status is 4xx or 5xx); none for 204. */
  body?: unknown;
}

export interface Operation {
  handle(call: Call, sandbox: Sandbox): Answer | Promise<Answer>;
  /** A validation error this operation accepts on purpose (the sandbox's documented differences). */
  waive?(error: ValidationError, body: any): boolean;
  /** The sandbox's own words for a validation error it does not waive, in place of the schema's; undefined keeps the schema's. */
  explain?(error: ValidationError): string | undefined;
  /** The body's field errors under rules the contract states but its schemas cannot express. */
  check?(body: any): FieldError[];
}

export type Operations = Record<OperationId, Operation>;
