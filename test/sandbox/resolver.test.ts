// How a hosted sandbox resolves a webhook host (resolver.ts): through c-ares against a DNS server
// of the test's own on loopback, never on the thread pool that getaddrinfo (dns.lookup) holds,
// cancelled when its attempt's time is up; the hosts file and the loopback names first, without
// asking DNS; and within a share of the look-ups per account (lookup-slots.ts).
import { execFileSync } from "node:child_process";
import { promises as dns } from "node:dns";
import { mkdtempSync, openSync, closeSync, rmSync, writeFileSync } from "node:fs";
import { open } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { systemResolver } from "../../src/sandbox/delivery/resolver.ts";
import { LookupSlots } from "../../src/sandbox/delivery/lookup-slots.ts";
import { startDnsServer, type DnsServer } from "../support/dns-server.ts";

let server: DnsServer;
let dir: string;
beforeAll(async () => {
  server = await startDnsServer(
    { "shop.example": { A: ["93.184.216.34"], AAAA: ["2606:2800:220:1::1"] }, "six.example": { AAAA: ["2606:2800:220:1::2"] } },
    { swallow: ["stalled.example"] },
  );
  dir = mkdtempSync(path.join(tmpdir(), "payin-resolver-"));
});
afterAll(async () => {
  await server.close();
  rmSync(dir, { recursive: true, force: true });
});

const resolverOn = (hostsFile = path.join(dir, "none")) => systemResolver({ servers: [server.address], hostsFile });
const live = () => new AbortController().signal;

describe("the hosted sandbox's resolver", () => {
  it("asks DNS for A and AAAA, and gives the IPv4 addresses first", async () => {
    expect(await resolverOn()("shop.example", live())).toEqual([
      { address: "93.184.216.34", family: 4 },
      { address: "2606:2800:220:1::1", family: 6 },
    ]);
    expect(await resolverOn()("six.example", live())).toEqual([{ address: "2606:2800:220:1::2", family: 6 }]);
    await expect(resolverOn()("missing.example", live())).rejects.toMatchObject({ code: "ENOTFOUND" });
  });

  it("waits on a DNS server that never answers until the attempt's time is up, then cancels the question", async () => {
    const timeUp = new AbortController();
    let settled = false;
    const lookup = resolverOn()("stalled.example", timeUp.signal).finally(() => (settled = true));
    lookup.catch(() => {});
    await server.queried("stalled.example", 2);
    expect(settled).toBe(false);
    timeUp.abort(new DOMException("time is up", "TimeoutError"));
    await expect(lookup).rejects.toMatchObject({ code: "ECANCELLED" });
  });

  it("holds no thread of the pool that dns.lookup and the file system share: it answers while every thread is taken", async () => {
    // Each open of a FIFO with no writer holds a pool thread until one comes.
    const threads = Number(process.env.UV_THREADPOOL_SIZE ?? 4);
    const fifos = Array.from({ length: threads }, (_, i) => path.join(dir, `fifo-${i}`));
    for (const fifo of fifos) execFileSync("mkfifo", [fifo]);
    const held = fifos.map((fifo) => open(fifo, "r"));
    let systemLookedUp = false;
    const system = dns.lookup("localhost").finally(() => (systemLookedUp = true));
    try {
      expect(await resolverOn()("shop.example", live())).toHaveLength(2);
      // The control: getaddrinfo still waits for a thread.
      expect(systemLookedUp).toBe(false);
    } finally {
      const writers = fifos.map((fifo) => openSync(fifo, "w"));
      for (const handle of await Promise.all(held)) await handle.close();
      for (const writer of writers) closeSync(writer);
    }
    await system;
  });

  it("reads the hosts file first, and resolves the loopback names itself, asking DNS about neither", async () => {
    const hosts = path.join(dir, "hosts");
    writeFileSync(hosts, "# a comment\n10.0.0.5  Internal.example internal-alias  # trailing\nfd00::5 internal.example\n");
    const resolve = resolverOn(hosts);
    expect(await resolve("internal.example", live())).toEqual([
      { address: "10.0.0.5", family: 4 },
      { address: "fd00::5", family: 6 },
    ]);
    expect(await resolve("INTERNAL-ALIAS.", live())).toEqual([{ address: "10.0.0.5", family: 4 }]);
    for (const name of ["localhost", "api.localhost"])
      expect(await resolve(name, live())).toEqual([
        { address: "127.0.0.1", family: 4 },
        { address: "::1", family: 6 },
      ]);
    expect(["internal.example", "internal-alias", "localhost", "api.localhost"].map((name) => server.asked(name))).toEqual([0, 0, 0, 0]);
  });
});

describe("the look-ups at once", () => {
  /** Whether `take` has been granted once the promises already due have run. */
  const granted = async (take: Promise<unknown>) => {
    let done = false;
    take.then(() => (done = true)).catch(() => {});
    await new Promise((resolve) => setImmediate(resolve));
    return done;
  };

  it("gives an account at most its share and the rest waits, another account a slot at once; one that gave up takes none", async () => {
    const slots = new LookupSlots({ perAccount: 2, total: 3 });
    const [a1, a2] = await Promise.all([slots.take(1, live()), slots.take(1, live())]);
    const gaveUp = new AbortController();
    const a3 = slots.take(1, gaveUp.signal);
    const a4 = slots.take(1, live());
    expect(await granted(slots.take(2, live()))).toBe(true);
    gaveUp.abort(new Error("time is up"));
    await expect(a3).rejects.toThrow("time is up");
    expect(await granted(a4)).toBe(false);
    // One of account 1's ends, twice over: its slot goes to the first of account 1 still waiting, and only one slot is freed.
    a1();
    a1();
    expect(await granted(a4)).toBe(true);
    expect(await granted(slots.take(1, live()))).toBe(false);
    a2();
    expect(await granted(slots.take(3, live()))).toBe(false);
  });
});
