// The implementation under test, as the checks call it: every request goes to its base URL with
// the account's bearer token (a rate limit's 429 waited out, rate-limit.ts), every answer is
// judged by the contract as it comes, and every exchange is kept, for a failure to show what was
// sent and what came back. Its timeouts and waits are on the clock it is given, the kit's.
import { systemClock, type Clock } from "../lib/clock.ts";
import { breachesOf, operationOf, type Answer } from "./oracle.ts";
import { RateLimitWaits } from "./rate-limit.ts";

export interface Exchange {
  request: { method: string; url: string; headers: Record<string, string>; body?: string };
  answer: Answer;
  /** The answer's body parsed, when it is JSON. */
  json: any;
  /** The operation the request was, when the documents have it. */
  operationId: string | undefined;
  /** What in the answer breaks the contract. */
  breaches: string[];
}

export interface CallOptions {
  /** A JSON value, or a string or bytes sent as they are. */
  body?: unknown;
  headers?: Record<string, string>;
  /** Another account's token; null sends no Authorization header. */
  token?: string | null;
}

export class Target {
  readonly baseUrl: string;
  readonly token: string;
  /** Each operation and status the checks have seen answered, `createCounterparty 201`. */
  readonly seen = new Set<string>();
  /**
   * URLs the kit registers where the contract wants https://: its receiver's loopback http://
   * address, which a test environment must take. An answer that echoes one keeps the contract.
   */
  readonly ownHttpUrls = new Set<string>();
  /** The requests the target's rate limit answered 429, waited out and sent again. */
  readonly rateLimits: RateLimitWaits;
  readonly #timeoutMs: number;

  constructor(baseUrl: string, token: string, { timeoutMs = 15_000, clock = systemClock }: { timeoutMs?: number; clock?: Clock } = {}) {
    this.baseUrl = baseUrl.replace(/\/+$/, "");
    this.token = token;
    this.#timeoutMs = timeoutMs;
    this.rateLimits = new RateLimitWaits(clock);
  }

  async call(method: string, path: string, { body, headers = {}, token = this.token }: CallOptions = {}): Promise<Exchange> {
    const text = body === undefined ? undefined : typeof body === "string" || body instanceof Uint8Array ? body : JSON.stringify(body);
    const sent = {
      ...(token === null ? {} : { authorization: `Bearer ${token}` }),
      ...(text === undefined ? {} : { "content-type": "application/json" }),
      ...headers,
    };
    const url = this.baseUrl + path;
    const response = await this.rateLimits.send(
      (signal) => fetch(url, { method, headers: sent, body: text as BodyInit | undefined, signal }),
      this.#timeoutMs,
    );
    const answer: Answer = { status: response.status, headers: response.headers, text: await response.text() };
    const operation = operationOf(method, new URL(url).pathname);
    if (operation) this.seen.add(`${operation.operationId} ${answer.status}`);
    let json: unknown;
    try {
      json = answer.text ? JSON.parse(answer.text) : undefined;
    } catch {
      json = undefined;
    }
    return {
      request: {
        method,
        url,
        headers: sent,
        ...(text === undefined ? {} : { body: typeof text === "string" ? text : Buffer.from(text).toString("utf8") }),
      },
      answer,
      json,
      operationId: operation?.operationId,
      breaches: operation
        ? breachesOf(operation, answer).filter((b) => !this.#echoesOwnUrl(b, json))
        : [`${method} ${path} is no operation of the documents`],
    };
  }

  #echoesOwnUrl(breach: string, json: unknown): boolean {
    const field = /^body\.(\w+) must match pattern "\^https:\/\/"$/.exec(breach)?.[1];
    return field !== undefined && this.ownHttpUrls.has((json as Record<string, unknown>)[field] as string);
  }
}
