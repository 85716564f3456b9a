// Request bodies the checks send: valid ones, unique where the contract's rules need them to be;
// and the paths they send them to, each a template of the documents (./paths.ts).
import { notAPath, pathTo } from "./paths.ts";

const unique = () => crypto.getRandomValues(new Uint32Array(1))[0]!.toString().padStart(10, "0");

/** A PAYIN counterparty whose email and phone number no earlier run used. */
export function newCounterparty() {
  const n = unique();
  return {
    type: "INDIVIDUAL" as const,
    payment_rail: "PAYIN" as const,
    first_name: "Ana",
    last_name: "Conformance",
    email: `ana.conformance+${n}@example.com`,
    phone_number: `+34${n}`,
  };
}

export const sessionBody = (counterpartyId: string) => ({
  amount: 10,
  currency: "EUR",
  counterparty_id: counterpartyId,
  order_id: `ORD-${unique()}`,
  redirect_url: "https://shop.example.com/thanks",
});

export const PATHS = {
  counterparties: pathTo("/api/v1/send/counterparties/"),
  /** With a query such as `payment_rail=PAYIN&type=INDIVIDUAL`, the rail and type of a counterparty the contract has. */
  counterpartySchema: (query = "payment_rail=PAYIN&type=INDIVIDUAL") => `${pathTo("/api/v1/send/counterparties/schema/")}?${query}`,
  sessions: pathTo("/api/v1/earn/payment-sessions/"),
  transaction: (id: string) => pathTo("/api/v1/earn/transactions/{transaction_id}/", { transaction_id: id }),
  webhooks: pathTo("/webhooks"),
  /** For the check that a path the contract lacks is answered 404. */
  unknown: notAPath("/api/v1/earn/refunds/"),
  // The sandbox's control API: what the customer does on the payment page, the account's clock,
  // state, faults, request journal and delivery log.
  simulate: (sessionId: string) => pathTo("/_sandbox/v1/payment-sessions/{session_id}/simulate", { session_id: sessionId }),
  clockAdvance: pathTo("/_sandbox/v1/clock/advance"),
  reset: pathTo("/_sandbox/v1/reset"),
  /** A counterparty, to delete with all it has. */
  counterparty: (id: string) => pathTo("/_sandbox/v1/counterparties/{counterparty_id}", { counterparty_id: id }),
  faults: pathTo("/_sandbox/v1/faults"),
  fault: (id: string) => pathTo("/_sandbox/v1/faults/{fault_id}", { fault_id: id }),
  requests: pathTo("/_sandbox/v1/requests"),
  /** A page of the session's delivery log: the first, or the one a page's `next_cursor` asks for. */
  deliveries: (sessionId: string, cursor?: string) =>
    `${pathTo("/_sandbox/v1/deliveries")}?${new URLSearchParams({ session_id: sessionId, ...(cursor === undefined ? {} : { cursor }) })}`,
} as const;
