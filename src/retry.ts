// What keeps a client's request alive across a flaky network: an Idempotency-Key on every POST
// that has none (openapi-fetch middleware, so that other middleware and the server's journal
// see it), and, beneath every middleware, a fetch that times out each attempt and retries
// network errors, 429 and 503 with exponential backoff and jitter, honouring Retry-After.
// Retries live in the fetch, not in a middleware: openapi-fetch hands a middleware's onResponse
// the request whose body was already sent, so a middleware could only replay a copy taken before
// the middleware after it ran. Each attempt is the same request, its key included, so a
// retried create never makes two objects.
import type { Middleware } from "openapi-fetch";
import { pauseOn, systemClock, timeoutSignal, type Clock } from "./lib/clock.ts";

export interface RetryOptions {
  /** Retries after the first attempt. Default 2. */
  retries?: number;
  /** The first retry waits about this long, each next one twice as long. Default 500 ms. */
  baseDelayMs?: number;
  /** No wait is longer, Retry-After included. Default 10 s. */
  maxDelayMs?: number;
}

export interface ResilienceOptions {
  /** How long one attempt may take before it is abandoned (and retried). Default 30 s; false for none. */
  timeoutMs?: number | false;
  /** Retries of network errors, timeouts, 429 and 503; false for none. */
  retry?: RetryOptions | false;
  /** The clock each attempt's timeout and each wait between attempts are measured on: the system's by default. */
  clock?: Clock;
}

const DEFAULTS = { timeoutMs: 30_000, retries: 2, baseDelayMs: 500, maxDelayMs: 10_000 } as const;

/** The statuses that say "not now" rather than "not this request": every other 4xx means the request was wrong. */
const RETRIED_STATUSES = new Set([429, 503]);

/** Sets `Idempotency-Key` on every POST that has none: a fresh UUID, the same on each retry of it. */
export function idempotencyKeys(): Middleware {
  return {
    onRequest({ request }) {
      if (request.method === "POST" && !request.headers.has("Idempotency-Key")) request.headers.set("Idempotency-Key", crypto.randomUUID());
      return request;
    },
  };
}

/**
 * The wait before retry `n` (0 for the first): half of base × 2ⁿ, plus up to as much again at
 * random (equal jitter, so that clients that failed together do not retry together), at most
 * `maxDelayMs`.
 */
export function backoffMs(n: number, { baseDelayMs = DEFAULTS.baseDelayMs, maxDelayMs = DEFAULTS.maxDelayMs }: RetryOptions = {}): number {
  const ceiling = Math.min(maxDelayMs, baseDelayMs * 2 ** n);
  return ceiling / 2 + (Math.random() * ceiling) / 2;
}

/** Retry-After in milliseconds (seconds, or an HTTP date); undefined when absent or unreadable. */
export function retryAfterMs(value: string | null, nowMs = systemClock.now()): number | undefined {
  if (value === null) return undefined;
  if (/^\d+$/.test(value.trim())) return Number(value) * 1000;
  const at = Date.parse(value);
  return Number.isNaN(at) ? undefined : Math.max(0, at - nowMs);
}

/**
 * The wait before retry `n` (0 for the first) of a request that `response` answered (undefined
 * when it failed without an answer): its Retry-After, or the backoff, at most `maxDelayMs`.
 */
export function retryDelayMs(response: Response | undefined, n: number, retry: RetryOptions = {}, nowMs = systemClock.now()): number {
  const waitMs = retryAfterMs(response?.headers.get("Retry-After") ?? null, nowMs) ?? backoffMs(n, retry);
  return Math.min(retry.maxDelayMs ?? DEFAULTS.maxDelayMs, waitMs);
}

type Fetch = (request: Request, init?: RequestInit) => Promise<Response>;

/** `fetch` with a timeout on each attempt and retries of what may succeed later. */
export function resilientFetch(
  fetch: Fetch,
  { timeoutMs = DEFAULTS.timeoutMs, retry = {}, clock = systemClock }: ResilienceOptions = {},
): Fetch {
  const retries = retry === false ? 0 : (retry.retries ?? DEFAULTS.retries);
  return async (request, init) => {
    for (let n = 0; ; n++) {
      const attempt = request.clone();
      const signal = timeoutMs === false ? request.signal : AbortSignal.any([request.signal, timeoutSignal(clock, timeoutMs)]);
      let answered: Response | undefined;
      try {
        const response = await fetch(new Request(attempt, { signal }), init);
        if (n === retries || !RETRIED_STATUSES.has(response.status)) return response;
        answered = response;
        // Unread, the body would hold its connection.
        await response.body?.cancel();
      } catch (error) {
        // The caller's own abort is not the network's fault: it is not retried.
        if (n === retries || request.signal.aborted) throw error;
      }
      // Kept alive: a script whose one request waits out a Retry-After has nothing else under way to keep it running.
      await pauseOn(clock, retryDelayMs(answered, n, retry || {}, clock.now()));
    }
  };
}
