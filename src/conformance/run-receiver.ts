// Runs the receiver checks against a merchant's webhook endpoint, one at a time in a fixed order.
// A correct endpoint fetches the transaction of every transaction event, so the events name
// real objects when the kit is given the account the endpoint fetches from: it creates a
// paid and a failed payment there first (the sandbox's control API pays them), one more paid
// for the events it delivers out of order, and a failed one for each check of the endpoint's
// own failures, which need the sandbox's faults and journal in that account.
import { runCheck, type CheckResult } from "./check.ts";
import { receiverChecks } from "./checks/receiver.ts";
import { processingFailureChecks } from "./checks/processing-failure.ts";
import { madeUpPayments, type Payment, type Payments } from "./deliveries.ts";
import { Endpoint } from "./endpoint.ts";
import { SandboxAccount } from "./sandbox-account.ts";
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
  const target = options.baseUrl === undefined ? undefined : new Target(options.baseUrl, options.token ?? "");
  const payments = target === undefined ? madeUpPayments() : await createPayments(target);
  const account = await sandboxAccount(target, payments);
  const context = { endpoint, payments, account: account instanceof SandboxAccount ? account : undefined, slowMs: options.slowMs ?? 5000 };
  const results: CheckResult[] = [];
  for (const check of receiverChecks.filter((c) => !options.only || options.only.includes(c.id))) {
    const result = await runCheck(check, context, check.needs && typeof account === "string" ? account : undefined);
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

/** The account where the endpoint's fetches can be made to fail, or why there is none. */
async function sandboxAccount(target: Target | undefined, payments: Payments): Promise<SandboxAccount | string> {
  if (target === undefined)
    return (
      "needs --base-url and --token of the sandbox account the endpoint fetches from: " +
      "the kit makes the endpoint's fetch of the transaction fail there"
    );
  if (payments.origin !== "created")
    return `needs the sandbox's control API at --base-url to fail a payment there: ${target.baseUrl} has none`;
  return SandboxAccount.open(target);
}

/**
 * Two paid payments and a failed one in the account, and a failed one per check of the endpoint's own failures; the
 * transactions are made up where it has no control API to pay.
 */
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
  const real = paidReal && failedReal && reorderedReal;
  const ownFailures: Payment[] = [];
  for (const _ of real ? processingFailureChecks : []) ownFailures.push((await payment("fail"))[0]);
  return { paid, failed, reordered, ownFailures, origin: real ? "created" : "sessions" };
}
