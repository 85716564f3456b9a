// What the receiver checks deliver: events about three payments (one paid, one whose attempt
// failed, and one paid whose events come out of order) and the failed ones of the checks of the
// endpoint's own failures, built as the service builds them, with fresh event ids; and a way to
// write the same event as other bytes. The ways a delivery is bent after it was signed are the
// testing entry's (../testing/deliveries.ts).
import { EVENT_FLOWS } from "../../generated/event-flows.ts";
import type { PayinEventType } from "../../generated/event-types.ts";
import type { Clock } from "../lib/clock.ts";
import { eventPayload } from "../lib/event-payload.ts";
import { newId } from "../lib/ids.ts";

/** A session and its transaction, as events name them. */
export interface Payment {
  counterpartyId: string;
  sessionId: string;
  request: { order_id: string; amount: number; currency: string };
  transactionId: string;
}

/** The payments the events are about, and where they come from (the run's report says it). */
export interface Payments {
  paid: Payment;
  failed: Payment;
  /**
   * Paid too, for the events delivered out of order: no other check names it. (Where the
   * account delivers its own events to the endpoint, as the sandbox does, the endpoint may have
   * had them in order first.)
   */
  reordered: Payment;
  /**
   * Failed, one for each check of the endpoint's own failures: no other check names their
   * transactions, so every fetch of one in the account's journal is the endpoint at work on
   * that check's event. None where the account cannot pay or fail a session.
   */
  ownFailures: Payment[];
  /**
   * `created`: in the merchant's account, by the checks, which delete them when they end; `made-up`: none of them exists;
   * `not-made`: made up too, the account given having no control API to delete what the checks would make there.
   */
  origin: "created" | "made-up" | "not-made";
}

/** Which payment an event is about: the paid one for a paid session's events, else the failed one (its session open, to expire). */
const paymentOf = (type: PayinEventType) => ((EVENT_FLOWS.success as readonly PayinEventType[]).includes(type) ? "paid" : "failed");

export interface OutgoingEvent {
  id: string;
  body: string;
}

/** A new event of `type` about its payment (or the one given), with a fresh id, happening now on `clock`, the kit's. */
export function newEvent(type: PayinEventType, payments: Payments, clock: Clock, payment = payments[paymentOf(type)]): OutgoingEvent {
  const id = newId("msg");
  const body = eventPayload({
    id,
    type,
    timestamp: new Date(clock.now()).toISOString(),
    sessionId: payment.sessionId,
    counterpartyId: payment.counterpartyId,
    request: payment.request,
    // Each kept only where the type's data has it.
    transactionId: payment.transactionId,
    failureReason: "card_declined",
  });
  return { id, body };
}

/** Payments nobody created, for an endpoint checked without an account to create them in. */
export function madeUpPayments(): Payments {
  const payment = (): Payment => ({
    counterpartyId: newId("cp"),
    sessionId: newId("ps"),
    request: { order_id: `ORD-${newId("ps").slice(3, 15)}`, amount: 10, currency: "EUR" },
    transactionId: newId("txn"),
  });
  return { paid: payment(), failed: payment(), reordered: payment(), ownFailures: [], origin: "made-up" };
}

/** The same JSON pretty-printed with every object's keys in reverse order: other bytes, the same event. */
export function reformatted(body: string): string {
  const reversed = (value: unknown): unknown =>
    Array.isArray(value)
      ? value.map(reversed)
      : value !== null && typeof value === "object"
        ? Object.fromEntries(
            Object.entries(value)
              .reverse()
              .map(([key, item]) => [key, reversed(item)]),
          )
        : value;
  return JSON.stringify(reversed(JSON.parse(body)), null, 2);
}
