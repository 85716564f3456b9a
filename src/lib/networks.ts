// Networks an operator names in a flag, as CIDRs (`10.1.0.0/16`, `fd00::/8`): the networks a
// hosted sandbox may still deliver to, the proxies whose X-Forwarded-For it believes.
import { BlockList, isIP } from "node:net";

/** The networks as a list node:net checks addresses against; an error names `flag` for one that is not ADDRESS/PREFIX. */
export function networkList(cidrs: readonly string[], flag: string): BlockList {
  const list = new BlockList();
  for (const cidr of cidrs) {
    const [network = "", prefixText = "", extra] = cidr.trim().split("/");
    const version = isIP(network);
    const prefix = Number(prefixText);
    if (version === 0 || extra !== undefined || !/^\d+$/.test(prefixText) || prefix > (version === 4 ? 32 : 128))
      throw new Error(`--${flag} takes a network as ADDRESS/PREFIX (10.1.0.0/16, fd00::/8), not ${JSON.stringify(cidr)}`);
    list.addSubnet(network, prefix, version === 4 ? "ipv4" : "ipv6");
  }
  return list;
}

/** Whether `address` (an IPv4 or IPv6 address, an IPv4-mapped one checked as its IPv4) is in `list`. */
export const inNetworks = (list: BlockList, address: string) =>
  isIP(address) !== 0 && list.check(address, isIP(address) === 6 ? "ipv6" : "ipv4");
