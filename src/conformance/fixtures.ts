// Request bodies the checks send: valid ones, unique where the contract's rules need them to be.
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
  counterparties: "/api/v1/send/counterparties/",
  counterpartySchema: "/api/v1/send/counterparties/schema/?payment_rail=PAYIN&type=INDIVIDUAL",
  sessions: "/api/v1/earn/payment-sessions/",
  transaction: (id: string) => `/api/v1/earn/transactions/${encodeURIComponent(id)}/`,
  webhooks: "/webhooks",
  /** The sandbox's control API: what the customer does on the payment page. */
  simulate: (sessionId: string) => `/_sandbox/v1/payment-sessions/${encodeURIComponent(sessionId)}/simulate`,
} as const;
