// A hosted sandbox is no proxy into its own network (decision D21): with other hosts allowed, no
// delivery connects to an address outside the public internet (any of IANA's special-purpose
// ranges, in any way it can be written), written out in the URL (refused at registration) or
// resolved from a name (refused at delivery, before any connection: the suite's loopback guard
// would record one), unless its network is allowed; and what is refused is said without the
// address a name resolves to. Names resolve through a resolver the test gives; nothing here
// leaves loopback.
import { createServer } from "node:http";
import type { AddressInfo } from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startSandbox, type RunningSandbox } from "../../src/sandbox/index.ts";
import { nameNotPublic } from "../../src/sandbox/delivery/destinations.ts";
import { accountOn } from "../support/sandbox-account.ts";
import { startReceiver } from "../support/receiver.ts";

const NAMES: Record<string, string[]> = {
  "internal.example": ["10.0.0.1"],
  "corp-db.internal.test": ["10.20.30.40"],
  "metadata.example": ["169.254.169.254"],
  "cloud-metadata.example": ["192.0.0.192"],
  "mixed.example": ["93.184.216.34", "10.0.0.2"],
  "unique-local.example": ["fd00::1"],
  "mapped.example": ["::ffff:192.168.1.1"],
  "nat64.example": ["64:ff9b::6440:5"],
  "six-to-four.example": ["2002:a14:1e28::1"],
  "teredo.example": ["2001:0:4136:e378:8000:63bf:3fff:fdd2"],
  "compatible.example": ["::a14:1e28"],
  "site-local.example": ["fec0::1"],
  "benchmark.example": ["198.18.0.1"],
  "documentation.example": ["2001:db8::1"],
  "zoned.example": ["fe80::1%eth0"],
  localhost: ["127.0.0.1"],
  "receiver.example": ["127.0.0.1"],
};
const resolveHost = async (hostname: string) => {
  if (hostname === "broken.example")
    throw Object.assign(new Error("queryA ESERVFAIL corp-dns.internal.test (10.0.0.53)"), { code: "ESERVFAIL" });
  return (NAMES[hostname] ?? []).map((address) => ({ address, family: address.includes(":") ? 6 : 4 }));
};

/** The dashboard's page of the account's deliveries, as its owner sees it once signed in. */
async function dashboardOf(sandboxUrl: string, token: string): Promise<string> {
  const signIn = await fetch(`${sandboxUrl}/_sandbox/dashboard/sign-in`, {
    method: "POST",
    headers: { "content-type": "application/x-www-form-urlencoded", origin: sandboxUrl },
    body: `token=${token}`,
    redirect: "manual",
  });
  const cookie = signIn.headers.get("set-cookie")!.split(";")[0]!;
  return (await fetch(`${sandboxUrl}/_sandbox/dashboard`, { headers: { cookie } })).text();
}

describe("a sandbox started with --allow-webhook-host '*'", () => {
  let sandbox: RunningSandbox;
  beforeAll(async () => {
    sandbox = await startSandbox({ port: 0, allowWebhookHosts: ["*"], resolveHost, retryScheduleSeconds: [] });
  });
  afterAll(() => sandbox.close());

  it.each([
    "https://10.0.3.7/admin",
    "https://192.168.1.1/",
    "https://172.16.0.1/",
    "https://100.64.0.1/",
    "https://169.254.169.254/latest/meta-data/",
    "https://[fd00::1]/",
    "https://[fe80::1]/",
    "https://[::ffff:10.0.0.1]/",
    "https://0.0.0.0/",
    "http://127.0.0.1:9/hook",
    "http://[::1]:9/hook",
    // IANA's special-purpose ranges, beyond the networks a sandbox's own may have.
    "https://[64:ff9b::6440:5]/", // NAT64: 100.64.0.5 through a translator
    "https://[64:ff9b:1::a00:1]/",
    "https://[2002:a14:1e28::1]/", // 6to4
    "https://[2001::1]/", // Teredo
    "https://[::10.20.30.40]/", // IPv4-compatible
    "https://[fec0::1]/", // site-local
    "https://[100::1]/", // discard-only
    "https://[2001:20::1]/", // ORCHIDv2
    "https://[2001:3::1]/", // AMT
    "https://[5f00::1]/", // segment routing
    "https://[4000::1]/", // outside the global unicast 2000::/3
    "https://192.0.0.192/", // 192.0.0.0/24: one cloud's metadata
    "https://198.18.0.1/", // benchmarking
    "https://192.0.2.1/",
    "https://198.51.100.7/",
    "https://203.0.113.9/",
    "https://[2001:db8::1]/",
    "https://[3fff::1]/",
    "https://240.0.0.1/",
    "https://255.255.255.255/",
    "https://192.88.99.1/",
    // The forms WHATWG's URL parser reads as an address: hex, octal, a single number, few parts, an IPv4-mapped address in hex.
    "https://0x7f.1/",
    "https://0177.0.0.1/",
    "https://2130706433/",
    "https://0xa9fea9fe/",
    "https://10.1/",
    "https://[::ffff:a9fe:a9fe]/",
    "https://[0:0:0:0:0:ffff:7f00:1]/",
  ])("refuses to register %s, naming url and the rule", async (url) => {
    const { status, body } = await accountOn(sandbox.url).call("POST", "/webhooks", { url });
    expect([status, body.errors]).toEqual([
      422,
      [
        {
          field: "url",
          message:
            "must not have a loopback, private, link-local or other non-public address as its host: " +
            "this sandbox delivers only to public addresses",
        },
      ],
    ]);
  });

  it("refuses to register an address with a zone, which no URL can hold, naming url", async () => {
    const { status, body } = await accountOn(sandbox.url).call("POST", "/webhooks", { url: "https://[fe80::1%25eth0]/" });
    expect([status, body.errors?.map((e: { field: string }) => e.field)]).toEqual([422, ["url"]]);
  });

  it.each(Object.entries(NAMES).filter(([name]) => name !== "receiver.example"))(
    "registers %s, and logs its delivery as not sent, without the address it resolves to, connecting to nothing",
    async (name, addresses) => {
      const account = accountOn(sandbox.url);
      const url = name === "localhost" ? "http://localhost:9/hook" : `https://${name}/hook`;
      expect((await account.call("POST", "/webhooks", { url })).status).toBe(201);
      await account.session();
      await expect.poll(async () => (await account.deliveries())[0]?.error).toBe(nameNotPublic(name));
      const log = JSON.stringify(await account.deliveries());
      expect(addresses.filter((address) => log.includes(address))).toEqual([]);
    },
  );

  it("says in the log and the dashboard that an internal name is not public, and never what it resolves to", async () => {
    const account = accountOn(sandbox.url);
    await account.register("https://corp-db.internal.test/hook");
    await account.session();
    await expect.poll(async () => (await account.deliveries())[0]?.error).toMatch(/does not resolve to a public address/);
    const page = await dashboardOf(sandbox.url, account.token);
    expect([page.includes("does not resolve to a public address"), page.includes("10.20.30.40")]).toEqual([true, false]);
  });

  it("says of a name that cannot be resolved what it says of an internal one, and nothing the resolver said", async () => {
    const account = accountOn(sandbox.url);
    await account.register("https://broken.example/hook");
    await account.session();
    // Told apart, the two would tell anyone with a token which internal names exist.
    await expect.poll(async () => (await account.deliveries())[0]?.error).toBe(nameNotPublic("broken.example"));
  });
});

describe("a hosted sandbox with --allow-webhook-network 127.0.0.0/8", () => {
  let sandbox: RunningSandbox;
  beforeAll(async () => {
    const options = { port: 0, allowWebhookHosts: ["*"], allowWebhookNetworks: ["127.0.0.0/8"], resolveHost, retryScheduleSeconds: [] };
    sandbox = await startSandbox(options);
  });
  afterAll(() => sandbox.close());

  it("delivers to that network, by name and by address, and to no other", async () => {
    const receiver = await startReceiver();
    const port = new URL(receiver.url).port;
    for (const url of [`http://localhost:${port}/by-name`, `http://127.0.0.1:${port}/by-address`]) {
      const account = accountOn(sandbox.url);
      await account.register(url);
      await account.session();
    }
    await receiver.delivered(2);
    const other = accountOn(sandbox.url);
    expect((await other.call("POST", "/webhooks", { url: "https://10.0.0.1/" })).status).toBe(422);
    await receiver.close();
  });

  it("connects to the address it checked, not to the name: the name is only the Host and the TLS server name", async () => {
    // An https:// name that resolves to a plain-HTTP receiver here: the attempt reaches 127.0.0.1 (the loopback
    // guard would record a connection to the name) and fails its TLS handshake there.
    const receiver = await startReceiver();
    const account = accountOn(sandbox.url);
    await account.register(`https://receiver.example:${new URL(receiver.url).port}/hook`);
    await account.session();
    await expect
      .poll(async () => (await account.deliveries())[0]?.error)
      .toMatch(/^The request failed: (EPROTO|ECONNRESET|ERR_SSL_\w+)\.$/);
    await receiver.close();
  });

  it("keeps of an answer its status only: no header, no byte of its body, in the log or the dashboard", async () => {
    const inside = createServer((req, res) => {
      req.resume();
      res.writeHead(500, { "X-Internal": "secret-header" }).end("secret-body ".repeat(500));
    });
    await new Promise<void>((resolve) => inside.listen(0, "127.0.0.1", resolve));
    const account = accountOn(sandbox.url);
    await account.register(`http://127.0.0.1:${(inside.address() as AddressInfo).port}/`);
    await account.session();
    await expect.poll(async () => (await account.deliveries())[0]?.response_status).toBe(500);
    const log = JSON.stringify(await account.deliveries());
    const page = await dashboardOf(sandbox.url, account.token);
    expect([log.includes("secret"), page.includes("secret"), page.includes("500")]).toEqual([false, false, true]);
    inside.close();
  });

  it("never follows a redirect: a 302 to an inside address is the attempt's answer, and nothing more is connected to", async () => {
    const redirecting = createServer((req, res) => {
      req.resume();
      res.writeHead(302, { Location: "http://169.254.169.254/latest/meta-data/" }).end();
    });
    await new Promise<void>((resolve) => redirecting.listen(0, "127.0.0.1", resolve));
    const account = accountOn(sandbox.url);
    await account.register(`http://127.0.0.1:${(redirecting.address() as AddressInfo).port}/`);
    await account.session();
    await expect.poll(async () => (await account.deliveries())[0]?.error).toBe("The receiver answered 302.");
    redirecting.close();
  });

  it("refuses a network that is not ADDRESS/PREFIX", async () => {
    await expect(startSandbox({ port: 0, allowWebhookHosts: ["*"], allowWebhookNetworks: ["10.0.0.0"] })).rejects.toThrow(
      '--allow-webhook-network takes a network as ADDRESS/PREFIX (10.1.0.0/16, fd00::/8), not "10.0.0.0"',
    );
  });
});

describe("the embedded default (no --allow-webhook-host)", () => {
  it("registers loopback addresses and delivers to them, as its tests' receivers need", async () => {
    const sandbox = await startSandbox({ port: 0 });
    const receiver = await startReceiver();
    const account = accountOn(sandbox.url);
    await account.register(receiver.url);
    await account.session();
    await receiver.delivered(1);
    await receiver.close();
    await sandbox.close();
  });
});
