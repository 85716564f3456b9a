// The endpoint's own processing fails. In the sandbox account the endpoint fetches from, the kit
// makes every fetch of a transaction fail (503, an answer slower than any client waits, a lost
// connection), delivers a transaction event, and checks what a correct endpoint does: it does not
// acknowledge the event (acknowledged, it is never sent again), it keeps serving (no crash, no
// hang), and once fetches work again it processes the redelivery (its fetch shows in the
// account's journal) and acknowledges it, and a delivery after that too. The commonest webhook
// bugs in the field: a handler that rethrows and takes the process down, one that records an
// event as seen before processing it, one that swallows the error and answers 204.
import { CheckFailure, type Check } from "../check.ts";
import { newEvent } from "../deliveries.ts";
import { shownDelivery, type Sent } from "../endpoint.ts";
import { acknowledged, expectAcknowledged, type ReceiverContext } from "./acknowledgement.ts";

/** Longer than any client should wait for an answer: the endpoint's fetch times out, or is still waiting when the delivery ends. */
const HELD_MS = 60_000;

/** How the fetch fails: the fault armed on it, and what that did to it, in words. */
const FAILURES = [
  { id: "fetch-503", fault: { effect: "status", status: 503, retry_after_seconds: 0 }, gets: "gets 503", got: "got 503" },
  {
    id: "fetch-timeout",
    fault: { effect: "delay", delay_ms: HELD_MS },
    gets: `gets no answer for ${HELD_MS / 1000} s`,
    got: `got no answer for ${HELD_MS / 1000} s`,
  },
  { id: "fetch-dropped", fault: { effect: "drop" }, gets: "loses its connection", got: "lost its connection before the answer" },
] as const;

const LOST = "acknowledges an event it failed to process: the service never sends it again, and what the event announced is lost for good";
const DOWN = "goes down with its own failure: every delivery after it fails until the endpoint is restarted, and what they announce waits";
const HELD_UP = "lets one slow fetch hold up every delivery: the service's deliveries time out behind it and are all sent again";
const SEEN_TOO_EARLY =
  "records an event as handled before handling it: after one failure, each redelivery is taken for a duplicate, and the event is lost";
const STUCK = "does not recover from one failure: each redelivery of the event fails too, until the service gives up on it";
const REDELIVERY = "fails every retry: after one lost answer, the service retries the event for days and each attempt fails again";

/** What an answer was: its status, or why there was none. */
const outcome = (sent: Sent) => (sent.status === undefined ? sent.error! : `answered ${sent.status}`);

export const processingFailureChecks: Array<Check<ReceiverContext>> = FAILURES.map((failure, index) => ({
  id: `receiver.processing-fails.${failure.id}`,
  name:
    `a transaction event whose fetch of the transaction ${failure.gets} is not acknowledged; ` +
    "the endpoint keeps serving, and processes and acknowledges the redelivery",
  needs: ["control"],
  async run(context) {
    const { endpoint, payments } = context;
    const account = context.account!;
    const payment = payments.ownFailures[index]!;
    const transaction = payment.transactionId;
    const failed = `its fetch of ${transaction} ${failure.got}`;
    // Only the kit's deliveries make the endpoint fetch this transaction from here on.
    await account.quiet(payment.sessionId, endpoint.url, endpoint.timeoutMs);
    const event = newEvent("transaction-failed", payments, endpoint.clock, payment);

    const fault = await account.armOnFetch(failure.fault);
    let first: Sent;
    try {
      first = await endpoint.deliver(event.id, event.body);
    } finally {
      await account.disarm(fault.id);
    }
    if (acknowledged(first)) {
      const fetched = (await account.fetchesOf(transaction)).some((f) => f.fault?.id === fault.id);
      throw new CheckFailure(
        `answered ${first.status} although ${fetched ? failed : `every fetch of ${transaction} ${failure.got}`}: ` +
          "acknowledge an event only once its processing succeeded",
        shownDelivery(first),
        LOST,
      );
    }

    const next = newEvent("transaction-completed", payments, endpoint.clock);
    const served = await endpoint.deliver(next.id, next.body);
    endpoint.toAcknowledge.push(served.status);
    if (!acknowledged(served))
      throw new CheckFailure(
        served.status === undefined
          ? `${served.error} to the next delivery, after ${failed}: ` +
              (served.timedOut
                ? "it hangs behind the failed one; let no delivery's work hold up the others"
                : "it went down; let no error escape the request handler, answer 5xx instead")
          : `answered ${served.status} to the next delivery (a transaction-completed whose fetch works), after ${failed}`,
        shownDelivery(served),
        served.timedOut ? HELD_UP : DOWN,
      );

    const again = await endpoint.deliver(event.id, event.body);
    endpoint.toAcknowledge.push(again.status);
    if (!acknowledged(again))
      throw new CheckFailure(
        `${outcome(again)} to the redelivery of ${event.id}, once fetches worked again: ` +
          "an event whose processing failed is processed when it comes again",
        shownDelivery(again),
        STUCK,
      );
    const processed = (await account.fetchesOf(transaction)).some(
      (f) => f.status === 200 && f.answered && f.fault === undefined && Date.parse(f.received_at) > fault.armedAtMs,
    );
    if (!processed)
      throw new CheckFailure(
        `answered ${again.status} to the redelivery of ${event.id} without fetching ${transaction}, whose first fetch ${failure.got}: ` +
          "record an event as processed only once its processing succeeded",
        shownDelivery(again),
        SEEN_TOO_EARLY,
      );

    expectAcknowledged(
      context,
      await endpoint.deliver(event.id, event.body),
      `${event.id} delivered once more, after it was processed`,
      REDELIVERY,
    );
  },
}));
