// Where a hosted sandbox may deliver (decision D21): once deliveries may leave loopback
// (--allow-webhook-host), only to the public internet (public-address.ts), unless the operator
// allows a network of its own by name (--allow-webhook-network). The check is made on the address
// the connection uses: the host is resolved once, every address it resolves to is checked, and
// the connection goes to the checked one, so that a name cannot resolve to a public address for
// the check and a private one for the connection. Otherwise, the sandbox would be a proxy into its
// own network for anyone with a token. What is refused is said without the address: the delivery
// log would otherwise tell anyone with a token what an internal name resolves to; and of a name,
// in the same words whether it resolves to such an address or to none, or the log would tell
// which internal names exist.
import { isIP, type BlockList } from "node:net";
import { inNetworks, networkList } from "../../lib/networks.ts";
import { LookupSlots, type LookupBounds } from "./lookup-slots.ts";
import { isPublicAddress } from "./public-address.ts";
import { systemResolver, type Resolve } from "./resolver.ts";

export type { Resolve } from "./resolver.ts";

/** Why a delivery to an address of the sandbox's own network is not made: the delivery log's words. */
export const NOT_PUBLIC =
  "not a public address (loopback, private, link-local, or another of IANA's special-purpose addresses): " +
  "a hosted sandbox delivers there only when started with --allow-webhook-network for its network.";

/** Why a delivery to a name is not made: one sentence whether the name resolves to an address that is not public or to none. */
export const nameNotPublic = (hostname: string) =>
  `Not sent: ${hostname} does not resolve to a public address. A hosted sandbox delivers to a name only when it resolves, and ` +
  "only to public addresses (not loopback, private, link-local, or another of IANA's special-purpose addresses) unless " +
  "started with --allow-webhook-network for their network.";

export interface DestinationSettings {
  /** Whether deliveries may leave loopback (any --allow-webhook-host). */
  hosted: boolean;
  /** Networks of the sandbox's own that deliveries may still reach (--allow-webhook-network). */
  allowedNetworks?: readonly string[];
  /** How names are resolved: c-ares, with the hosts file first (resolver.ts), unless another is given. */
  resolve?: Resolve;
  /** Look-ups at once, per account and in all. */
  lookups?: LookupBounds;
}

export class Destinations {
  /** Whether deliveries may leave loopback: the sandbox is hosted, and this policy applies. */
  readonly hosted: boolean;
  readonly #allowed: BlockList;
  readonly #resolve: Resolve;
  readonly #slots: LookupSlots;

  constructor({ hosted, allowedNetworks = [], resolve, lookups }: DestinationSettings) {
    this.hosted = hosted;
    this.#allowed = networkList(allowedNetworks, "allow-webhook-network");
    this.#resolve = resolve ?? systemResolver();
    this.#slots = new LookupSlots(lookups);
  }

  /** Whether the sandbox may connect to `address`: a public one, or one of a network allowed. */
  allows(address: string): boolean {
    return isPublicAddress(address) || inNetworks(this.#allowed, address);
  }

  /**
   * The address to connect to for a named host: resolved once, within the account's share of the
   * look-ups, every address checked, the first taken; or why there is none. Gives up once
   * `signal` aborts (the attempt's time is up). The connection then goes to that address, not to
   * the name.
   */
  async addressOf(hostname: string, accountId: number, signal: AbortSignal): Promise<{ address: string } | { refusal: string }> {
    const refused = { refusal: nameNotPublic(hostname) };
    let addresses: Array<{ address: string }>;
    let release: (() => void) | undefined;
    try {
      release = await this.#slots.take(accountId, signal);
      addresses = await untilAborted(this.#resolve(hostname, signal), signal);
    } catch {
      // Neither the resolver's error nor its detail: either may name what is inside the sandbox's network.
      return refused;
    } finally {
      release?.();
    }
    if (addresses.length === 0 || addresses.some((a) => !this.allows(a.address))) return refused;
    return { address: addresses[0]!.address };
  }

  /** Why a registered URL's host, an address written out, will never be delivered to: the field error for POST /webhooks. */
  registrationRefusal(url: string): string | null {
    if (!this.hosted) return null;
    const host = URL.parse(url)?.hostname.replace(/^\[|\]$/g, "");
    if (host === undefined || isIP(host) === 0 || this.allows(host)) return null;
    return (
      "must not have a loopback, private, link-local or other non-public address as its host: " +
      "this sandbox delivers only to public addresses"
    );
  }
}

/** `promise`, or the signal's reason once it aborts: a resolver given by a test need not heed the signal. */
function untilAborted<T>(promise: Promise<T>, signal: AbortSignal): Promise<T> {
  return new Promise((resolve, reject) => {
    const abort = () => reject(signal.reason);
    if (signal.aborted) return abort();
    signal.addEventListener("abort", abort, { once: true });
    promise.then(resolve, reject).finally(() => signal.removeEventListener("abort", abort));
  });
}
