// Who may use a hosted sandbox, and how much (issue 43): a bearer token at least
// `minTokenLength` long, so that no one finds an account by guessing (any token is an account);
// and at most `ratePerSecond` requests a second per token, with a burst of as many at once, so
// that one tenant's runaway CI cannot take every process's pool from the others. The bucket is
// this process's: behind a balancer over N processes, a token gets up to N times the rate. Both
// are off by default, as an embedded sandbox needs neither.
import { problem } from "../../lib/problem.ts";
import type { Answer } from "./operation.ts";
import { refusal } from "./problems.ts";

export interface AccessSettings {
  minTokenLength?: number;
  ratePerSecond?: number;
}

/** Buckets kept before the full ones (idle for a second or more, as good as new) are let go. */
const BUCKETS_KEPT = 10_000;

export class Access {
  readonly #minTokenLength: number;
  readonly #rate: number;
  /** Per token: the requests it may still make at once, as of `at` (ms). */
  readonly #buckets = new Map<string, { left: number; at: number }>();
  /** When the full buckets were last let go: at most once a second, so that a flood of tokens costs no scan per request. */
  #prunedAt = 0;

  constructor({ minTokenLength = 0, ratePerSecond = 0 }: AccessSettings = {}) {
    this.#minTokenLength = minTokenLength;
    this.#rate = ratePerSecond;
  }

  /** Why the token is refused (the 401's detail, and the dashboard's sign-in words), or undefined. */
  tokenRefusal(token: string): string | undefined {
    if (token.length >= this.#minTokenLength) return undefined;
    return (
      `This sandbox takes bearer tokens of at least ${this.#minTokenLength} characters, so that no one finds an account ` +
      `by guessing; this one has ${token.length}.`
    );
  }

  /** The refusal of the request, or undefined when it may go (and is counted against its token's rate). */
  refusal(token: string): Answer | undefined {
    const refused = this.tokenRefusal(token);
    if (refused !== undefined)
      return refusal(problem(401, "unauthorized", refused), { "WWW-Authenticate": 'Bearer realm="payin", error="invalid_token"' });
    const wait = this.#take(token);
    if (wait === 0) return undefined;
    return refusal(
      problem(429, "rate_limited", `This account makes more than ${this.#rate} requests a second here; retry after ${wait} s.`),
      {
        "Retry-After": String(wait),
      },
    );
  }

  /** Takes one request from the token's bucket: 0, or the whole seconds until one is there. */
  #take(token: string): number {
    if (this.#rate === 0) return 0;
    const now = performance.now();
    if (this.#buckets.size > BUCKETS_KEPT && now - this.#prunedAt > 1000) {
      this.#prunedAt = now;
      for (const [key, bucket] of this.#buckets)
        if (bucket.left + ((now - bucket.at) / 1000) * this.#rate >= this.#rate) this.#buckets.delete(key);
    }
    const bucket = this.#buckets.get(token) ?? { left: this.#rate, at: now };
    bucket.left = Math.min(this.#rate, bucket.left + ((now - bucket.at) / 1000) * this.#rate);
    bucket.at = now;
    this.#buckets.set(token, bucket);
    if (bucket.left >= 1) {
      bucket.left -= 1;
      return 0;
    }
    return Math.max(1, Math.ceil((1 - bucket.left) / this.#rate));
  }
}
