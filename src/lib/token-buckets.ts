// Rates measured as token buckets, by key (a token, an address, an account), on the clock their
// owner gives: each key may make `burst` requests at once, and gets `perSecond` more a second.
import type { Clock } from "./clock.ts";

/** Buckets kept before the full ones (idle long enough to be as good as new) are let go. */
const BUCKETS_KEPT = 10_000;

/** Token buckets by key (a token, an address): each holds the requests its key may still make at once, as of when it was last seen. */
export class Buckets {
  readonly #clock: Clock;
  readonly #burst: number;
  readonly #perSecond: number;
  readonly #held = new Map<string, { left: number; at: number }>();
  /** When the full buckets were last let go: at most once a second, so that a flood of keys costs no scan per request. */
  #prunedAt = 0;

  constructor(clock: Clock, burst: number, perSecond: number) {
    this.#clock = clock;
    this.#burst = burst;
    this.#perSecond = perSecond;
  }

  /** The whole seconds until `key`'s bucket has a request to give: 0 when it has one, which `take` takes. */
  waitFor(key: string, take: boolean): number {
    const bucket = this.#refilled(key);
    if (bucket.left < 1) return Math.max(1, Math.ceil((1 - bucket.left) / this.#perSecond));
    if (take) bucket.left -= 1;
    return 0;
  }

  /** How many requests `key` may make now, whole. */
  available(key: string): number {
    return Math.floor(this.#refilled(key).left);
  }

  /** Takes `count` requests from `key`'s bucket (as many as `available` said, at most). */
  take(key: string, count: number) {
    const bucket = this.#refilled(key);
    bucket.left = Math.max(0, bucket.left - count);
  }

  /** `key`'s bucket as of now, refilled for the time since it was last seen. */
  #refilled(key: string) {
    const now = this.#clock.now();
    const refilled = (bucket: { left: number; at: number }) =>
      Math.min(this.#burst, bucket.left + ((now - bucket.at) / 1000) * this.#perSecond);
    if (this.#held.size > BUCKETS_KEPT && now - this.#prunedAt > 1000) {
      this.#prunedAt = now;
      for (const [key, bucket] of this.#held) if (refilled(bucket) >= this.#burst) this.#held.delete(key);
    }
    const bucket = this.#held.get(key) ?? { left: this.#burst, at: now };
    bucket.left = refilled(bucket);
    bucket.at = now;
    this.#held.set(key, bucket);
    return bucket;
  }
}
