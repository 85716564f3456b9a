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
//
// The refusals an address had never turn away a token that is valid: a shared office or a CI
// NAT holds honest tenants and whoever guesses beside them, and a limit checked before the token
// would let a stranger shut the tenant out with twenty guesses a second. A token this process
// knows for an issued account's goes through whatever its address sent; only the others meet
// the address's count. Past it they cost the database nothing each: the issued accounts are read
// again, at most once a second for the whole process (so that one issued a moment ago is found),
// and a token still not among them is refused without a query of its own. An address is counted
// as its network gives it out: an IPv6 address by its /64, which one subscriber gets whole (its
// millions of addresses would otherwise each bring a fresh burst), and an IPv4-mapped one as the
// IPv4 address it is.
import { isIP } from "node:net";
import ipaddr from "ipaddr.js";
import { systemClock, type Clock } from "../../lib/clock.ts";
import { Buckets } from "../../lib/token-buckets.ts";
import { problem } from "../../lib/problem.ts";
import type { Account } from "../store/accounts.ts";
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

/** What Access needs of the accounts (the store's): a token's account, and the issued tokens this process knows. */
export interface TokenDirectory {
  lookUp(
    token: string,
    options: { issuedOnly?: boolean; fresh?: boolean },
  ): Promise<{ account: Account; requestFaults: boolean } | undefined>;
  /** Whether the token is an issued account's, as this process knows them: no query. */
  knownIssued(token: string): boolean;
  /** Reads the issued accounts again, at most once a second however often it is called. */
  readIssued(): Promise<void>;
}

/**
 * What an address is counted as: an IPv4 address as itself (an IPv4-mapped IPv6 address too), an IPv6 address as its
 * /64, the block one subscriber (a home, a VM) is given whole. Anything else (no address known) as it is.
 */
export function addressKey(client: string): string {
  if (isIP(client) === 0) return client;
  const address = ipaddr.process(client);
  if (address.kind() === "ipv4") return address.toString();
  return `${(address as ipaddr.IPv6).parts
    .slice(0, 4)
    .map((part) => part.toString(16))
    .join(":")}::/64`;
}

export class Access {
  readonly #minTokenLength: number;
  readonly #rate: number;
  readonly issuedOnly: boolean;
  /**
   * Per caller, its requests; per address, the tokens it had refused, and its look-ups of tokens this process does not
   * know: taken before each (so that a thousand guesses at once cost no more than the burst), and never given back.
   */
  readonly #requests: Buckets;
  readonly #refusals: Buckets;
  readonly #lookUps: Buckets;

  constructor({ minTokenLength = 0, ratePerSecond = 0, issuedOnly = false, clock = systemClock }: AccessSettings = {}) {
    this.#minTokenLength = minTokenLength;
    this.#rate = ratePerSecond;
    this.issuedOnly = issuedOnly;
    this.#requests = new Buckets(clock, ratePerSecond, ratePerSecond);
    this.#refusals = new Buckets(clock, REFUSALS.burst, REFUSALS.perSecond);
    this.#lookUps = new Buckets(clock, REFUSALS.burst, REFUSALS.perSecond);
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
   * is counted against its caller's rate): a token too short, a caller over its rate. The tokens
   * its address had refused count only once the token is not known (`lookUp`). `rated`: false for
   * what the sandbox itself asked for (a listener's answer to a delivery), which no rate may turn away.
   */
  refusal(caller: Caller, rated = true): Answer | undefined {
    if ("token" in caller) {
      const refused = this.tokenRefusal(caller.token);
      if (refused !== undefined) return refusal(problem(401, "unauthorized", refused), INVALID_TOKEN);
    }
    if (this.#rate === 0 || !rated) return undefined;
    const wait = this.#requests.waitFor("token" in caller ? `token ${caller.token}` : `client ${addressKey(caller.client)}`, true);
    if (wait === 0) return undefined;
    return tooMany(
      `${"token" in caller ? "This account makes" : "This address makes"} more than ${this.#rate} requests a second here`,
      wait,
    );
  }

  /**
   * The account of the token, or undefined when it has none here (refused with `unknownToken`). With `issuedOnly`, a
   * token this process knows for an issued account's is looked up whatever its address sent before; any other only within
   * its address's look-ups (as many as its refusals: 20 at once, then one a second). Past them, the issued accounts are
   * read again (at most once a second for the process) and a token still not among them is undefined without a query of
   * its own.
   */
  async lookUp(accounts: TokenDirectory, token: string, client: string, fresh = false) {
    if (!this.issuedOnly) return accounts.lookUp(token, { fresh });
    if (!accounts.knownIssued(token) && this.#lookUps.waitFor(addressKey(client), true) > 0) {
      await accounts.readIssued();
      if (!accounts.knownIssued(token)) return undefined;
    }
    return accounts.lookUp(token, { issuedOnly: true, fresh });
  }

  /**
   * The refusal of a token this sandbox did not issue (with `issuedOnly`), counted against the address it came from: 401,
   * or 429 once the address has had too many refused.
   */
  unknownToken(client: string): Answer {
    const wait = this.#refusals.waitFor(addressKey(client), true);
    if (wait > 0) return tooMany(`This address has had more than ${REFUSALS.burst} tokens refused`, wait);
    const detail = "This sandbox serves the accounts it issued only, and this bearer token is none of theirs.";
    return refusal(problem(401, "unauthorized", detail), INVALID_TOKEN);
  }
}

const tooMany = (what: string, wait: number) =>
  refusal(problem(429, "rate_limited", `${what}; retry after ${wait} s.`), { "Retry-After": String(wait) });
