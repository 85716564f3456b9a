// An event's payload, as the service sends it (the sandbox's deliveries and the conformance
// kit's receiver checks): the envelope of decision D13 with thin data (identifiers, the state
// announced, amount and currency), as the contract's schemas say. The state announced is the
// one the type names (`transaction-settled` announces `settled`), and only transaction-failed
// carries the failure reason.
import type { PayinEvent } from "../../generated/event-types.ts";

/** What an event's payload is made of: the event, its session's facts, and its transaction's. */
export interface EventFacts {
  id: string;
  type: PayinEvent["type"];
  /** When it happened on the account's clock, RFC 3339. */
  timestamp: string;
  sessionId: string;
  counterpartyId: string;
  /** The session's request fields: what is charged, and for which order. */
  request: { order_id?: string; amount: number; currency: string };
  transactionId: string | null;
  failureReason: string | null;
}

/** The envelope as JSON text, the same for the same facts. */
export function eventPayload({
  id,
  type,
  timestamp,
  sessionId,
  counterpartyId,
  request,
  transactionId,
  failureReason,
}: EventFacts): string {
  const data = {
    ...(transactionId === null ? {} : { transaction_id: transactionId }),
    session_id: sessionId,
    counterparty_id: counterpartyId,
    ...(request.order_id === undefined ? {} : { order_id: request.order_id }),
    status: type.slice(type.indexOf("-") + 1),
    amount: request.amount,
    currency: request.currency,
    ...(type === "transaction-failed" && failureReason !== null ? { failure_reason: failureReason } : {}),
  };
  return JSON.stringify({ id, type, timestamp, data });
}
