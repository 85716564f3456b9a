// Who may use a hosted sandbox, and how much: a bearer token at least `minTokenLength` long, so
// that no one finds an account by guessing (any token is an account); and at most
// `ratePerSecond` requests a second per token, with a burst of as many at once, so that one
// tenant's runaway CI cannot take every process's pool from the others. A customer's payment
// page has no token: its requests count against the address they come from. The buckets are
// this process's: behind a balancer over N processes, a token gets up to N times the rate. Both
// are off by default, as an embedded sandbox needs neither. The rate is measured on the clock
// the sandbox is given.
import { systemClock, type Clock } from "../../lib/clock.ts";
import { problem } from "../../lib/problem.ts";
import { refusal, type Answer } from "./answer.ts";

export interface AccessSettings {
  minTokenLength?: number;
  ratePerSecond?: number;
  clock?: Clock;
}

/** Who a request comes from: the bearer token of an account, or, on a customer's page, the client's address. */
export type Caller = { token: string } | { client: string };

/** Buckets kept before the full ones (idle for a second or more, as good as new) are let go. */
const BUCKETS_KEPT = 10_000;

export class Access {
  readonly #minTokenLength: number;
  readonly #rate: number;
  readonly #clock: Clock;
  /** Per caller: the requests it may still make at once, as of `at` (ms). */
  readonly #buckets = new Map<string, { left: number; at: number }>();
  /** When the full buckets were last let go: at most once a second, so that a flood of tokens costs no scan per request. */
  #prunedAt = 0;

  constructor({ minTokenLength = 0, ratePerSecond = 0, clock = systemClock }: AccessSettings = {}) {
    this.#minTokenLength = minTokenLength;
    this.#rate = ratePerSecond;
    this.#clock = clock;
  }

  /** Why the token is refused (the 401's detail, and the dashboard's sign-in words), or undefined. */
  tokenRefusal(token: string): string | undefined {
    if (token.length >= this.#minTokenLength) return undefined;
    return (
      `This sandbox takes bearer tokens of at least ${this.#minTokenLength} characters, so that no one finds an account ` +
      `by guessing; this one has ${token.length}.`
    );
  }

  /** The refusal of the request, or undefined when it may go (and is counted against its caller's rate). */
  refusal(caller: Caller): Answer | undefined {
    const refused = "token" in caller ? this.tokenRefusal(caller.token) : undefined;
    if (refused !== undefined)
      return refusal(problem(401, "unauthorized", refused), { "WWW-Authenticate": 'Bearer realm="payin", error="invalid_token"' });
    const wait = this.#take("token" in caller ? `token ${caller.token}` : `client ${caller.client}`);
    if (wait === 0) return undefined;
    const who = "token" in caller ? "This account makes" : "This address makes";
    return refusal(problem(429, "rate_limited", `${who} more than ${this.#rate} requests a second here; retry after ${wait} s.`), {
      "Retry-After": String(wait),
    });
  }

  /** Takes one request from the caller's bucket: 0, or the whole seconds until one is there. */
  #take(key: string): number {
    if (this.#rate === 0) return 0;
    const now = this.#clock.now();
    if (this.#buckets.size > BUCKETS_KEPT && now - this.#prunedAt > 1000) {
      this.#prunedAt = now;
      for (const [held, bucket] of this.#buckets)
        if (bucket.left + ((now - bucket.at) / 1000) * this.#rate >= this.#rate) this.#buckets.delete(held);
    }
    const bucket = this.#buckets.get(key) ?? { left: this.#rate, at: now };
    bucket.left = Math.min(this.#rate, bucket.left + ((now - bucket.at) / 1000) * this.#rate);
    bucket.at = now;
    this.#buckets.set(key, bucket);
    if (bucket.left >= 1) {
      bucket.left -= 1;
      return 0;
    }
    return Math.max(1, Math.ceil((1 - bucket.left) / this.#rate));
  }
}
