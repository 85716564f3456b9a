// What every receiver check shares: the context it runs in, and the judgement of a delivery the
// service would send (a 2xx in time), with the likelier cause said first when the endpoint failed
// on a transaction the kit made up rather than on the delivery itself.
import { CheckFailure } from "../check.ts";
import type { Payments } from "../deliveries.ts";
import { shownDelivery, type Endpoint, type Sent } from "../endpoint.ts";
import type { SandboxAccount } from "../sandbox-account.ts";

export interface ReceiverContext {
  endpoint: Endpoint;
  payments: Payments;
  /** The sandbox account the endpoint fetches from, where the checks of its own failures make its fetches fail. */
  account: SandboxAccount | undefined;
  /** Slower than this, an acknowledgement is reported (advisory). */
  slowMs: number;
}

export const acknowledged = (sent: Sent) => sent.status !== undefined && sent.status >= 200 && sent.status < 300;

const LATE = "answers after the service stops waiting: every event is delivered again, and handled more than once";

/**
 * A validly signed delivery the service would send: a 2xx in time. The endpoint keeps its status, for the report to tell
 * a wrong secret.
 */
export function expectAcknowledged({ endpoint, payments }: ReceiverContext, sent: Sent, what: string, risk: string): void {
  endpoint.toAcknowledge.push(sent.status);
  const transaction = transactionOf(sent);
  if (acknowledged(sent)) {
    if (transaction) endpoint.acknowledgedTransactions.add(transaction);
    return;
  }
  if (sent.status === undefined)
    throw new CheckFailure(`${sent.error} to ${what}, where the contract expects 2xx`, shownDelivery(sent), sent.timedOut ? LATE : risk);
  // An endpoint that acknowledged an event about the transaction could fetch it: then that is not the cause.
  const madeUp =
    payments.origin !== "created" && sent.status >= 500 && transaction && !endpoint.acknowledgedTransactions.has(transaction)
      ? transaction
      : undefined;
  if (madeUp)
    throw new CheckFailure(
      `answered ${sent.status} to ${what}, most likely because it could not fetch ${madeUp}, which the kit made up: ` +
        "give --base-url and --token of the account the endpoint fetches from",
      shownDelivery(sent),
      `if that is not the cause, the endpoint ${risk}`,
    );
  throw new CheckFailure(`answered ${sent.status} to ${what}, where the contract expects 2xx`, shownDelivery(sent), risk);
}

/** The transaction a delivery's event names, if it names one. */
function transactionOf(sent: Sent): string | undefined {
  try {
    const id: unknown = JSON.parse(sent.body)?.data?.transaction_id;
    return typeof id === "string" ? id : undefined;
  } catch {
    return undefined;
  }
}
