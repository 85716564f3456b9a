// The sandbox account a merchant's endpoint fetches from, as the processing-failure checks use
// it: a fault armed on the account's transaction fetches and taken back (the account's own
// faults stay as they were), the request journal that shows what the endpoint fetched and what it
// got, and the account's own deliveries about a session waited out, so that only the kit's
// deliveries make the endpoint fetch that session's transaction. That wait is on the kit's clock.
import { pauseOn, systemClock, type Clock } from "../lib/clock.ts";
import { PATHS } from "./fixtures.ts";
import type { Exchange, Target } from "./target.ts";

/** A request of the account's journal (`GET /_sandbox/v1/requests`). */
export interface Fetch {
  path: string;
  status: number;
  answered: boolean;
  fault?: { id: string; effect: string };
  received_at: string;
}

interface Attempt {
  event_id: string;
  url: string;
  status: "succeeded" | "failed";
  next_attempt_at?: string;
}

/** How often the account's deliveries are read while they are under way. */
const POLL_MS = 50;

export class SandboxAccount {
  readonly #target: Target;
  readonly #clock: Clock;

  private constructor(target: Target, clock: Clock) {
    this.#target = target;
    this.#clock = clock;
  }

  /**
   * The account, or why its endpoint's fetches cannot be made to fail there: it serves no sandbox faults and journal.
   * Its waits are on `clock`.
   */
  static async open(target: Target, { clock = systemClock }: { clock?: Clock } = {}): Promise<SandboxAccount | string> {
    const why = (exchange: Exchange, path: string) =>
      `needs the sandbox's control API at --base-url to make the endpoint's fetch fail: ` +
      `${target.baseUrl} answered ${exchange.answer.status} to GET ${path}`;
    for (const path of [PATHS.faults, PATHS.requests]) {
      const exchange = await target.call("GET", path);
      if (exchange.answer.status !== 200) return why(exchange, path);
    }
    return new SandboxAccount(target, clock);
  }

  /** Arms `fault` on every fetch of a transaction until it is disarmed; its id, and when it was armed on the account's clock. */
  async armOnFetch(fault: object): Promise<{ id: string; armedAtMs: number }> {
    const { answer, json } = await this.#target.call("POST", PATHS.faults, {
      body: { target: "request", operation_id: "getTransaction", ...fault },
    });
    if (answer.status !== 201) throw new Error(`the sandbox answered ${answer.status} to arm a fault: ${answer.text.slice(0, 300)}`);
    return { id: json.id, armedAtMs: Date.parse(json.created_at) };
  }

  async disarm(id: string): Promise<void> {
    const { answer } = await this.#target.call("DELETE", PATHS.fault(id));
    if (answer.status !== 204) throw new Error(`the sandbox answered ${answer.status} to disarm fault ${id}: ${answer.text.slice(0, 300)}`);
  }

  /** The fetches of the transaction in the account's journal, newest first. */
  async fetchesOf(transactionId: string): Promise<Fetch[]> {
    const { json } = await this.#target.call("GET", PATHS.requests);
    const path = PATHS.transaction(transactionId);
    return (json.data as Fetch[]).filter((request) => request.path === path);
  }

  /**
   * Waits, at most `timeoutMs`, until the account sends `url` nothing more about the session:
   * each of its events acknowledged there, or given up on. Events made while no URL is
   * registered are sent to none, and those sent elsewhere do not reach the endpoint.
   */
  async quiet(sessionId: string, url: string, timeoutMs: number): Promise<void> {
    const deadline = this.#clock.now() + timeoutMs;
    for (;;) {
      const attempts = (await this.#attemptsOf(sessionId)).filter((attempt) => attempt.url === url);
      const last = new Map<string, Attempt>(attempts.map((attempt) => [attempt.event_id, attempt]));
      const pending = [...last.values()].some((a) => a.status === "failed" && a.next_attempt_at !== undefined);
      if (!pending || this.#clock.now() > deadline) return;
      // Between two reads nothing else may be under way: the wait keeps the process alive.
      await pauseOn(this.#clock, POLL_MS);
    }
  }

  /** Every attempt of the session's events, oldest first: each page of its delivery log, to the last. */
  async #attemptsOf(sessionId: string): Promise<Attempt[]> {
    const attempts: Attempt[] = [];
    let cursor: string | undefined;
    do {
      const { json } = await this.#target.call("GET", PATHS.deliveries(sessionId, cursor));
      attempts.push(...(json.data as Attempt[]));
      cursor = json.next_cursor ?? undefined;
    } while (cursor !== undefined);
    return attempts;
  }
}
