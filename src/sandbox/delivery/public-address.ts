// Which addresses are the public internet (decision D21): a global unicast address, in none of
// IANA's special-purpose registries (IPv4 and IPv6), taken whole, even the entries IANA calls
// globally reachable (NAT64's 64:ff9b::/96 reaches whatever IPv4 address it embeds, a private one
// included, through a translator in the sandbox's own network; AS112 and AMT serve no webhook).
// ipaddr.js names those ranges (`range()` is 'unicast' for an address in none of them); what it
// does not name is below.
import ipaddr from "ipaddr.js";
import { isIP } from "node:net";

/**
 * IPv6's global unicast space (IANA's IPv6 address space registry): everything outside it is
 * reserved by the IETF, unique-local, link-local or multicast. ipaddr.js names only some of the
 * reserved blocks, so that the IPv4-compatible ::/96 (which reaches the IPv4 address it embeds on
 * some stacks), the dummy prefix 100:0:0:1::/64 and the rest of ::/8, 100::/8, 200::/7 … 1000::/4
 * and 4000::/2 … f000::/5 would pass as 'unicast'.
 */
const IPV6_GLOBAL_UNICAST = ipaddr.IPv6.parseCIDR("2000::/3");

/**
 * Whether `address`, written as node:net writes addresses (a dotted quad, or IPv6 without
 * brackets), is a global unicast address of the public internet. Anything else is not: a zone id
 * (only scoped addresses have one), or a form node:net does not take as an address (`0x7f.1`,
 * which the system's resolver would read as 127.0.0.1).
 */
export function isPublicAddress(address: string): boolean {
  const version = isIP(address);
  if (version === 0) return false;
  const parsed = ipaddr.parse(address);
  if (parsed.range() !== "unicast") return false;
  if (version === 4) return true;
  const ipv6 = parsed as ipaddr.IPv6;
  return ipv6.zoneId === undefined && ipv6.match(IPV6_GLOBAL_UNICAST);
}
