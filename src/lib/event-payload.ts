// An event's payload, as the service sends it (the sandbox's deliveries and the conformance
// kit's receiver checks): the envelope of decision D13 with thin data (identifiers, the state
// announced, amount and currency), as the contract's schemas say: each type's data carries the
// fields its schema has (EVENT_RULES), so a session event names no transaction and only the
// event of a failure carries its reason, whatever facts it is given.
import { EVENT_RULES, type PayinEvent } from "../../generated/event-types.ts";

/** What an event's payload is made of: the event, its session's facts, and its transaction's (left out where its type has none). */
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
  const rule = EVENT_RULES[type];
  const facts: Record<string, unknown> = {
    transaction_id: transactionId,
    session_id: sessionId,
    counterparty_id: counterpartyId,
    order_id: request.order_id,
    status: rule.status,
    amount: request.amount,
    currency: request.currency,
    failure_reason: failureReason,
  };
  const data = Object.fromEntries(
    rule.fields.flatMap((field) => (facts[field] === undefined || facts[field] === null ? [] : [[field, facts[field]]])),
  );
  return JSON.stringify({ id, type, timestamp, data });
}
