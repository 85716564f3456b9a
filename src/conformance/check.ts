// A check: a stable id, a name a reader understands, one reason to fail. It throws a
// CheckFailure that says what was sent, what the contract expected and what came.
import { systemClock, type Clock } from "../lib/clock.ts";
import type { Receiver } from "./receiver.ts";
import type { Exchange, Target } from "./target.ts";

/** What a check may need that not every target offers. */
export type Capability = "state" | "control" | "events";

export interface CheckContext {
  target: Target;
  /** The kit's webhook receiver, registered with the target (checks that need `events`). */
  receiver: Receiver | undefined;
  /** A number in [0, 1) from the run's seed: generated inputs are reproducible. */
  random(): number;
  /** What the target offers: state, the control API (which can bring what is due forward), events. */
  offers: ReadonlySet<Capability>;
  /** The event types the kit received and verified. */
  eventsSeen: Set<string>;
}

/** A check of the service (`CheckContext`) or of a merchant's webhook endpoint (`ReceiverContext`). */
export interface Check<Context = CheckContext> {
  /** Stable, for `--only` and JUnit: `answers.create-counterparty`. */
  id: string;
  name: string;
  needs?: Capability[];
  /** What the contract recommends rather than requires: reported as a warning, never a failure. */
  advisory?: boolean;
  run(context: Context): Promise<void>;
}

export class CheckFailure extends Error {
  override readonly name = "CheckFailure";
  /** The lines that show it: the request sent, what was expected, what came. */
  readonly details: string[];
  /** What the flaw lets happen, in one plain sentence (the receiver checks say it). */
  readonly risk: string | undefined;

  constructor(message: string, details: string[] = [], risk?: string) {
    super(message);
    this.details = details;
    this.risk = risk;
  }
}

export interface CheckResult {
  id: string;
  name: string;
  /** `warned`: an advisory check that did not hold. */
  outcome: "passed" | "failed" | "warned" | "skipped";
  durationMs: number;
  /** Why it failed, or why it was skipped. */
  reason?: string;
  risk?: string;
  details?: string[];
}

/** Runs one check, or skips it for `skipped` (why the target cannot take it); its duration is measured on `clock`, the kit's. */
export async function runCheck<Context>(
  check: Check<Context>,
  context: Context,
  skipped?: string,
  clock: Clock = systemClock,
): Promise<CheckResult> {
  const base = { id: check.id, name: check.name };
  if (skipped) return { ...base, outcome: "skipped", durationMs: 0, reason: skipped };
  const started = clock.now();
  try {
    await check.run(context);
    return { ...base, outcome: "passed", durationMs: clock.now() - started };
  } catch (error) {
    const durationMs = clock.now() - started;
    const outcome = check.advisory ? "warned" : "failed";
    if (!(error instanceof CheckFailure))
      return { ...base, outcome, durationMs, reason: `the check could not finish: ${(error as Error).message}` };
    return { ...base, outcome, durationMs, reason: error.message, details: error.details, ...(error.risk ? { risk: error.risk } : {}) };
  }
}

/** The lines that show an exchange: the request, and the answer's status and body, cut short. */
export function shown(exchange: Exchange): string[] {
  const { request, answer } = exchange;
  const body = (text: string) => (text.length > 300 ? `${text.slice(0, 300)}…` : text);
  return [
    `sent: ${request.method} ${request.url}${request.body === undefined ? "" : ` ${body(request.body)}`}`,
    `came: ${answer.status} ${answer.headers.get("content-type") ?? ""} ${body(answer.text)}`.trimEnd(),
  ];
}

/** Fails unless the answer has one of the statuses and keeps the contract. */
export function expectAnswer(exchange: Exchange, ...statuses: number[]): void {
  if (!statuses.includes(exchange.answer.status))
    throw new CheckFailure(`answered ${exchange.answer.status} where the contract expects ${statuses.join(" or ")}`, shown(exchange));
  if (exchange.breaches.length > 0)
    throw new CheckFailure(`the ${exchange.answer.status} breaks the contract: ${exchange.breaches[0]}`, [
      ...shown(exchange),
      ...exchange.breaches.map((b) => `breach: ${b}`),
    ]);
}

/** Fails with the exchange shown unless `condition` holds. */
export function expectThat(condition: boolean, message: string, exchange?: Exchange): asserts condition {
  if (!condition) throw new CheckFailure(message, exchange ? shown(exchange) : []);
}
