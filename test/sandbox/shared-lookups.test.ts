// No tenant waits on another's DNS: twenty sessions of one account whose webhook host's DNS
// never answers (a server of the test's own on loopback that swallows every question, asked
// through the sandbox's own resolver) hold at most that account's share of the look-ups, and
// another account's delivery goes out at once.
import { afterAll, beforeAll, expect, it } from "vitest";
import { systemResolver, type Resolve } from "../../src/sandbox/delivery/resolver.ts";
import { DEFAULT_LOOKUP_BOUNDS } from "../../src/sandbox/delivery/lookup-slots.ts";
import { startSandbox, type RunningSandbox } from "../../src/sandbox/index.ts";
import { startDnsServer, type DnsServer } from "../support/dns-server.ts";
import { startReceiver } from "../support/receiver.ts";
import { accountOn } from "../support/sandbox-account.ts";

let dns: DnsServer;
let sandbox: RunningSandbox;
/** The look-ups of the stalled host under way now, and the most there ever were at once. */
const stalled = { now: 0, most: 0 };

beforeAll(async () => {
  dns = await startDnsServer({}, { swallow: ["stalled.example"] });
  const resolve = systemResolver({ servers: [dns.address] });
  const counting: Resolve = (hostname, signal) => {
    if (hostname !== "stalled.example") return resolve(hostname, signal);
    stalled.most = Math.max(stalled.most, ++stalled.now);
    return resolve(hostname, signal).finally(() => stalled.now--);
  };
  sandbox = await startSandbox({
    port: 0,
    allowWebhookHosts: ["*"],
    allowWebhookNetworks: ["127.0.0.0/8", "::1/128"],
    resolveHost: counting,
  });
});
afterAll(async () => {
  await sandbox.close();
  await dns.close();
});

it("delivers another account's event within 2 s while twenty sessions of one account wait on a name that never resolves", async () => {
  const stuck = accountOn(sandbox.url);
  await stuck.register("https://stalled.example/hook");
  await Promise.all(Array.from({ length: 20 }, () => stuck.session()));
  // Every slot the account may have is taken by a question no one answers (A and AAAA each).
  await dns.queried("stalled.example", 2 * DEFAULT_LOOKUP_BOUNDS.perAccount);

  const receiver = await startReceiver();
  const other = accountOn(sandbox.url);
  await other.register(`http://localhost:${new URL(receiver.url).port}/hook`);
  const started = performance.now();
  await other.session();
  await receiver.delivered(1);
  expect(performance.now() - started).toBeLessThan(2000);
  expect(stalled).toEqual({ now: DEFAULT_LOOKUP_BOUNDS.perAccount, most: DEFAULT_LOOKUP_BOUNDS.perAccount });
  expect(await stuck.deliveries()).toEqual([]);
  await receiver.close();
});
