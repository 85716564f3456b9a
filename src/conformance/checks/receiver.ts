// The receiver checks: a merchant's webhook endpoint meets the deliveries the service sends
// (it must acknowledge each with 2xx within the contract's 15 s), and those an attacker or an
// unreliable network sends (it must refuse a forgery without asking for it again, and take a
// retry or a late event in its stride); last, what it does when its own processing fails
// (processing-failure.ts). Each failure says what the flaw lets happen.
import { EVENT_FLOWS } from "../../../generated/event-flows.ts";
import { EVENT_TYPES } from "../../../generated/event-types.ts";
import { newId, newSigningSecret } from "../../lib/ids.ts";
import { CheckFailure, type Check } from "../check.ts";
import { addedWhitespace, changedByte, reserialised, SKEW_MINUTES } from "../../testing/deliveries.ts";
import { newEvent, reformatted } from "../deliveries.ts";
import { shownDelivery, type Sent } from "../endpoint.ts";
import { acknowledged, expectAcknowledged, type ReceiverContext } from "./acknowledgement.ts";
import { processingFailureChecks } from "./processing-failure.ts";
import { TIMESTAMP_TOLERANCE_SECONDS } from "../../lib/contract-facts.ts";

const FORGED = "accepts forged events: anyone can mark an order paid";
const RETRIED_FORGERY =
  "answers a forgery with 5xx, which asks the service to send it again: every forgery is retried for days and handled again each time";

/** A delivery the service never sent: refused, and with 4xx, which the sender does not retry. */
function expectRefused(sent: Sent, what: string, risk = FORGED): void {
  if (acknowledged(sent)) throw new CheckFailure(`acknowledged ${what} with ${sent.status}`, shownDelivery(sent), risk);
  if (sent.status === undefined)
    throw new CheckFailure(`${sent.error} to ${what}, where the contract expects a 4xx refusal`, shownDelivery(sent), RETRIED_FORGERY);
  if (sent.status >= 500)
    throw new CheckFailure(
      `answered ${sent.status} to ${what}, where the contract expects a 4xx refusal`,
      shownDelivery(sent),
      RETRIED_FORGERY,
    );
}

/** An authentic delivery that can never be handled: 4xx, not 2xx (lost) nor 5xx (retried for nothing). */
function expectClientError(sent: Sent, what: string): void {
  if (acknowledged(sent))
    throw new CheckFailure(
      `acknowledged ${what} with ${sent.status}`,
      shownDelivery(sent),
      "acknowledges what it cannot have handled: an event it failed to read is lost without a trace",
    );
  if (sent.status === undefined || sent.status >= 500)
    throw new CheckFailure(
      `${sent.status === undefined ? sent.error : `answered ${sent.status}`} to ${what}, where the contract expects 4xx`,
      shownDelivery(sent),
      "fails on a body it cannot read: the service retries a delivery that can never succeed, for days",
    );
}

const eventChecks: Array<Check<ReceiverContext>> = EVENT_TYPES.map((type) => ({
  id: `receiver.event.${type}`,
  name: `a validly signed ${type} is acknowledged with 2xx in time`,
  async run(context) {
    const { endpoint, payments } = context;
    const event = newEvent(type, payments, endpoint.clock);
    expectAcknowledged(
      context,
      await endpoint.deliver(event.id, event.body),
      `a validly signed ${type}`,
      `misses real ${type} events: the service retries each for days and the order never learns what happened`,
    );
  },
}));

export const receiverChecks: ReadonlyArray<Check<ReceiverContext>> = [
  ...eventChecks,
  {
    id: "receiver.redelivery",
    name: "the same event delivered again (same webhook-id) is acknowledged",
    async run(context) {
      const { endpoint, payments } = context;
      const event = newEvent("transaction-completed", payments, endpoint.clock);
      expectAcknowledged(context, await endpoint.deliver(event.id, event.body), "the first delivery", "misses real events");
      expectAcknowledged(
        context,
        await endpoint.deliver(event.id, event.body),
        "the same event delivered again",
        "fails every retry: after one lost answer, the service retries the event for days and each attempt fails again",
      );
    },
  },
  {
    id: "receiver.reformatted-json",
    name: "a validly signed body, pretty-printed with its keys reordered, is acknowledged",
    async run(context) {
      const { endpoint, payments } = context;
      const event = newEvent("transaction-completed", payments, endpoint.clock);
      expectAcknowledged(
        context,
        await endpoint.deliver(event.id, reformatted(event.body)),
        "a validly signed event whose JSON is laid out differently",
        "checks the signature over re-serialised JSON, not the raw body: genuine events whose bytes it does not reproduce are refused",
      );
    },
  },
  {
    id: "receiver.signature-rotation",
    name: "several signatures, the second one valid (a secret in rotation), are acknowledged",
    async run(context) {
      const { endpoint, payments } = context;
      const event = newEvent("transaction-completed", payments, endpoint.clock);
      const old = await endpoint.signed(event.id, event.body, { secret: newSigningSecret() });
      const current = await endpoint.signed(event.id, event.body);
      const rotated = {
        ...current,
        headers: { ...current.headers, "webhook-signature": `${old.headers["webhook-signature"]} ${current.headers["webhook-signature"]}` },
      };
      expectAcknowledged(
        context,
        await endpoint.send(rotated),
        "a delivery with two signatures, the second valid",
        "tries only the first signature: while the secret rotates, every genuine event is refused",
      );
    },
  },
  {
    id: "receiver.out-of-order",
    name: "a session's events out of order are each acknowledged",
    async run(context) {
      const { endpoint, payments } = context;
      // A paid session's events, last first.
      for (const type of [...EVENT_FLOWS.success].reverse()) {
        const event = newEvent(type, payments, endpoint.clock, payments.reordered);
        expectAcknowledged(
          context,
          await endpoint.deliver(event.id, event.body),
          `${type} out of order`,
          "refuses events that come out of order, which the contract allows: " +
            "the retries keep coming and the order stays wrong until they stop",
        );
      }
    },
  },
  {
    id: "receiver.forged.other-secret",
    name: "a signature made with another secret is refused",
    async run({ endpoint, payments }) {
      const event = newEvent("transaction-completed", payments, endpoint.clock);
      expectRefused(
        await endpoint.send(await endpoint.signed(event.id, event.body, { secret: newSigningSecret() })),
        "a delivery signed with another secret",
      );
    },
  },
  {
    id: "receiver.forged.other-body",
    name: "the signature of another body is refused",
    async run({ endpoint, payments }) {
      const failed = newEvent("transaction-failed", payments, endpoint.clock);
      const forged = newEvent("transaction-completed", payments, endpoint.clock);
      const signed = await endpoint.signed(forged.id, failed.body);
      expectRefused(
        await endpoint.send({ ...signed, body: forged.body }),
        "a transaction-completed carrying the signature of a transaction-failed",
      );
    },
  },
  ...(
    [
      ["changed-byte", "one byte changed", changedByte],
      ["added-whitespace", "whitespace added", addedWhitespace],
      ["reserialised", "re-serialised as other JSON text", reserialised],
    ] as const
  ).map(
    ([id, how, change]): Check<ReceiverContext> => ({
      id: `receiver.forged.${id}`,
      name: `the body changed after signing (${how}) is refused`,
      async run({ endpoint, payments }) {
        const event = newEvent("transaction-completed", payments, endpoint.clock);
        const signed = await endpoint.signed(event.id, event.body);
        expectRefused(
          await endpoint.send({ ...signed, body: change(event.body) }),
          `a body changed after signing (${how})`,
          id === "reserialised" ? `${FORGED}: it checks the signature over re-serialised JSON, not the bytes received` : FORGED,
        );
      },
    }),
  ),
  ...(["webhook-id", "webhook-timestamp", "webhook-signature"] as const).map(
    (header): Check<ReceiverContext> => ({
      id: `receiver.missing-header.${header}`,
      name: `a delivery without the ${header} header is refused`,
      async run({ endpoint, payments }) {
        const event = newEvent("transaction-completed", payments, endpoint.clock);
        const { [header]: _, ...headers } = (await endpoint.signed(event.id, event.body)).headers;
        expectRefused(await endpoint.send({ body: event.body, headers }), `a delivery without ${header}`);
      },
    }),
  ),
  ...(
    [
      ["stale-timestamp", "old", -1],
      ["future-timestamp", "ahead", 1],
    ] as const
  ).map(
    ([id, how, sign]): Check<ReceiverContext> => ({
      id: `receiver.${id}`,
      name: `a validly signed delivery whose timestamp is ${SKEW_MINUTES} minutes ${how} is refused`,
      async run({ endpoint, payments }) {
        const event = newEvent("transaction-completed", payments, endpoint.clock);
        const sent = await endpoint.send(
          await endpoint.signed(event.id, event.body, { at: new Date(endpoint.clock.now() + sign * SKEW_MINUTES * 60_000) }),
        );
        if (acknowledged(sent))
          throw new CheckFailure(
            `acknowledged a delivery signed ${SKEW_MINUTES} minutes ${sign < 0 ? "ago" : "in the future"} with ${sent.status}, ` +
              `where the contract allows ${TIMESTAMP_TOLERANCE_SECONDS / 60} minutes`,
            shownDelivery(sent),
            "accepts replays: anyone who recorded one genuine delivery can send it again, whenever they like",
          );
      },
    }),
  ),
  {
    id: "receiver.not-json",
    name: "a validly signed body that is not JSON is answered 4xx",
    async run({ endpoint }) {
      expectClientError(await endpoint.deliver(newId("msg"), "transaction-completed, not JSON"), "a validly signed body that is not JSON");
    },
  },
  {
    id: "receiver.invalid-event",
    name: "a validly signed event that breaks its schema is answered 4xx",
    async run({ endpoint, payments }) {
      const event = newEvent("transaction-completed", payments, endpoint.clock);
      const { data, ...rest } = JSON.parse(event.body);
      const { transaction_id: _, ...withoutTransaction } = data;
      expectClientError(
        await endpoint.deliver(event.id, JSON.stringify({ ...rest, data: withoutTransaction })),
        "a validly signed transaction-completed without data.transaction_id",
      );
    },
  },
  {
    id: "receiver.unknown-event-type",
    name: "a validly signed event of a type it does not know is acknowledged (decision D22)",
    advisory: true,
    async run(context) {
      const { endpoint, payments } = context;
      const event = newEvent("transaction-completed", payments, endpoint.clock);
      const parsed = JSON.parse(event.body);
      const body = JSON.stringify({ ...parsed, type: "transaction-refunded", data: { ...parsed.data, status: "refunded" } });
      expectAcknowledged(
        context,
        await endpoint.deliver(event.id, body),
        "a validly signed event of a type added after this version",
        "refuses event types added later: each is retried for days and fills the logs, until the endpoint is upgraded",
      );
    },
  },
  {
    id: "receiver.answer-time",
    name: "a transaction event is acknowledged within 5 s",
    advisory: true,
    async run(context) {
      const { endpoint, payments, slowMs } = context;
      const event = newEvent("transaction-completed", payments, endpoint.clock);
      const sent = await endpoint.deliver(event.id, event.body);
      expectAcknowledged(context, sent, "a validly signed transaction-completed", "misses real events");
      if (sent.durationMs > slowMs)
        throw new CheckFailure(
          `took ${(sent.durationMs / 1000).toFixed(1)} s to acknowledge, more than ${slowMs / 1000} s`,
          shownDelivery(sent),
          "leaves little room before the service's 15 s: a slow moment turns into a timeout, and the event is delivered again",
        );
    },
  },
  ...processingFailureChecks,
];
