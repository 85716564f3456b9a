// What each operation's handler receives and returns. A handler that changes state does so in
// one transaction, and under an Idempotency-Key its answer is stored in that same transaction.
// Only two control operations wait before they answer, for the webhook deliveries they made due,
// outside any transaction; a listener's stream and its answers run outside one too.
import type { ValidationError } from "../../../generated/event-validators.js";
import type { OperationId } from "../../../generated/sandbox-requests.js";
import type { ProblemFieldError as FieldError } from "../../lib/problem.ts";
import type { Dispatcher } from "../delivery/dispatcher.ts";
import type { ListenerHub } from "../delivery/listener-hub.ts";
import type { Destinations } from "../delivery/destinations.ts";
import type { Clock } from "../../lib/clock.ts";
import type { Access } from "./access.ts";
import type { Answer } from "./answer.ts";
import type { Payments } from "../flow/payments.ts";
import type { Account } from "../store/accounts.ts";
import type { Store } from "../store/index.ts";

/** The sandbox as its handlers see it: its state, payment flow, dispatcher, clock and address. */
export interface Sandbox {
  store: Store;
  /** Real time, as the sandbox is given it: every account's clock runs ahead of it by its offset. */
  clock: Clock;
  payments: Payments;
  dispatcher: Dispatcher;
  /** The listeners connected to accounts (payin-listen), which take their deliveries (decision D23). */
  listeners: ListenerHub;
  /** Where deliveries may go: what a registered URL may name (decision D21). */
  destinations: Destinations;
  /** Which tokens may come in, and how often (a hosted sandbox's bounds). */
  access: Access;
  /** Aborted when the sandbox closes: what waits on purpose (a delay fault) stops waiting. */
  closing: AbortSignal;
  /** Where the sandbox is reached, for the links it makes: its own address or `publicUrl`, never a request's Host. */
  origin: string;
}

export interface Call {
  account: Account;
  /** The JSON body, valid against the operation's schema; undefined when it takes none. */
  body: any;
  /** Path, query and header parameters by name, valid against their schemas. */
  parameters: Record<string, string>;
}

/** How the sandbox validates an operation's body beyond its schema, where it must. */
interface Validation {
  /** A validation error this operation accepts on purpose (the sandbox's documented differences). */
  waive?(error: ValidationError, body: any): boolean;
  /** The sandbox's own words for a validation error it does not waive, in place of the schema's; undefined keeps the schema's. */
  explain?(error: ValidationError): string | undefined;
  /** The body's field errors under rules the contract states but its schemas cannot express. */
  check?(body: any, sandbox: Sandbox): FieldError[];
}

/** An operation that answers once the transaction of its writes is done (the transaction of its Idempotency-Key, when it has one). */
export interface Operation extends Validation {
  handle(call: Call, sandbox: Sandbox): Promise<Answer>;
}

/**
 * A control operation that answers once the webhook deliveries it made due are done, or with their stream, or a
 * listener's answer to one (which writes nothing): outside any transaction.
 */
export interface WaitingOperation extends Validation {
  waits: true;
  handle(call: Call, sandbox: Sandbox): Promise<Answer>;
}

type Waiting = "advanceClock" | "redeliverEvent" | "connectListener" | "answerDelivery";

/** Every operation of the two documents, each of the kind it is. */
export type Operations = { [Id in OperationId]: Id extends Waiting ? WaitingOperation : Operation };
