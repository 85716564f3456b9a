// The events the sandbox sends, made from its own records: the envelope of decision D13 with
// thin data (identifiers, the state announced, amount and currency), as the contract's schemas say.
import type { components } from "../../generated/openapi.ts";
import type { PayinEvent, PayinEventOf } from "../../generated/events.ts";
import { newId } from "./ids.ts";

type PaymentSession = components["schemas"]["PaymentSession"];
type Transaction = components["schemas"]["Transaction"];

type SessionEventType = "session-created" | "session-completed" | "session-expired";
type TransactionEventType = Exclude<PayinEvent["type"], SessionEventType>;

const orderOf = (record: { order_id?: string }) => (record.order_id === undefined ? {} : { order_id: record.order_id });

/** A session event; `session.status` is the state it announces, `timestamp` when it happened (RFC 3339). */
export function sessionEvent<T extends SessionEventType>(type: T, session: PaymentSession, timestamp: string): PayinEventOf<T> {
  const data = {
    session_id: session.id,
    counterparty_id: session.counterparty_id,
    ...orderOf(session),
    status: session.status,
    amount: session.amount,
    currency: session.currency,
  };
  return { id: newId("msg"), type, timestamp, data } as PayinEventOf<T>;
}

/** A transaction event; `transaction.status` is the state it announces. */
export function transactionEvent<T extends TransactionEventType>(type: T, transaction: Transaction, timestamp: string): PayinEventOf<T> {
  const data = {
    transaction_id: transaction.id,
    session_id: transaction.session_id,
    counterparty_id: transaction.counterparty_id,
    ...orderOf(transaction),
    status: transaction.status,
    amount: transaction.amount,
    currency: transaction.currency,
    ...(transaction.failure_reason === undefined ? {} : { failure_reason: transaction.failure_reason }),
  };
  return { id: newId("msg"), type, timestamp, data } as PayinEventOf<T>;
}
