// A DNS server of the test's own on 127.0.0.1 (UDP): answers A and AAAA questions from a table,
// says NXDOMAIN for a name it does not have, and never answers a name it is told to swallow, as
// a tenant's DNS that never answers. Point a node:dns Resolver at it with setServers (the
// loopback guard lets such a resolver ask about any name: the question goes nowhere else).
import { createSocket } from "node:dgram";
import ipaddr from "ipaddr.js";

const TYPES = { 1: "A", 28: "AAAA" } as const;

export interface DnsServer {
  /** `127.0.0.1:PORT`, as setServers takes it. */
  address: string;
  /** The questions asked so far, by name (lower case). */
  asked(name: string): number;
  /** Resolves once `name` has been asked about `count` times in all. */
  queried(name: string, count?: number): Promise<void>;
  close(): Promise<void>;
}

export async function startDnsServer(
  records: Record<string, { A?: string[]; AAAA?: string[] }>,
  { swallow = [] }: { swallow?: readonly string[] } = {},
): Promise<DnsServer> {
  const socket = createSocket("udp4");
  const asked = new Map<string, number>();
  const waiting: Array<{ name: string; count: number; resolve: () => void }> = [];
  socket.on("message", (query, from) => {
    const { name, type, end } = questionOf(query);
    asked.set(name, (asked.get(name) ?? 0) + 1);
    for (const w of waiting.filter((w) => (asked.get(w.name) ?? 0) >= w.count)) {
      waiting.splice(waiting.indexOf(w), 1);
      w.resolve();
    }
    if (swallow.includes(name)) return;
    const known = records[name];
    const addresses = (known && TYPES[type as keyof typeof TYPES] && known[TYPES[type as keyof typeof TYPES]]) || [];
    const header = Buffer.alloc(12);
    header.writeUInt16BE(query.readUInt16BE(0), 0);
    // A response, recursion desired and available; NXDOMAIN for a name the table lacks.
    header.writeUInt16BE(0x8180 | (known ? 0 : 3), 2);
    header.writeUInt16BE(1, 4);
    header.writeUInt16BE(addresses.length, 6);
    const answers = addresses.map((address) => {
      const data = Buffer.from(ipaddr.parse(address).toByteArray());
      const head = Buffer.alloc(12);
      head.writeUInt16BE(0xc00c, 0); // the question's name
      head.writeUInt16BE(type, 2);
      head.writeUInt16BE(1, 4); // IN
      head.writeUInt32BE(60, 6);
      head.writeUInt16BE(data.length, 10);
      return Buffer.concat([head, data]);
    });
    socket.send(Buffer.concat([header, query.subarray(12, end), ...answers]), from.port, from.address);
  });
  await new Promise<void>((resolve) => socket.bind(0, "127.0.0.1", resolve));
  return {
    address: `127.0.0.1:${socket.address().port}`,
    asked: (name) => asked.get(name) ?? 0,
    queried: (name, count = 1) =>
      (asked.get(name) ?? 0) >= count ? Promise.resolve() : new Promise((resolve) => waiting.push({ name, count, resolve })),
    close: () => new Promise((resolve) => socket.close(() => resolve())),
  };
}

/** The first question of a query: its name (lower case), its type, and where it ends. */
function questionOf(query: Buffer): { name: string; type: number; end: number } {
  const labels: string[] = [];
  let offset = 12;
  while (query[offset] !== 0) {
    const length = query[offset]!;
    labels.push(query.subarray(offset + 1, offset + 1 + length).toString("latin1"));
    offset += 1 + length;
  }
  return { name: labels.join(".").toLowerCase(), type: query.readUInt16BE(offset + 1), end: offset + 5 };
}
