// What the HTTP edge holds browsers and clients to: the pages may not be framed by another site,
// the dashboard's cookie travels over https only where the sandbox is reached over https, a client
// behind a trusted load balancer is counted by the address it forwarded, and a request has
// deadlines for its headers and for the whole of it.
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { root } from "../../scripts/lib/paths.ts";
import { DEADLINES } from "../../src/sandbox/edge/server.ts";
import { startSandbox } from "../../src/sandbox/index.ts";
import { ManualClock } from "../support/manual-clock.ts";
import { accountOn } from "../support/sandbox-account.ts";

const signIn = (url: string, token: string) =>
  fetch(`${url}/_sandbox/dashboard/sign-in`, {
    method: "POST",
    headers: { "content-type": "application/x-www-form-urlencoded", origin: url },
    body: new URLSearchParams({ token }),
    redirect: "manual",
  });

describe("the sandbox's pages", () => {
  it("may be framed by no site, the payment page and the dashboard alike; the dashboard's cookie is Secure behind https only", async () => {
    const local = await startSandbox({ port: 0 });
    const behindHttps = await startSandbox({ port: 0, publicUrl: "https://sandbox.example" });
    try {
      const session = await accountOn(local.url).session();
      for (const res of [await fetch(session.payment_link), await fetch(`${local.url}/_sandbox/dashboard`)])
        expect(res.headers.get("content-security-policy")).toMatch(/; frame-ancestors 'none'$/);
      expect((await signIn(local.url, "t")).headers.get("set-cookie")).not.toMatch(/Secure/);
      expect((await signIn(behindHttps.url, "t")).headers.get("set-cookie")).toMatch(/; HttpOnly; SameSite=Strict; Secure$/);
    } finally {
      await Promise.all([local.close(), behindHttps.close()]);
    }
  });
});

describe("a client behind a load balancer", () => {
  const dir = mkdtempSync(path.join(tmpdir(), "payin-proxy-"));
  afterAll(() => rmSync(dir, { recursive: true, force: true }));
  const refused = async (url: string, forwardedFor: string) =>
    (
      await fetch(`${url}/webhooks`, {
        headers: { Authorization: `Bearer ${crypto.randomUUID()}`, "X-Forwarded-For": forwardedFor },
      })
    ).status;

  it("is counted by the address the trusted balancer forwarded, and never by one an untrusted client claims", async () => {
    const clock = new ManualClock();
    const options = { port: 0, accounts: "issued" as const, clock };
    const trusting = await startSandbox({ ...options, db: path.join(dir, "a.db"), trustedProxies: ["127.0.0.0/8"] });
    const doubting = await startSandbox({ ...options, db: path.join(dir, "b.db") });
    try {
      // Behind the balancer, each client has its own refusals: the 21st of one is 429, while another's first is 401.
      for (let i = 0; i < 20; i++) expect(await refused(trusting.url, "198.51.100.7, 203.0.113.1")).toBe(401);
      expect(await refused(trusting.url, "198.51.100.7, 203.0.113.1")).toBe(429);
      expect(await refused(trusting.url, "203.0.113.2")).toBe(401);
      // Without the balancer trusted, what the client writes changes nothing: it is the socket's address that is counted.
      for (let i = 0; i < 20; i++) expect(await refused(doubting.url, `203.0.113.${i}`)).toBe(401);
      expect(await refused(doubting.url, "203.0.113.99")).toBe(429);
    } finally {
      await Promise.all([trusting.close(), doubting.close()]);
    }
  });
});

describe("a request's deadlines", () => {
  it("are what the hosting guide says: 10 s for its headers and 30 s for the whole of it", () => {
    const guide = readFileSync(path.join(root, "scripts", "docs", "guides", "hosting.md"), "utf8");
    const [, headers, whole] = /Every request has (\d+) s to send its headers and (\d+) s to arrive whole/.exec(guide)!;
    expect([DEADLINES.headersTimeout, DEADLINES.requestTimeout]).toEqual([Number(headers) * 1000, Number(whole) * 1000]);
  });
});
