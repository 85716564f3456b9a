/** A PAYIN counterparty body whose email and phone number no other call uses, so that a server's uniqueness rule does not interfere. */
export function newCounterparty() {
  const n = crypto.getRandomValues(new Uint32Array(1))[0]!.toString().padStart(10, "0");
  return {
    type: "INDIVIDUAL" as const,
    payment_rail: "PAYIN" as const,
    first_name: "Ana",
    last_name: "Li",
    email: `ana.${n}@example.com`,
    phone_number: `+34${n}`,
  };
}
