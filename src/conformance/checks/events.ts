// The half of the contract no other tool checks: the events the service sends. The kit's
// receiver is registered with POST /webhooks; each delivery must carry the Standard Webhooks
// signature made with the secret that registration returned, a webhook-id equal to the event's
// id, a timestamp within five minutes, a payload its event's schema allows, and data about the
// objects it names. A failed delivery is retried with the same webhook-id.
import { EVENT_FLOWS } from "../../../generated/event-flows.ts";
import { verifyWebhook, WebhookVerificationError, type PayinEvent } from "../../webhooks/index.ts";
import { CheckFailure, expectAnswer, expectThat, type Check, type CheckContext } from "../check.ts";
import { orderViolation } from "../event-order.ts";
import { newCounterparty, PATHS, sessionBody } from "../fixtures.ts";
import type { Delivery, Receiver } from "../receiver.ts";

/** How long a delivery may take to come: the service delivers at once, retries after about 5 s (20 % jitter). */
const DELIVERY_WAIT_MS = 10_000;
const RETRY_WAIT_MS = 5_000 * 1.2 + 3_000;

/** Registers the receiver and returns the signing secret. */
async function register({ target }: CheckContext, receiver: Receiver): Promise<string> {
  const registered = await target.call("POST", PATHS.webhooks, { body: { url: receiver.url } });
  expectAnswer(registered, 200, 201);
  return registered.json.signing_secret;
}

/** A new session of a new counterparty: the request sent and the session answered; `before` sees the request before it goes. */
async function newSession({ target }: CheckContext, before?: (sent: ReturnType<typeof sessionBody>) => void) {
  const counterparty = await target.call("POST", PATHS.counterparties, { body: newCounterparty() });
  expectAnswer(counterparty, 201);
  const sent = sessionBody(counterparty.json.id);
  before?.(sent);
  const session = await target.call("POST", PATHS.sessions, { body: sent });
  expectAnswer(session, 201);
  return { sent, session: session.json };
}

const eventOf = (delivery: Pick<Delivery, "body">): { type?: string; data?: { session_id?: string; order_id?: string } } | undefined => {
  try {
    return JSON.parse(delivery.body);
  } catch {
    return undefined;
  }
};

/** The first delivery, to come, of an event of `type` about the session. */
async function deliveryOf(receiver: Receiver, type: string, sessionId: string, timeoutMs = DELIVERY_WAIT_MS): Promise<Delivery> {
  try {
    return await receiver.next((d) => eventOf(d)?.type === type && eventOf(d)?.data?.session_id === sessionId, timeoutMs);
  } catch {
    throw new CheckFailure(`no ${type} event for session ${sessionId} reached ${receiver.url} within ${timeoutMs / 1000} s`, [
      `deliveries received: ${receiver.deliveries.length}`,
    ]);
  }
}

/** The delivery's event, verified as a receiver verifies it with the secret of the registration. */
async function verified(delivery: Delivery, secret: string, eventsSeen: Set<string>): Promise<PayinEvent> {
  try {
    const event = await verifyWebhook(delivery.body, delivery.headers, secret);
    eventsSeen.add(event.type);
    return event;
  } catch (error) {
    if (!(error instanceof WebhookVerificationError)) throw error;
    const shownHeaders = ["webhook-id", "webhook-timestamp", "webhook-signature"].map(
      (name) => `${name}: ${delivery.headers[name] ?? "(missing)"}`,
    );
    const risk = error.code === "invalid_signature" ? " (not signed with the secret POST /webhooks returned)" : "";
    const what = error.code === "unknown_event_type" ? "an event the contract does not have" : "a delivery a receiver must refuse";
    throw new CheckFailure(`${what}: ${error.message}${risk}`, [
      ...shownHeaders,
      `body: ${delivery.body.slice(0, 300)}`,
      ...error.errors.map((e) => `${e.field}: ${e.message}`),
    ]);
  }
}

/** Fails unless, by their timestamps, a session's events happened in an order the state machines allow. */
function expectAllowedOrder(events: PayinEvent[], sessionId: string) {
  const violation = orderViolation(events, sessionId);
  if (violation) throw new CheckFailure(violation);
}

export const eventChecks: Check[] = [
  {
    id: "events.session-created",
    name: "a new session's session-created is delivered, signed with the registration's secret, valid, and about that session",
    needs: ["events"],
    async run(context) {
      const receiver = context.receiver!;
      const secret = await register(context, receiver);
      const { sent, session } = await newSession(context);
      const event = await verified(await deliveryOf(receiver, "session-created", session.id), secret, context.eventsSeen);
      expectThat(event.type === "session-created", `the event is ${event.type}`);
      const { data } = event;
      const expected = {
        session_id: session.id,
        counterparty_id: sent.counterparty_id,
        order_id: sent.order_id,
        status: "created",
        amount: sent.amount,
        currency: sent.currency,
      };
      const wrong = Object.entries(expected).filter(([field, value]) => (data as Record<string, unknown>)[field] !== value);
      if (wrong.length > 0) {
        const differences = wrong.map(
          ([f, v]) => `${f} is ${JSON.stringify((data as Record<string, unknown>)[f])}, not ${JSON.stringify(v)}`,
        );
        throw new CheckFailure(`the event's data differs from the session: ${differences.join("; ")}`);
      }
    },
  },
  {
    id: "events.retry",
    name: "a delivery answered 500 is retried with the same webhook-id, a new timestamp and a valid signature",
    needs: ["events"],
    async run(context) {
      const receiver = context.receiver!;
      const secret = await register(context, receiver);
      // The first delivery of the new session's session-created is refused (found by its
      // order_id, known before the session is: the delivery may come before the answer).
      let refused = false;
      try {
        const { session } = await newSession(context, ({ order_id }) => {
          receiver.answer = (delivery) => {
            const event = eventOf(delivery);
            return !refused && event?.type === "session-created" && event.data?.order_id === order_id ? ((refused = true), 500) : 204;
          };
        });
        const first = await deliveryOf(receiver, "session-created", session.id);
        await verified(first, secret, context.eventsSeen);
        // With the control API, the retry is brought forward instead of waited for.
        if (context.offers.has("control"))
          expectAnswer(await context.target.call("POST", PATHS.clockAdvance, { body: { seconds: 10 } }), 200);
        // After an advance the retry has been made; without one, it is waited for.
        const waitMs = context.offers.has("control") ? 2_000 : RETRY_WAIT_MS;
        const retry = await receiver
          .next((d) => d !== first && d.headers["webhook-id"] === first.headers["webhook-id"], waitMs)
          .catch(() => {
            const others = receiver.deliveries.filter((d) => d !== first && eventOf(d)?.data?.session_id === session.id);
            throw new CheckFailure(
              `the delivery answered 500 was not retried with webhook-id ${first.headers["webhook-id"]} within ${waitMs / 1000} s`,
              [...others.map((d) => `delivered instead: ${eventOf(d)?.type} with webhook-id ${d.headers["webhook-id"]}`)],
            );
          });
        await verified(retry, secret, context.eventsSeen);
        expectThat(
          Number(retry.headers["webhook-timestamp"]) >= Number(first.headers["webhook-timestamp"]),
          "the retry's timestamp is earlier than the first attempt's",
        );
      } finally {
        receiver.answer = () => 204;
      }
    },
  },
  {
    id: "events.flows",
    name:
      "a paid, a failed and an expired session send the events of their flows, verified, in an order the state machines allow, " +
      "none expiring before its hour, and each transaction reads as its last event says",
    needs: ["events", "control"],
    async run(context) {
      const { target } = context;
      const receiver = context.receiver!;
      const secret = await register(context, receiver);
      const [paid, failed, expired] = [await newSession(context), await newSession(context), await newSession(context)];
      const simulate = (sessionId: string, body: object) => target.call("POST", PATHS.simulate(sessionId), { body });
      expectAnswer(await simulate(paid.session.id, { outcome: "pay" }), 200);
      expectAnswer(await simulate(failed.session.id, { outcome: "fail", failure_reason: "card_declined" }), 200);
      // A minute short of the hour the link is valid: the unpaid sessions are still open. The
      // advance answers once what it made due is delivered.
      expectAnswer(await target.call("POST", PATHS.clockAdvance, { body: { seconds: 59 * 60 } }), 200);
      const early = receiver.deliveries.find(
        (d) => eventOf(d)?.type === "session-expired" && eventOf(d)?.data?.session_id === expired.session.id,
      );
      if (early)
        throw new CheckFailure(`session ${expired.session.id} expired before the hour its link is valid`, [
          `body: ${early.body.slice(0, 300)}`,
        ]);
      // A day on: the payment settles and the two unpaid sessions expire.
      expectAnswer(await target.call("POST", PATHS.clockAdvance, { body: { seconds: 86_400 } }), 200);
      const expected = [
        [paid.session.id, EVENT_FLOWS.success],
        [failed.session.id, EVENT_FLOWS.failure],
        [expired.session.id, EVENT_FLOWS.expiry],
      ] as const;
      for (const [sessionId, types] of expected) {
        const events = [];
        for (const type of types) events.push(await verified(await deliveryOf(receiver, type, sessionId), secret, context.eventsSeen));
        expectAllowedOrder(events, sessionId);
        const transactionEvents = events.filter((e) => "transaction_id" in e.data);
        const last = transactionEvents.at(-1);
        if (!last || !("transaction_id" in last.data)) continue;
        const fetched = await target.call("GET", PATHS.transaction(last.data.transaction_id));
        expectAnswer(fetched, 200);
        expectThat(
          fetched.json.status === last.data.status,
          `transaction ${last.data.transaction_id} reads ${fetched.json.status}, ` +
            `but its last event, ${last.type}, announced ${last.data.status}`,
          fetched,
        );
      }
    },
  },
];
