// Where a hosted sandbox may deliver (decision D21): once deliveries may leave loopback
// (--allow-webhook-host), never to an address of the network the sandbox runs in (loopback,
// private, carrier-grade NAT, link-local and so cloud metadata, unique-local, multicast,
// unspecified, or the IPv4-mapped form of any), unless the operator allows that network by name
// (--allow-webhook-network). The check is made on the address the connection uses: the host is
// resolved once, every address it resolves to is checked, and the connection goes to the checked
// one, so that a name cannot resolve to a public address for the check and a private one for
// the connection. Otherwise, the sandbox would be a proxy into its own network for anyone with a
// token.
import { lookup as dnsLookup } from "node:dns/promises";
import { BlockList, isIP } from "node:net";

/** Resolves a host name to every address it has, as node:dns's lookup with `all` does. */
export type Resolve = (hostname: string) => Promise<Array<{ address: string; family: number }>>;

const NON_PUBLIC: ReadonlyArray<readonly [string, number, "ipv4" | "ipv6"]> = [
  ["0.0.0.0", 8, "ipv4"], // "this network", unspecified
  ["10.0.0.0", 8, "ipv4"],
  ["100.64.0.0", 10, "ipv4"], // carrier-grade NAT
  ["127.0.0.0", 8, "ipv4"],
  ["169.254.0.0", 16, "ipv4"], // link-local: cloud metadata at 169.254.169.254
  ["172.16.0.0", 12, "ipv4"],
  ["192.168.0.0", 16, "ipv4"],
  ["224.0.0.0", 4, "ipv4"], // multicast
  ["240.0.0.0", 4, "ipv4"], // reserved, and the broadcast address
  ["::", 128, "ipv6"], // unspecified
  ["::1", 128, "ipv6"],
  ["fc00::", 7, "ipv6"], // unique-local
  ["fe80::", 10, "ipv6"], // link-local
  ["ff00::", 8, "ipv6"], // multicast
];

/** The same networks, as a list node:net checks (an IPv4-mapped IPv6 address is checked as its IPv4 one). */
const nonPublic = new BlockList();
for (const [network, prefix, family] of NON_PUBLIC) nonPublic.addSubnet(network, prefix, family);

/** Why a delivery to an address of the sandbox's own network is not made: the delivery log's words. */
export const NOT_PUBLIC =
  "not a public address (loopback, private, link-local or the like): a hosted sandbox delivers there only when started " +
  "with --allow-webhook-network for its network.";

/** A CIDR (`10.1.0.0/16`, `fd00::/8`) as a network to allow, or an error naming the flag. */
export function parseNetwork(cidr: string): { network: string; prefix: number; family: "ipv4" | "ipv6" } {
  const [network = "", prefixText = "", extra] = cidr.trim().split("/");
  const version = isIP(network);
  const prefix = Number(prefixText);
  if (version === 0 || extra !== undefined || !/^\d+$/.test(prefixText) || prefix > (version === 4 ? 32 : 128))
    throw new Error(`--allow-webhook-network takes a network as ADDRESS/PREFIX (10.1.0.0/16, fd00::/8), not ${JSON.stringify(cidr)}`);
  return { network, prefix, family: version === 4 ? "ipv4" : "ipv6" };
}

export class Destinations {
  /** Whether deliveries may leave loopback: the sandbox is hosted, and this policy applies. */
  readonly hosted: boolean;
  readonly #allowed = new BlockList();
  readonly #resolve: Resolve;

  constructor({ hosted, allowedNetworks = [], resolve }: { hosted: boolean; allowedNetworks?: readonly string[]; resolve?: Resolve }) {
    this.hosted = hosted;
    for (const cidr of allowedNetworks) {
      const { network, prefix, family } = parseNetwork(cidr);
      this.#allowed.addSubnet(network, prefix, family);
    }
    this.#resolve = resolve ?? ((hostname) => dnsLookup(hostname, { all: true, verbatim: true }));
  }

  /** Whether the sandbox may connect to `address`: a public one, or one of a network allowed. */
  allows(address: string): boolean {
    const family = isIP(address) === 6 ? "ipv6" : "ipv4";
    return !nonPublic.check(address, family) || this.#allowed.check(address, family);
  }

  /**
   * The address to connect to for a named host: resolved once, every address checked, the first
   * taken; or why there is none. The connection then goes to that address, not to the name.
   */
  async addressOf(hostname: string): Promise<{ address: string } | { refusal: string }> {
    let addresses: Array<{ address: string }>;
    try {
      addresses = await this.#resolve(hostname);
    } catch (error) {
      return { refusal: `The request failed: ${(error as NodeJS.ErrnoException).code ?? (error as Error).message}.` };
    }
    const refused = addresses.find((a) => !this.allows(a.address));
    if (refused) return { refusal: `Not sent: ${hostname} resolves to ${refused.address}, ${NOT_PUBLIC}` };
    return addresses[0] ? { address: addresses[0].address } : { refusal: "The request failed: ENOTFOUND." };
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
