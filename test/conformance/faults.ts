// The faults the broken fronts inject (./faulty-front.ts), each with the kit's checks that must
// fail on it and why, and the payin flows that must: those with a step the fault touches.
import { resigned, type Fault } from "./faulty-front.ts";

export const json = (text: string) => JSON.parse(text) as Record<string, any>;
const typeOf = (body: string) => json(body).type as string;

/**
 * Each fault the broken fronts inject: what it does, the fault, the kit's checks that must fail on it and why, and the
 * payin flows (arazzo/payin.arazzo.yaml) that must fail on it: those with a step the fault touches.
 */
export const FAULTS: Array<[name: string, fault: Fault, checks: string[], reason: RegExp, flows: string[]]> = [
  [
    "a status changed (create counterparty answers 200)",
    {
      answer: (request, answer) =>
        request.method === "POST" && request.path.startsWith("/api/v1/send/counterparties/") && answer.status === 201
          ? { ...answer, status: 200 }
          : answer,
    },
    ["answers.create-counterparty"],
    /answered 200 where the contract expects 201/,
    [
      "start-checkout",
      "customer-pays",
      "payment-fails",
      "session-expires",
      "counterparty-unique",
      "idempotent-retry",
      "several-payment-links",
    ],
  ],
  [
    "a required field dropped (a session without payment_link)",
    {
      answer: (request, answer) =>
        request.path.startsWith("/api/v1/earn/payment-sessions/") && answer.status === 201
          ? { ...answer, body: JSON.stringify({ ...json(answer.body), payment_link: undefined }) }
          : answer,
    },
    ["answers.create-payment-session"],
    /body\.payment_link must have required property 'payment_link'/,
    ["start-checkout", "customer-pays", "payment-fails", "session-expires", "idempotent-retry", "several-payment-links"],
  ],
  [
    "an event signed with another secret",
    { delivery: (delivery) => resigned(delivery, "whsec_C2FVsBQIhrscChlQIMV+b5sSYspob7oD") },
    ["events.session-created"],
    /not signed with the secret POST \/webhooks returned/,
    ["customer-pays", "payment-fails", "session-expires"],
  ],
  [
    "a retry with a new webhook-id",
    {
      delivery: (delivery, secret, attempt) =>
        attempt > 1 ? resigned(delivery, secret, `msg_retry_${attempt}_${crypto.randomUUID()}`) : delivery,
    },
    ["events.retry"],
    /was not retried with webhook-id msg_/,
    [],
  ],
  ["no retry at all", { delivery: (delivery, _, attempt) => (attempt > 1 ? null : delivery) }, ["events.retry"], /was not retried/, []],
  [
    "a session's events out of the allowed order (transaction-completed before transaction-created)",
    {
      delivery: (delivery, secret) => {
        if (typeOf(delivery.body) !== "transaction-completed") return delivery;
        const event = json(delivery.body);
        return resigned(
          { ...delivery, body: JSON.stringify({ ...event, timestamp: new Date(Date.parse(event.timestamp) - 1).toISOString() }) },
          secret,
        );
      },
    },
    ["events.flows"],
    /transaction-created happened at .*, after transaction-completed at .*, an order the contract's state machines do not allow/,
    ["customer-pays"],
  ],
  [
    "an invalid body answered 500",
    {
      answer: (_, answer) =>
        answer.status === 422 ? { ...answer, status: 500, body: JSON.stringify({ ...json(answer.body), status: 500 }) } : answer,
    },
    ["negative.create-counterparty"],
    /an invalid body was answered 500, a server error/,
    [],
  ],
  [
    "a duplicate customer accepted",
    {
      answer: (request, answer) =>
        answer.status === 409 && json(answer.body).code === "counterparty_exists"
          ? {
              status: 201,
              headers: { "content-type": "application/json" },
              body: JSON.stringify({ ...json(request.body), id: `cp_dup${Date.now()}`, created_at: new Date().toISOString() }),
            }
          : answer,
    },
    ["rules.counterparty-unique"],
    /answered 201 where the contract expects 409/,
    ["counterparty-unique"],
  ],
];
