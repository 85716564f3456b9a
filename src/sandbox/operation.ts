// What each operation's handler receives and returns. Handlers are synchronous: node:sqlite is,
// so a request's reads and writes run without another request in between.
import type { ValidationError } from "../../generated/event-validators.js";
import type { OperationId } from "../../generated/sandbox-requests.js";
import type { Account } from "./store/accounts.ts";
import type { Store } from "./store/index.ts";

export interface Call {
  account: Account;
  /** The JSON body, valid against the operation's schema; undefined when it takes none. */
  body: any;
  /** Path, query and header parameters by name, valid against their schemas. */
  parameters: Record<string, string>;
  /** Where the sandbox is reached, for the links it makes: `http://127.0.0.1:4010`. */
  origin: string;
}

export interface Answer {
  status: number;
  /** Sent as JSON (a problem document when the status is 4xx or 5xx); none for 204. */
  body?: unknown;
  /** The body already as JSON text, when the handler made it to store it too. */
  json?: string;
}

export interface Operation {
  handle(call: Call, store: Store): Answer;
  /** A validation error this operation accepts on purpose (the sandbox's documented differences). */
  waive?(error: ValidationError, body: any): boolean;
}

export type Operations = Record<OperationId, Operation>;
