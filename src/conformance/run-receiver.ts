// Runs the receiver checks against a merchant's webhook endpoint, one at a time in a fixed order.
// A correct endpoint fetches the transaction of every transaction event, so the events name
// real objects when the kit is given the sandbox account the endpoint fetches from: the checks
// make a paid and a failed payment there first (the sandbox's control API pays them), one more
// paid for the events it delivers out of order, and a failed one for each check of the endpoint's
// own failures, which need the sandbox's faults and journal in that account; and they delete them
// when they end, however they end (own-payments.ts). An answer's body is shown only from an
// endpoint that refused a delivery no one signed: a URL that is not a webhook endpoint (a service
// of the developer's, on loopback) is judged by its statuses, and what it says is never shown.
// Its time is the clock it is given (the system's by default): a test moves one past a timeout.
import { systemClock, type Clock } from "../lib/clock.ts";
import { runCheck, type CheckResult } from "./check.ts";
import { receiverChecks } from "./checks/receiver.ts";
import { newEvent, madeUpPayments, type Payments } from "./deliveries.ts";
import { Endpoint } from "./endpoint.ts";
import { ownPayments } from "./own-payments.ts";
import { SandboxAccount } from "./sandbox-account.ts";
import { DELIVERY_TIMEOUT_MS } from "../lib/contract-facts.ts";
import { UnreachableTarget } from "./run-service.ts";
import { Target } from "./target.ts";

export { SetupFailed } from "./own-payments.ts";

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
  /** Hears, before the checks make anything in the account, what they will make there and take back, in one sentence. */
  onStart?: (line: string) => void;
  /** Once aborted, no further check starts: what the checks made in the account is deleted, and the report has the checks run. */
  signal?: AbortSignal;
  /**
   * Called with each check's result as it ends, and whether so far every validly signed
   * delivery to be acknowledged was refused with 4xx (as `secretSuspected` will say at the end,
   * but true before the first such delivery too): a report can hold its lines while it is.
   */
  onResult?: (result: CheckResult, progress: { secretSuspected: boolean }) => void;
  /**
   * What the checks' timeouts, waits and durations are measured on, and when their deliveries are signed: the
   * system's clock by default.
   */
  clock?: Clock;
}

export interface ReceiverReport {
  url: string;
  /** Where the objects the events name come from. */
  payments: Payments["origin"];
  /** What the checks made in the account and could not delete, and how to: undefined when they left nothing. */
  leftover: string | undefined;
  results: CheckResult[];
  counts: { passed: number; failed: number; warned: number; skipped: number };
  /**
   * The endpoint refused with 4xx every validly signed delivery it should have acknowledged
   * (at least one was sent): the secret given is most likely not the one it verifies with, and
   * the failures of those checks follow from that.
   */
  secretSuspected: boolean;
}

export async function runReceiverConformance(options: ReceiverOptions): Promise<ReceiverReport> {
  const clock = options.clock ?? systemClock;
  const endpoint = new Endpoint(options.url, options.secret, options.timeoutMs ?? DELIVERY_TIMEOUT_MS, clock);
  const probing = new AbortController();
  const cancelProbe = clock.setTimer(endpoint.timeoutMs, () => probing.abort(new DOMException("no answer", "TimeoutError")));
  try {
    const probe = await fetch(options.url, { method: "HEAD", redirect: "manual", signal: probing.signal });
    await probe.body?.cancel();
  } catch (error) {
    // An endpoint that is there but slow is for the checks to judge.
    if ((error as Error).name !== "TimeoutError")
      throw new UnreachableTarget(`${options.url} cannot be reached: ${(error as Error).cause ?? (error as Error).message}`);
  } finally {
    cancelProbe();
  }
  const unsigned = newEvent("transaction-completed", madeUpPayments(), clock);
  endpoint.showsAnswers = await endpoint.refuses({ body: unsigned.body, headers: {} });
  const target = options.baseUrl === undefined ? undefined : new Target(options.baseUrl, options.token ?? "", { clock });
  const own = await ownPayments(target, options.onStart ?? (() => {}));
  const results: CheckResult[] = [];
  let leftover: string | undefined;
  try {
    const { payments } = own;
    const account = await sandboxAccount(target, payments, clock);
    const context = {
      endpoint,
      payments,
      account: account instanceof SandboxAccount ? account : undefined,
      slowMs: options.slowMs ?? 5000,
    };
    for (const check of receiverChecks.filter((c) => !options.only || options.only.includes(c.id))) {
      if (options.signal?.aborted) break;
      const result = await runCheck(check, context, check.needs && typeof account === "string" ? account : undefined, clock);
      results.push(result);
      options.onResult?.(result, { secretSuspected: endpoint.refusedEverySigned() });
    }
  } finally {
    leftover = await own.remove();
  }
  const count = (outcome: CheckResult["outcome"]) => results.filter((r) => r.outcome === outcome).length;
  return {
    url: options.url,
    payments: own.payments.origin,
    leftover,
    results,
    counts: { passed: count("passed"), failed: count("failed"), warned: count("warned"), skipped: count("skipped") },
    secretSuspected: endpoint.toAcknowledge.length > 0 && endpoint.refusedEverySigned(),
  };
}

/** The account where the endpoint's fetches can be made to fail, or why there is none. */
async function sandboxAccount(target: Target | undefined, payments: Payments, clock: Clock): Promise<SandboxAccount | string> {
  if (target === undefined)
    return (
      "needs --base-url and --token of the sandbox account the endpoint fetches from: " +
      "the kit makes the endpoint's fetch of the transaction fail there"
    );
  if (payments.origin !== "created")
    return `needs the sandbox's control API at --base-url to fail a payment there: ${target.baseUrl} has none`;
  return SandboxAccount.open(target, { clock });
}
