// Who may use a hosted sandbox, and how much: a bearer token at least `minTokenLength` long, so
// that no one finds an account by guessing where any token is an account; with `issuedOnly`,
// only the tokens of accounts issued beforehand, the others refused and counted against the
// address they come from, so that no one tries tokens by the thousand; and at most
// `ratePerSecond` requests a second per token, with a burst of as many at once, so that one
// tenant's runaway CI cannot take every process's pool from the others. A customer's payment
// page has no token: its requests count against the address they come from. The buckets are
// this process's: behind a balancer over N processes, a token gets up to N times the rate. All
// are off by default, as an embedded sandbox needs none. Rates are measured on the clock the
// sandbox is given.
import { systemClock, type Clock } from "../../lib/clock.ts";
import { Buckets } from "../../lib/token-buckets.ts";
import { problem } from "../../lib/problem.ts";
import { refusal, type Answer } from "./answer.ts";

export interface AccessSettings {
  minTokenLength?: number;
  ratePerSecond?: number;
  /** Only the accounts issued beforehand are served (`--accounts issued`): any other token is refused. */
  issuedOnly?: boolean;
  clock?: Clock;
}

/** Who a request comes from: the bearer token of an account, or, on a customer's page, the client's address only. */
export type Caller = { token: string; client: string } | { client: string };

/** Tokens refused from one address, with `issuedOnly`: this many at once, then one a second. */
const REFUSALS = { burst: 20, perSecond: 1 };
const INVALID_TOKEN = { "WWW-Authenticate": 'Bearer realm="payin", error="invalid_token"' };

export class Access {
  readonly #minTokenLength: number;
  readonly #rate: number;
  readonly issuedOnly: boolean;
  /** Per caller, its requests; per address, the tokens it had refused. */
  readonly #requests: Buckets;
  readonly #refusals: Buckets;

  constructor({ minTokenLength = 0, ratePerSecond = 0, issuedOnly = false, clock = systemClock }: AccessSettings = {}) {
    this.#minTokenLength = minTokenLength;
    this.#rate = ratePerSecond;
    this.issuedOnly = issuedOnly;
    this.#requests = new Buckets(clock, ratePerSecond, ratePerSecond);
    this.#refusals = new Buckets(clock, REFUSALS.burst, REFUSALS.perSecond);
  }

  /** Why the token is refused (the 401's detail, and the dashboard's sign-in words), or undefined. */
  tokenRefusal(token: string): string | undefined {
    if (token.length >= this.#minTokenLength) return undefined;
    return (
      `This sandbox takes bearer tokens of at least ${this.#minTokenLength} characters, so that no one finds an account ` +
      `by guessing; this one has ${token.length}.`
    );
  }

  /**
   * The refusal of the request before its account is looked up, or undefined when it may go (and
   * is counted against its caller's rate): a token too short, an address that has had too many
   * tokens refused, a caller over its rate. `rated`: false for what the sandbox itself asked for
   * (a listener's answer to a delivery), which no rate may turn away.
   */
  refusal(caller: Caller, rated = true): Answer | undefined {
    if ("token" in caller) {
      const refused = this.tokenRefusal(caller.token);
      if (refused !== undefined) return refusal(problem(401, "unauthorized", refused), INVALID_TOKEN);
      const wait = this.issuedOnly ? this.#refusals.waitFor(caller.client, false) : 0;
      if (wait > 0) return tooMany(`This address has had more than ${REFUSALS.burst} tokens refused`, wait);
    }
    if (this.#rate === 0 || !rated) return undefined;
    const wait = this.#requests.waitFor("token" in caller ? `token ${caller.token}` : `client ${caller.client}`, true);
    if (wait === 0) return undefined;
    return tooMany(
      `${"token" in caller ? "This account makes" : "This address makes"} more than ${this.#rate} requests a second here`,
      wait,
    );
  }

  /** The refusal of a token this sandbox did not issue (with `issuedOnly`), counted against the address it came from. */
  unknownToken(client: string): Answer {
    this.#refusals.waitFor(client, true);
    const detail = "This sandbox serves the accounts it issued only, and this bearer token is none of theirs.";
    return refusal(problem(401, "unauthorized", detail), INVALID_TOKEN);
  }
}

const tooMany = (what: string, wait: number) =>
  refusal(problem(429, "rate_limited", `${what}; retry after ${wait} s.`), { "Retry-After": String(wait) });
