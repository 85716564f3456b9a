// Runs the checks against a target, one at a time in a fixed order, and reports each as it ends.
// Its time is the clock it is given (the system's by default): a test moves one past a timeout.
import { systemClock, timeoutSignal, type Clock } from "../lib/clock.ts";
import { runCheck, type Capability, type Check, type CheckContext, type CheckResult } from "./check.ts";
import { EVENT_TYPES } from "../../generated/event-types.ts";
import { answerChecks } from "./checks/answers.ts";
import { eventChecks } from "./checks/events.ts";
import { negativeChecks } from "./checks/negative.ts";
import { requestChecks } from "./checks/requests.ts";
import { ruleChecks } from "./checks/rules.ts";
import { transactionChecks } from "./checks/transactions.ts";
import { newCounterparty, PATHS } from "./fixtures.ts";
import { responsesOf, allOperations } from "./oracle.ts";
import { startReceiver, type Receiver } from "./receiver.ts";
import { Target } from "./target.ts";
import type { RateLimited } from "./rate-limit.ts";
import { SERVER_CONDITIONS } from "../lib/problem.ts";

/** Every check of the service, in the order they run. */
export const serviceChecks: readonly Check[] = [
  ...answerChecks,
  ...requestChecks,
  ...negativeChecks,
  ...ruleChecks,
  ...transactionChecks,
  ...eventChecks,
];

export interface ConformanceOptions {
  baseUrl: string;
  token: string;
  /** The target also serves the sandbox's control API (`simulate`, `clock/advance`). */
  control?: boolean;
  receiverHost?: string;
  receiverPort?: number;
  /** Where the target reaches the kit's receiver, when not at the receiver's own address. */
  publicUrl?: string;
  /** The seed of generated inputs; a random one when not given (the report says which). */
  seed?: number;
  /** Only the checks with these ids. */
  only?: readonly string[];
  /** Called with each check's result as it ends. */
  onResult?: (result: CheckResult) => void;
  /** What the checks' timeouts, waits and durations are measured on: the system's clock by default. */
  clock?: Clock;
}

export interface CoverageRow {
  operationId: string;
  status: string;
  exercised: boolean;
}

export interface ConformanceReport {
  seed: number;
  results: CheckResult[];
  /** Each documented status of each of the contract's operations, exercised by a check or not. */
  coverage: CoverageRow[];
  /** Each event type, received and verified or not. */
  events: Array<{ type: string; exercised: boolean }>;
  /** The share of the statuses and event types exercised, in percent. */
  coveragePercent: number;
  counts: { passed: number; failed: number; skipped: number };
  /** The requests the target's rate limit answered 429, and how long the kit waited them out. */
  rateLimited: RateLimited;
}

/** The target could not be reached at all: a run has nothing to check. */
export class UnreachableTarget extends Error {
  override readonly name = "UnreachableTarget";
}

export async function runConformance(options: ConformanceOptions): Promise<ConformanceReport> {
  const seed = options.seed ?? crypto.getRandomValues(new Uint32Array(1))[0]!;
  const random = mulberry32(seed);
  const clock = options.clock ?? systemClock;
  const target = new Target(options.baseUrl, options.token, { clock });
  try {
    await fetch(target.baseUrl + PATHS.webhooks, { method: "GET", signal: timeoutSignal(clock, 15_000) });
  } catch (error) {
    throw new UnreachableTarget(`${options.baseUrl} cannot be reached: ${(error as Error).cause ?? (error as Error).message}`);
  }
  const eventsSeen = new Set<string>();
  const receiver = await startReceiver({ host: options.receiverHost, port: options.receiverPort, publicUrl: options.publicUrl, clock });
  if (receiver.url.startsWith("http://")) target.ownHttpUrls.add(receiver.url);
  try {
    const offered = await capabilities(target, options.control ?? false, receiver.url);
    // What the probe saw is not what a check exercised.
    target.seen.clear();
    const results: CheckResult[] = [];
    for (const check of serviceChecks.filter((c) => !options.only || options.only.includes(c.id))) {
      const result = await runServiceCheck(check, offered, { target, receiver, random, offers: offered, eventsSeen }, clock);
      results.push(result);
      options.onResult?.(result);
    }
    const coverage = allOperations
      .filter((op) => op.document === "contract")
      .flatMap((op) =>
        responsesOf(op.operationId)
          // The server's own conditions (rate limit, failure, outage): no request can provoke them.
          .filter((r) => !Object.hasOwn(SERVER_CONDITIONS, r.status))
          .map((r) => ({ operationId: op.operationId, status: r.status, exercised: target.seen.has(`${op.operationId} ${r.status}`) })),
      );
    const events = EVENT_TYPES.map((type) => ({ type, exercised: eventsSeen.has(type) }));
    const count = (outcome: CheckResult["outcome"]) => results.filter((r) => r.outcome === outcome).length;
    const exercised = coverage.filter((c) => c.exercised).length + events.filter((e) => e.exercised).length;
    return {
      seed,
      results,
      coverage,
      events,
      coveragePercent: (100 * exercised) / (coverage.length + events.length),
      counts: { passed: count("passed"), failed: count("failed"), skipped: count("skipped") },
      rateLimited: target.rateLimits.counted,
    };
  } finally {
    await receiver.close();
  }
}

function runServiceCheck(
  check: Check,
  offered: Set<Capability>,
  context: Omit<CheckContext, "receiver"> & { receiver: Receiver },
  clock: Clock,
): Promise<CheckResult> {
  const missing = (check.needs ?? []).filter((need) => !offered.has(need));
  const skipped = missing.length > 0 ? `the target does not offer ${missing.map(describeCapability).join(" or ")}` : undefined;
  return runCheck(check, { ...context, receiver: offered.has("events") ? context.receiver : undefined }, skipped, clock);
}

const describeCapability = (capability: Capability) =>
  ({
    state: "state (it answers as a stateless mock)",
    control: "the control API (run with --control)",
    events:
      "webhook deliveries to the kit's receiver (it keeps no state, or refused the receiver's URL: give one it takes with --public-url)",
  })[capability];

/**
 * What the target offers: state, when two different counterparties get two ids; events, when it
 * keeps state and takes the kit's receiver as its webhook URL; the control API when asked for.
 */
async function capabilities(target: Target, control: boolean, receiverUrl: string): Promise<Set<Capability>> {
  const offered = new Set<Capability>(control ? ["control"] : []);
  const [a, b] = [
    await target.call("POST", PATHS.counterparties, { body: newCounterparty() }),
    await target.call("POST", PATHS.counterparties, { body: newCounterparty() }),
  ];
  if (a.answer.status === 201 && b.answer.status === 201 && a.json?.id !== b.json?.id) offered.add("state");
  const registered = offered.has("state") && (await target.call("POST", PATHS.webhooks, { body: { url: receiverUrl } })).answer.status;
  if (registered && registered >= 200 && registered < 300) offered.add("events");
  return offered;
}

/** A small seeded generator of numbers in [0, 1): the same seed gives the same inputs. */
function mulberry32(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}
