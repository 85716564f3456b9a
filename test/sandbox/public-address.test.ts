// What a hosted sandbox counts as the public internet (public-address.ts): a global unicast
// address outside every special-purpose range of IANA's registries, taken whole; and what an
// operator's --allow-webhook-network lets through besides (destinations.ts).
import { describe, expect, it } from "vitest";
import { isPublicAddress } from "../../src/sandbox/delivery/public-address.ts";
import { Destinations } from "../../src/sandbox/delivery/destinations.ts";

const PUBLIC = ["8.8.8.8", "93.184.216.34", "1.1.1.1", "2606:4700:4700::1111", "2a00:1450:4001:81b::200e", "2001:4860:4860::8888"];

// One address of each range, with the registry's name for it.
const SPECIAL: Record<string, string> = {
  "0.0.0.0": "this network",
  "10.1.2.3": "private",
  "100.64.0.5": "shared address space (CGNAT)",
  "127.0.0.1": "loopback",
  "169.254.169.254": "link-local",
  "172.16.0.1": "private",
  "192.0.0.192": "IETF protocol assignments",
  "192.0.0.9": "port control protocol anycast",
  "192.0.2.1": "documentation (TEST-NET-1)",
  "192.31.196.1": "AS112-v4",
  "192.52.193.1": "AMT",
  "192.88.99.1": "deprecated 6to4 relay anycast",
  "192.168.1.1": "private",
  "192.175.48.1": "direct delegation AS112 service",
  "198.18.0.1": "benchmarking",
  "198.51.100.7": "documentation (TEST-NET-2)",
  "203.0.113.9": "documentation (TEST-NET-3)",
  "224.0.0.1": "multicast",
  "240.0.0.1": "reserved",
  "255.255.255.255": "limited broadcast",
  "::": "unspecified",
  "::1": "loopback",
  "::ffff:8.8.8.8": "IPv4-mapped (of a public address, too)",
  "::a14:1e28": "IPv4-compatible",
  "64:ff9b::808:808": "IPv4-IPv6 translation (NAT64, of a public address, too)",
  "64:ff9b:1::a00:1": "local-use IPv4/IPv6 translation",
  "100::1": "discard-only",
  "100:0:0:1::1": "dummy prefix",
  "2001::1": "TEREDO",
  "2001:1::1": "port control protocol anycast",
  "2001:2::1": "benchmarking",
  "2001:3::1": "AMT",
  "2001:4:112::1": "AS112-v6",
  "2001:10::1": "deprecated ORCHID",
  "2001:20::1": "ORCHIDv2",
  "2001:30::1": "drone remote ID",
  "2001:db8::1": "documentation",
  "2002:808:808::1": "6to4",
  "2620:4f:8000::1": "direct delegation AS112 service",
  "3fff::1": "documentation",
  "5f00::1": "segment routing SIDs",
  "fc00::1": "unique-local",
  "fd00:ec2::254": "unique-local (one cloud's metadata)",
  "fe80::1": "link-local",
  "fec0::1": "site-local (deprecated)",
  "ff02::1": "multicast",
  "4000::1": "outside the global unicast 2000::/3",
};

describe("a public address", () => {
  it.each(PUBLIC)("%s is one", (address) => expect(isPublicAddress(address)).toBe(true));

  it.each(Object.entries(SPECIAL))("%s is not (%s)", (address) => expect(isPublicAddress(address)).toBe(false));

  it.each(["2606:4700::1111%eth0", "0x7f.1", "2130706433", "[::1]", "example.com", ""])(
    "%s, with a zone or in a form node:net does not read as an address, is not",
    (address) => expect(isPublicAddress(address)).toBe(false),
  );
});

describe("--allow-webhook-network", () => {
  it("lets through the networks it names, in any form of their addresses, and no other", () => {
    const destinations = new Destinations({ hosted: true, allowedNetworks: ["10.20.0.0/16", "64:ff9b::/96"] });
    const allowed = ["10.20.30.40", "::ffff:10.20.30.40", "64:ff9b::a14:1e28", "8.8.8.8"];
    const refused = ["10.21.0.1", "64:ff9b:1::1", "127.0.0.1", "fe80::1%eth0"];
    expect([allowed.map((a) => destinations.allows(a)), refused.map((a) => destinations.allows(a))]).toEqual([
      allowed.map(() => true),
      refused.map(() => false),
    ]);
  });
});
