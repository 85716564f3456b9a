// Runs the receiver checks against a merchant's webhook endpoint, one at a time in a fixed order.
// A correct endpoint fetches the transaction of every transaction event, so the events name
// real objects when the kit is given the account the endpoint fetches from: it creates a
// paid and a failed payment there first (the sandbox's control API pays them), and one more
// paid for the events it delivers out of order.
import { runCheck, type CheckResult } from "./check.ts";
import { receiverChecks } from "./checks/receiver.ts";
import { madeUpPayments, type Payment, type Payments } from "./deliveries.ts";
import { Endpoint } from "./endpoint.ts";
import { newId } from "../lib/ids.ts";
import { DELIVERY_TIMEOUT_MS } from "../lib/contract-facts.ts";
import { newCounterparty, PATHS, sessionBody } from "./fixtures.ts";
import { UnreachableTarget } from "./run-service.ts";
import { Target, type Exchange } from "./target.ts";

export interface ReceiverOptions {
  /** The merchant's webhook endpoint. */
  url: string;
  /** Its `whsec_` signing secret. */
  secret: string;
  /** How long a delivery waits for its answer, as the service does. Default 15000. */
  timeoutMs?: number;
  /** Slower than this, an acknowledgement is reported by the advisory `receiver.answer-time`. Default 5000. */
  slowMs?: number;
  /** The account the endpoint fetches from (the sandbox, or the service): the events then name objects created there. */
  baseUrl?: string;
  token?: string;
  /** Only the checks with these ids. */
  only?: readonly string[];
  /**
   * Called with each check's result as it ends, and whether so far every validly signed
   * delivery to be acknowledged was refused with 4xx (as `secretSuspected` will say at the end,
   * but true before the first such delivery too): a report can hold its lines while it is.
   */
  onResult?: (result: CheckResult, progress: { secretSuspected: boolean }) => void;
}

export interface ReceiverReport {
  url: string;
  /** Where the objects the events name come from. */
  payments: Payments["origin"];
  results: CheckResult[];
  counts: { passed: number; failed: number; warned: number; skipped: number };
  /**
   * The endpoint refused with 4xx every validly signed delivery it should have acknowledged
   * (at least one was sent): the secret given is most likely not the one it verifies with, and
   * the failures of those checks follow from that.
   */
  secretSuspected: boolean;
}

/** The account given could not be used to create what the events name. */
export class SetupFailed extends Error {
  override readonly name = "SetupFailed";
}

export async function runReceiverConformance(options: ReceiverOptions): Promise<ReceiverReport> {
  const endpoint = new Endpoint(options.url, options.secret, options.timeoutMs ?? DELIVERY_TIMEOUT_MS);
  try {
    const probe = await fetch(options.url, { method: "HEAD", redirect: "manual", signal: AbortSignal.timeout(endpoint.timeoutMs) });
    await probe.body?.cancel();
  } catch (error) {
    // An endpoint that is there but slow is for the checks to judge.
    if ((error as Error).name !== "TimeoutError")
      throw new UnreachableTarget(`${options.url} cannot be reached: ${(error as Error).cause ?? (error as Error).message}`);
  }
  const payments =
    options.baseUrl === undefined ? madeUpPayments() : await createPayments(new Target(options.baseUrl, options.token ?? ""));
  const context = { endpoint, payments, slowMs: options.slowMs ?? 5000 };
  const results: CheckResult[] = [];
  for (const check of receiverChecks.filter((c) => !options.only || options.only.includes(c.id))) {
    const result = await runCheck(check, context);
    results.push(result);
    options.onResult?.(result, { secretSuspected: endpoint.refusedEverySigned() });
  }
  const count = (outcome: CheckResult["outcome"]) => results.filter((r) => r.outcome === outcome).length;
  return {
    url: options.url,
    payments: payments.origin,
    results,
    counts: { passed: count("passed"), failed: count("failed"), warned: count("warned"), skipped: count("skipped") },
    secretSuspected: endpoint.toAcknowledge.length > 0 && endpoint.refusedEverySigned(),
  };
}

/** Two paid payments and a failed one in the account; the transactions are made up where it has no control API to pay. */
async function createPayments(target: Target): Promise<Payments> {
  const call = async (what: string, path: string, body: object, status: number) => {
    let exchange: Exchange;
    try {
      exchange = await target.call("POST", path, { body });
    } catch (error) {
      throw new UnreachableTarget(`${target.baseUrl} cannot be reached: ${(error as Error).cause ?? (error as Error).message}`);
    }
    if (exchange.answer.status !== status)
      throw new SetupFailed(
        `${target.baseUrl} answered ${exchange.answer.status} to ${what}, not ${status}: ${exchange.answer.text.slice(0, 300)}`,
      );
    return exchange.json;
  };
  const counterparty = await call("create counterparty", PATHS.counterparties, newCounterparty(), 201);
  /** A payment in the account, and whether its transaction is real (the control API made it). */
  const payment = async (outcome: "pay" | "fail"): Promise<[Payment, boolean]> => {
    const request = sessionBody(counterparty.id);
    const session = await call("create payment session", PATHS.sessions, request, 201);
    const simulated = await target.call("POST", PATHS.simulate(session.id), { body: { outcome } });
    const real = simulated.answer.status === 200;
    const transactionId: string = real ? simulated.json.transaction.id : newId("txn");
    return [{ counterpartyId: counterparty.id, sessionId: session.id, request, transactionId }, real];
  };
  const [[paid, paidReal], [failed, failedReal], [reordered, reorderedReal]] = [
    await payment("pay"),
    await payment("fail"),
    await payment("pay"),
  ];
  return { paid, failed, reordered, origin: paidReal && failedReal && reorderedReal ? "created" : "sessions" };
}
