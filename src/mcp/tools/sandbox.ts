// The tools that act on the service or a sandbox of it: a checkout, its payment as the customer,
// the transaction, where events go and the account's clock, and the delivery log. Each input's
// fields are the contract's schemas, made small.
import type { Json } from "../../lib/json.ts";
import { contractSchema } from "../contract.ts";
import {
  answer,
  clientsOf,
  failure,
  INTEGER,
  inputShape,
  isNotSandbox,
  needsService,
  notSandbox,
  OBJECT,
  problemAnswer,
  shape,
  STRING,
  type Tool,
} from "../tool.ts";

/** Some of an object schema's properties, without their descriptions: get_schema has them, and their names say enough here. */
const pick = (schema: Json, names: readonly string[]) => ({
  properties: Object.fromEntries(
    names.map((name) => {
      const { description: _, ...property } = schema.properties[name];
      return [name, property];
    }),
  ),
  required: names.filter((name) => schema.required.includes(name)),
});

/** create_checkout's input: the customer's fields of a PAYIN individual, and the session's, side by side. */
function checkoutInput(): Json {
  const person = pick(contractSchema("CounterpartyCreate"), ["first_name", "last_name", "email", "phone_number"]);
  const session = pick(contractSchema("PaymentSessionCreate"), ["amount", "currency", "order_id", "redirect_url"]);
  return {
    type: "object",
    properties: { ...person.properties, ...session.properties },
    required: [...person.required, ...session.required],
    additionalProperties: false,
  };
}

const SESSION_ID = contractSchema("SessionId");

export const createCheckout: Tool = {
  name: "create_checkout",
  description: "Create a customer (or find it by email and phone) and a payment session, paid at its payment_link; amount in major units.",
  inputSchema: checkoutInput(),
  outputSchema: shape({ session: OBJECT, counterparty_id: STRING, counterparty: { enum: ["new", "existing"] } }),
  annotations: { destructiveHint: false },
  async run(input, { target }) {
    const api = clientsOf(target);
    if (!api) return needsService();
    const { first_name, last_name, email, phone_number, ...session } = input;
    const person = { type: "INDIVIDUAL", payment_rail: "PAYIN", first_name, last_name, email, phone_number } as const;
    const created = await api.payin.POST("/api/v1/send/counterparties/", { body: person });
    const existing = created.error?.code === "counterparty_exists" ? (created.error as Json).existing_id : undefined;
    if (created.error && !existing) return problemAnswer("Create counterparty", created.response.status, created.error);
    const counterpartyId: string = existing ?? created.data!.id;
    const made = await api.payin.POST("/api/v1/earn/payment-sessions/", { body: { ...session, counterparty_id: counterpartyId } as any });
    if (made.error) return problemAnswer("Create payment session", made.response.status, made.error);
    return answer(`Session ${made.data!.id} for counterparty ${counterpartyId}; the customer pays at ${made.data!.payment_link}`, {
      session: made.data,
      counterparty_id: counterpartyId,
      counterparty: existing ? "existing" : "new",
    });
  },
};

export const simulatePayment: Tool = {
  name: "simulate_payment",
  description: "On a sandbox: pay or fail an open session as its customer (failure_reason, card_declined by default), or expire it.",
  inputSchema: inputShape(
    { session_id: SESSION_ID, outcome: { enum: ["pay", "fail", "expire"] }, failure_reason: contractSchema("FailureReason") },
    ["failure_reason"],
  ),
  outputSchema: shape({ session: OBJECT, transaction: OBJECT, clock: OBJECT }),
  annotations: {},
  async run({ session_id, outcome, failure_reason }, { target }) {
    const api = clientsOf(target);
    if (!api) return needsService();
    const params = { path: { session_id } };
    if (outcome === "expire") {
      const read = await api.sandbox.GET("/_sandbox/v1/payment-sessions/{session_id}", { params });
      if (isNotSandbox(read.response.status, read.error)) return notSandbox(target, "simulate_payment");
      if (read.error) return problemAnswer("Read the session", read.response.status, read.error);
      const session = read.data!;
      // Only an open session can expire: the clock of a completed or expired one stays where it is.
      if (session.status !== "created")
        return failure(`Session ${session_id} is ${session.status}, not open: it cannot expire; the clock did not move.`);
      const seconds = Math.ceil((Date.parse(session.expires_at) - Date.parse(session.created_at)) / 1000) + 1;
      const advanced = await api.sandbox.POST("/_sandbox/v1/clock/advance", { body: { seconds } });
      if (advanced.error) return problemAnswer("Advance the clock", advanced.response.status, advanced.error);
      const after = await api.sandbox.GET("/_sandbox/v1/payment-sessions/{session_id}", { params });
      if (after.error) return problemAnswer("Read the session", after.response.status, after.error);
      return answer(`Session ${session_id} is ${after.data!.status}; the clock moved ${seconds} s, past its expires_at.`, {
        session: after.data,
        clock: advanced.data,
      });
    }
    const paid = await api.sandbox.POST("/_sandbox/v1/payment-sessions/{session_id}/simulate", {
      params,
      body: outcome === "fail" ? { outcome: "fail", failure_reason: failure_reason ?? "card_declined" } : { outcome: "pay" },
    });
    if (isNotSandbox(paid.response.status, paid.error)) return notSandbox(target, "simulate_payment");
    if (paid.error) return problemAnswer(`simulate_payment ${outcome}`, paid.response.status, paid.error);
    const { session, transaction } = paid.data!;
    return answer(`Session ${session_id} is ${session.status}, transaction ${transaction.id} ${transaction.status}.`, {
      session,
      transaction,
    });
  },
};

export const getTransaction: Tool = {
  name: "get_transaction",
  description: "A transaction as the service has it now: the truth, where an event says it changed.",
  inputSchema: inputShape({ transaction_id: contractSchema("TransactionId") }),
  outputSchema: shape({ transaction: OBJECT }),
  annotations: { readOnlyHint: true },
  async run({ transaction_id }, { target }) {
    const api = clientsOf(target);
    if (!api) return needsService();
    const { data, error, response } = await api.payin.GET("/api/v1/earn/transactions/{transaction_id}/", {
      params: { path: { transaction_id } },
    });
    if (error) return problemAnswer("Get transaction", response.status, error);
    return answer(`Transaction ${data!.id} is ${data!.status}.`, { transaction: data });
  },
};

export const registerWebhook: Tool = {
  name: "register_webhook",
  description: "Set where the account's events go (https://, or loopback http:// on a sandbox); answers the signing secret.",
  inputSchema: inputShape({ url: { type: "string", format: "uri", maxLength: 2048 } }),
  outputSchema: shape({ url: STRING, signing_secret: STRING, registered: { enum: ["new", "replaced"] } }),
  annotations: { destructiveHint: false, idempotentHint: true },
  async run({ url }, { target }) {
    const api = clientsOf(target);
    if (!api) return needsService();
    const { data, error, response } = await api.payin.POST("/webhooks", { body: { url } });
    if (error) return problemAnswer("Register webhook", response.status, error);
    const registered = response.status === 201 ? "new" : "replaced";
    return answer(`Events go to ${data!.url} (${registered}); verify them with the signing_secret.`, {
      url: data!.url,
      signing_secret: data!.signing_secret,
      registered,
    });
  },
};

export const advanceClock: Tool = {
  name: "advance_clock",
  description: "On a sandbox: move the account's clock on, doing what falls due (expiry, settlement, webhook attempts).",
  inputSchema: inputShape({ seconds: { type: "integer", minimum: 1 } }),
  outputSchema: shape({ now: STRING, attempts_made: INTEGER, attempts_still_due: INTEGER }),
  annotations: {},
  async run({ seconds }, { target }) {
    const api = clientsOf(target);
    if (!api) return needsService();
    const { data, error, response } = await api.sandbox.POST("/_sandbox/v1/clock/advance", { body: { seconds } });
    if (isNotSandbox(response.status, error)) return notSandbox(target, "advance_clock");
    if (error) return problemAnswer("Advance the clock", response.status, error);
    return answer(
      `The clock is at ${data!.now}; ${data!.attempts_made} webhook attempts made, ${data!.attempts_still_due} still due.`,
      data!,
    );
  },
};

export const listDeliveries: Tool = {
  name: "list_deliveries",
  description:
    "On a sandbox: a session's or the account's webhook attempts, oldest first, with the endpoint's answers; " +
    "100 a call, next_cursor as cursor for more.",
  inputSchema: inputShape({ session_id: SESSION_ID, cursor: STRING }, ["session_id", "cursor"]),
  outputSchema: shape({ attempts: { type: "array", items: OBJECT }, next_cursor: { type: ["string", "null"] } }),
  annotations: { readOnlyHint: true },
  async run({ session_id, cursor }, { target }) {
    const api = clientsOf(target);
    if (!api) return needsService();
    const query = { ...(session_id ? { session_id } : {}), ...(cursor ? { cursor } : {}) };
    const listed = await api.sandbox.GET("/_sandbox/v1/deliveries", { params: { query } });
    if (isNotSandbox(listed.response.status, listed.error)) return notSandbox(target, "list_deliveries");
    if (listed.error) return problemAnswer("List deliveries", listed.response.status, listed.error);
    // A page: an agent reads on only when it needs to, rather than take a long log into its context at once.
    const { data: attempts, next_cursor } = listed.data!;
    if (attempts.length) {
      const failed = attempts.filter((a) => a.status === "failed").length;
      const more = next_cursor === null ? "" : ` More follow: list_deliveries with cursor ${next_cursor}.`;
      const line = `${attempts.length} attempts, oldest first: ${attempts.length - failed} succeeded, ${failed} failed.${more}`;
      return answer(line, { attempts, next_cursor });
    }
    // No attempt: say why, when the account has nowhere to send its events.
    const hook = await api.payin.GET("/webhooks");
    const why =
      hook.response.status === 404
        ? "the account has no webhook URL, so its events wait for one: register_webhook, then advance_clock"
        : "no event of these was due yet: advance_clock makes what is due";
    return answer(`No attempts: ${why}.`, { attempts, next_cursor });
  },
};

export const resendEvent: Tool = {
  name: "resend_event",
  description: "On a sandbox: deliver an event again now, same webhook-id; a correct endpoint handles it once.",
  inputSchema: inputShape({ event_id: contractSchema("EventId") }),
  outputSchema: shape({ attempt: OBJECT }),
  annotations: { destructiveHint: false },
  async run({ event_id }, { target }) {
    const api = clientsOf(target);
    if (!api) return needsService();
    const sent = await api.sandbox.POST("/_sandbox/v1/deliveries/{event_id}/redeliver", { params: { path: { event_id } } });
    if (isNotSandbox(sent.response.status, sent.error)) return notSandbox(target, "resend_event");
    if (sent.error) return problemAnswer("Resend event", sent.response.status, sent.error);
    const attempt = sent.data!;
    return answer(`${event_id} delivered again: ${attempt.status} (${attempt.response_status ?? attempt.error}).`, { attempt });
  },
};
