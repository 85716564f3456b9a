// A target that limits how fast a token may call it (the contract's 429 with Retry-After, as a
// hosted sandbox started with --rate-limit answers) is waited out as the package's own client
// waits (retry.ts), so that the limit is not taken for a wrong answer; within the call's
// timeout, past which the 429 is the answer the check judges. No check is about the 429 itself:
// no request can provoke it on purpose. The waits and the timeout are on the kit's clock.
import { pauseOn, systemClock, timeoutSignal, type Clock } from "../lib/clock.ts";
import { retryDelayMs } from "../retry.ts";

/** What the target's rate limit cost a run: the requests answered 429 and sent again, and the time any of them waited. */
export interface RateLimited {
  requests: number;
  waitedMs: number;
}

/** Counts the waits, and the time during which at least one request waited: a check's requests may wait side by side. */
export class RateLimitWaits {
  readonly #clock: Clock;
  #requests = 0;
  #waiting = 0;
  #since = 0;
  #waitedMs = 0;

  constructor(clock: Clock = systemClock) {
    this.#clock = clock;
  }

  get counted(): RateLimited {
    return { requests: this.#requests, waitedMs: this.#waitedMs + (this.#waiting > 0 ? this.#clock.now() - this.#since : 0) };
  }

  /**
   * Sends with `send` until the answer is other than 429, or until waiting as it asks would pass
   * `timeoutMs` from the start (every try within that one signal).
   */
  async send(send: (signal: AbortSignal) => Promise<Response>, timeoutMs: number): Promise<Response> {
    const signal = timeoutSignal(this.#clock, timeoutMs);
    const endsAt = this.#clock.now() + timeoutMs;
    for (let n = 0; ; n++) {
      const response = await send(signal);
      if (response.status !== 429) return response;
      const waitMs = retryDelayMs(response, n, { maxDelayMs: timeoutMs }, this.#clock.now());
      if (this.#clock.now() + waitMs >= endsAt) return response;
      // Unread, the body would hold its connection.
      await response.body?.cancel();
      await this.#wait(waitMs, signal);
    }
  }

  async #wait(ms: number, signal: AbortSignal) {
    this.#requests++;
    if (this.#waiting++ === 0) this.#since = this.#clock.now();
    try {
      // Between two requests nothing else may be under way: the wait keeps the process alive.
      await pauseOn(this.#clock, ms, signal);
    } finally {
      if (--this.#waiting === 0) this.#waitedMs += this.#clock.now() - this.#since;
    }
  }
}
