// How a hosted sandbox finds a webhook host's addresses without the pool every tenant shares.
// node:dns's lookup is getaddrinfo on libuv's four threads, with no timeout of its own: a few
// tenants' hosts whose DNS never answers held every thread, and every other tenant's delivery
// waited behind them. This resolver answers as getaddrinfo would for what a hosted sandbox
// meets (the names kept for loopback, then the hosts file, then DNS), but asks DNS through
// c-ares (node:dns's Resolver: sockets on the event loop), A and AAAA, with its own timeout and
// tries, and cancels a look-up when its attempt's signal aborts.
import { Resolver } from "node:dns/promises";
import { hostsFileAddresses } from "./hosts-file.ts";

/** Resolves a host name to every address it has; gives up, rejecting, once `signal` aborts. */
export type Resolve = (hostname: string, signal: AbortSignal) => Promise<Array<{ address: string; family: number }>>;

export interface ResolverSettings {
  /** DNS servers (`127.0.0.1:5353`) in place of the system's. */
  servers?: readonly string[];
  /** The hosts file read before DNS. Default /etc/hosts. */
  hostsFile?: string;
  /** c-ares's wait for a server's first answer; each next try waits twice as long. Default 2 s. */
  timeoutMs?: number;
  /** Tries of each server. Default 2. */
  tries?: number;
}

/** RFC 6761's loopback names, which no DNS server is asked about. */
const LOCALHOST = /(^|\.)localhost\.?$/i;
const LOOPBACK = [
  { address: "127.0.0.1", family: 4 },
  { address: "::1", family: 6 },
];

export function systemResolver({ servers, hostsFile = "/etc/hosts", timeoutMs = 2000, tries = 2 }: ResolverSettings = {}): Resolve {
  return async (hostname, signal) => {
    signal.throwIfAborted();
    if (LOCALHOST.test(hostname)) return LOOPBACK;
    const listed = hostsFileAddresses(hostsFile, hostname);
    if (listed.length > 0) return listed;
    // A resolver of its own, so that cancelling it ends this look-up and no other.
    const resolver = new Resolver({ timeout: timeoutMs, tries });
    if (servers) resolver.setServers(servers);
    const cancel = () => resolver.cancel();
    signal.addEventListener("abort", cancel, { once: true });
    try {
      const [v4, v6] = await Promise.allSettled([resolver.resolve4(hostname), resolver.resolve6(hostname)]);
      // IPv4 first: the sandbox connects to one checked address, with no race between families, and a host without an IPv6
      // route fails an IPv6 connection.
      const addresses = [
        ...(v4.status === "fulfilled" ? v4.value.map((address) => ({ address, family: 4 })) : []),
        ...(v6.status === "fulfilled" ? v6.value.map((address) => ({ address, family: 6 })) : []),
      ];
      if (addresses.length > 0) return addresses;
      throw v4.status === "rejected" ? v4.reason : (v6 as PromiseRejectedResult).reason;
    } finally {
      signal.removeEventListener("abort", cancel);
    }
  };
}
