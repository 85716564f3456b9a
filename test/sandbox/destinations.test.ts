// A hosted sandbox is no proxy into its own network (decision D21): with other hosts
// allowed, no delivery connects to a loopback, private, link-local or other non-public address,
// written out in the URL (refused at registration) or resolved from a name (refused at delivery,
// before any connection: the suite's loopback guard would record one), unless its network is
// allowed. Names resolve through a resolver the test gives; nothing here leaves loopback.
import { createServer } from "node:http";
import type { AddressInfo } from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startSandbox, type RunningSandbox } from "../../src/sandbox/index.ts";
import { NOT_PUBLIC } from "../../src/sandbox/delivery/destinations.ts";
import { accountOn } from "../support/sandbox-account.ts";
import { startReceiver } from "../support/receiver.ts";

const NAMES: Record<string, string[]> = {
  "internal.example": ["10.0.0.1"],
  "metadata.example": ["169.254.169.254"],
  "mixed.example": ["93.184.216.34", "10.0.0.2"],
  "unique-local.example": ["fd00::1"],
  "mapped.example": ["::ffff:192.168.1.1"],
  localhost: ["127.0.0.1"],
  "receiver.example": ["127.0.0.1"],
};
const resolveHost = async (hostname: string) =>
  (NAMES[hostname] ?? []).map((address) => ({ address, family: address.includes(":") ? 6 : 4 }));

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

  it.each(Object.entries(NAMES).filter(([name]) => name !== "receiver.example"))(
    "registers %s, and logs its delivery as not sent, connecting to nothing",
    async (name, addresses) => {
      const account = accountOn(sandbox.url);
      const url = name === "localhost" ? "http://localhost:9/hook" : `https://${name}/hook`;
      expect((await account.call("POST", "/webhooks", { url })).status).toBe(201);
      await account.session();
      await expect
        .poll(async () => (await account.deliveries())[0]?.error)
        .toBe(`Not sent: ${name} resolves to ${addresses.find((a) => a !== "93.184.216.34")}, ${NOT_PUBLIC}`);
    },
  );
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
    const signIn = await fetch(`${sandbox.url}/_sandbox/dashboard/sign-in`, {
      method: "POST",
      headers: { "content-type": "application/x-www-form-urlencoded", origin: sandbox.url },
      body: `token=${account.token}`,
      redirect: "manual",
    });
    const cookie = signIn.headers.get("set-cookie")!.split(";")[0]!;
    const page = await (await fetch(`${sandbox.url}/_sandbox/dashboard`, { headers: { cookie } })).text();
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
