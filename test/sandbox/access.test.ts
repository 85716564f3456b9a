// Who may use a hosted sandbox, and how much: --min-token-length refuses guessable tokens with
// 401 naming the minimum, on every operation and at the dashboard's sign-in; --rate-limit turns
// one token's burst beyond its rate away with the contract's 429 and Retry-After, while another
// token at the same time is served, and so does the dashboard and, by address, the payment page.
// The sandbox's clock is the test's: the rate is seen the same however busy the machine is.
// With --accounts issued, the tokens an address had refused never turn away a valid token from
// it (a stranger guessing behind a tenant's office NAT), and past the burst the guesses cost the
// database nothing each; an IPv6 address is counted by its /64, so that rotating through one's
// millions of addresses brings no fresh burst.
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from "vitest";
import { Access, addressKey, type TokenDirectory } from "../../src/sandbox/api/access.ts";
import { startSandbox, type RunningSandbox } from "../../src/sandbox/index.ts";
import { ISSUED_TOKEN_PREFIX } from "../../src/sandbox/store/accounts.ts";
import { Store } from "../../src/sandbox/store/index.ts";
import { SqliteDatabase } from "../../src/sandbox/store/sqlite.ts";
import { ManualClock } from "../support/manual-clock.ts";
import { accountOn } from "../support/sandbox-account.ts";

describe("a sandbox with --min-token-length 24 and --rate-limit 20", () => {
  let sandbox: RunningSandbox;
  const clock = new ManualClock();
  beforeAll(async () => {
    sandbox = await startSandbox({ port: 0, minTokenLength: 24, rateLimitPerSecond: 20, clock });
  });
  afterAll(() => sandbox.close());
  const newToken = () => `tok_${crypto.randomUUID()}`;

  it("refuses a token shorter than 24 characters with 401 naming the minimum, on the contract and the control API", async () => {
    for (const route of ["/webhooks", "/_sandbox/v1/deliveries"]) {
      const res = await fetch(sandbox.url + route, { headers: { Authorization: "Bearer test" } });
      expect([res.status, res.headers.get("www-authenticate"), (await res.json()).detail]).toEqual([
        401,
        'Bearer realm="payin", error="invalid_token"',
        "This sandbox takes bearer tokens of at least 24 characters, so that no one finds an account by guessing; this one has 4.",
      ]);
    }
    expect((await accountOn(sandbox.url, newToken()).call("GET", "/webhooks")).status).toBe(404);
  });

  it("says the same at the dashboard's sign-in", async () => {
    const signIn = await fetch(`${sandbox.url}/_sandbox/dashboard/sign-in`, {
      method: "POST",
      headers: { "content-type": "application/x-www-form-urlencoded", origin: sandbox.url },
      body: "token=test",
      redirect: "manual",
    });
    // The message comes back in the cookie the refusal sets, as a browser keeps it.
    const cookie = signIn.headers.get("set-cookie")!.split(";")[0]!;
    const page = await (await fetch(new URL(signIn.headers.get("location")!, sandbox.url), { headers: { cookie } })).text();
    expect(page).toContain("This sandbox takes bearer tokens of at least 24 characters");
  });

  it("answers a burst of 200 from one token with 429s and Retry-After beyond the first 20, while another token gets none", async () => {
    const [busy, calm] = [newToken(), newToken()];
    const get = (t: string) => fetch(`${sandbox.url}/webhooks`, { headers: { Authorization: `Bearer ${t}` } });
    const calmAnswers: number[] = [];
    const calmRun = (async () => {
      for (let i = 0; i < 10; i++) calmAnswers.push((await get(calm)).status);
    })();
    const answers = await Promise.all(Array.from({ length: 200 }, () => get(busy)));
    await calmRun;
    const limited = answers.filter((res) => res.status === 429);
    expect([answers.length - limited.length, limited.length]).toEqual([20, 180]);
    const first = limited[0]!;
    expect([first.headers.get("retry-after"), (await first.json()).code]).toEqual(["1", "rate_limited"]);
    expect(calmAnswers).toEqual(Array(10).fill(404));
    // A twentieth of a second brings one more request; a second fills the bucket again.
    await clock.advance(50);
    expect([(await get(busy)).status, (await get(busy)).status]).toEqual([404, 429]);
    await clock.advance(1000);
    const refilled = await Promise.all(Array.from({ length: 21 }, () => get(busy)));
    expect(refilled.filter((res) => res.status === 404)).toHaveLength(20);
  });

  it("counts the dashboard's pages against the token's rate, as the API's calls", async () => {
    const token = newToken();
    const signIn = await fetch(`${sandbox.url}/_sandbox/dashboard/sign-in`, {
      method: "POST",
      headers: { "content-type": "application/x-www-form-urlencoded", origin: sandbox.url },
      body: `token=${token}`,
      redirect: "manual",
    });
    const cookie = signIn.headers.get("set-cookie")!.split(";")[0]!;
    const loads = await Promise.all(Array.from({ length: 25 }, () => fetch(`${sandbox.url}/_sandbox/dashboard`, { headers: { cookie } })));
    // The sign-in was the first of the token's twenty.
    expect(loads.map((res) => res.status).filter((status) => status === 429)).toHaveLength(6);
    const refused = loads.find((res) => res.status === 429)!;
    expect([refused.headers.get("retry-after"), await refused.text()]).toEqual([
      "1",
      expect.stringContaining("more than 20 requests a second"),
    ]);
    await clock.advance(1000);
    expect((await accountOn(sandbox.url, token).call("GET", "/webhooks")).status).toBe(404);
  });

  it("counts a payment page's views against the address they come from", async () => {
    const account = accountOn(sandbox.url, newToken());
    const session = await account.session();
    await clock.advance(1000);
    const views = await Promise.all(Array.from({ length: 21 }, () => fetch(session.payment_link)));
    expect(views.map((res) => res.status).filter((status) => status === 429)).toHaveLength(1);
    // Another address is counted apart: the merchant's own calls still go.
    expect((await account.call("GET", `/_sandbox/v1/payment-sessions/${session.id}`)).status).toBe(200);
    await clock.advance(1000);
  });
});

describe("the embedded default", () => {
  it("takes any token, and any rate", async () => {
    const sandbox = await startSandbox({ port: 0 });
    const answers = await Promise.all(
      Array.from({ length: 100 }, async () => (await fetch(`${sandbox.url}/webhooks`, { headers: { Authorization: "Bearer t" } })).status),
    );
    expect(new Set(answers)).toEqual(new Set([404]));
    await sandbox.close();
  });
});

const invented = () => `${ISSUED_TOKEN_PREFIX}${crypto.randomUUID()}`;

/** The issued accounts as Access sees them: `valid` tokens, which this process knows once it read them; look-ups and reads counted. */
function issuedAccounts(valid: string[]) {
  const known = new Set<string>();
  const counts = { lookUps: 0, reads: 0 };
  const accounts: TokenDirectory = {
    async lookUp(token) {
      counts.lookUps++;
      if (!valid.includes(token)) return undefined;
      known.add(token);
      return { account: { id: 1, clockOffsetMs: 0 }, requestFaults: false };
    },
    knownIssued: (token) => known.has(token),
    async readIssued() {
      counts.reads++;
      for (const token of valid) known.add(token);
    },
  };
  return { accounts, counts };
}

describe("the refused tokens of an address (Access, --accounts issued)", () => {
  /** What a request with `token` from `client` is answered: 200 when its account is found. */
  const ask = async (access: Access, accounts: TokenDirectory, token: string, client: string) =>
    (await access.lookUp(accounts, token, client)) ? 200 : access.unknownToken(client).status;

  it("never refuse a valid token from it, and past the burst cost no look-up each", async () => {
    const clock = new ManualClock();
    const access = new Access({ issuedOnly: true, clock });
    const [tenant, another] = [invented(), invented()];
    const { accounts, counts } = issuedAccounts([tenant, another]);
    const statuses = [];
    for (let n = 0; n < 30; n++) statuses.push(await ask(access, accounts, invented(), "203.0.113.7"));
    expect(statuses).toEqual([...Array(20).fill(401), ...Array(10).fill(429)]);
    // Each refusal of the burst was looked up; past it, the issued accounts were read instead, once a call here (the
    // store reads them at most once a second), and no guess was looked up.
    expect(counts.lookUps).toBe(20);
    // The tenant behind the same address, whether this process knew its token or not.
    expect(await ask(access, accounts, tenant, "203.0.113.7")).toBe(200);
    expect(await ask(access, accounts, another, "203.0.113.7")).toBe(200);
    expect(await ask(access, accounts, invented(), "203.0.113.7")).toBe(429);
    // Another address has its own burst; a second brings this one's next refusal.
    expect(await ask(access, accounts, invented(), "203.0.113.8")).toBe(401);
    await clock.advance(1000);
    expect([await ask(access, accounts, invented(), "203.0.113.7"), await ask(access, accounts, invented(), "203.0.113.7")]).toEqual([
      401, 429,
    ]);
  });

  it("look up no more than the burst of guesses sent all at once", async () => {
    const access = new Access({ issuedOnly: true, clock: new ManualClock() });
    const { accounts, counts } = issuedAccounts([]);
    const statuses = await Promise.all(Array.from({ length: 200 }, () => ask(access, accounts, invented(), "203.0.113.9")));
    expect(counts.lookUps).toBe(20);
    expect([statuses.filter((s) => s === 401).length, statuses.filter((s) => s === 429).length]).toEqual([20, 180]);
  });

  it("count an IPv6 address by its /64, and an IPv4-mapped one as its IPv4 address", async () => {
    const access = new Access({ issuedOnly: true, clock: new ManualClock() });
    const { accounts, counts } = issuedAccounts([]);
    const statuses = [];
    for (let n = 1; n <= 50; n++) statuses.push(await ask(access, accounts, invented(), `2001:db8:7:1:${n.toString(16)}::${n}`));
    expect(statuses).toEqual([...Array(20).fill(401), ...Array(30).fill(429)]);
    expect(counts.lookUps).toBe(20);
    expect(await ask(access, accounts, invented(), "2001:db8:7:2::1")).toBe(401);
    for (let n = 0; n < 20; n++) await ask(access, accounts, invented(), "::ffff:198.51.100.9");
    expect(await ask(access, accounts, invented(), "198.51.100.9")).toBe(429);
  });

  it("key addresses as counted", () => {
    expect(
      ["2001:db8:7:1:ab::9", "2001:0DB8:0007:0001:ffff:ffff:ffff:ffff", "::ffff:10.1.2.3", "10.1.2.3", "::1", "fe80::1%eth0", ""].map(
        addressKey,
      ),
    ).toEqual(["2001:db8:7:1::/64", "2001:db8:7:1::/64", "10.1.2.3", "10.1.2.3", "0:0:0:0::/64", "fe80:0:0:0::/64", ""]);
  });

  it("key a payment page's rate the same way: one /64 is one customer", () => {
    const access = new Access({ ratePerSecond: 2, clock: new ManualClock() });
    expect([access.refusal({ client: "2001:db8:7:1::1" }), access.refusal({ client: "2001:db8:7:1::2" })]).toEqual([undefined, undefined]);
    expect(access.refusal({ client: "2001:db8:7:1::3" })?.status).toBe(429);
    expect(access.refusal({ client: "2001:db8:7:2::1" })).toBeUndefined();
  });
});

describe("a sandbox serving issued accounts behind a balancer, guessed at from a tenant's address", () => {
  const dir = mkdtempSync(path.join(tmpdir(), "payin-access-"));
  const db = path.join(dir, "sandbox.db");
  const clock = new ManualClock();
  let sandbox: RunningSandbox;
  let token: string;
  beforeAll(async () => {
    const operator = await Store.open({ file: db });
    ({ token } = await operator.accounts.issue("tenant"));
    await operator.close();
    sandbox = await startSandbox({ port: 0, db, accounts: "issued", clock, trustedProxies: ["127.0.0.0/8", "::1/128"] });
  });
  afterAll(async () => {
    await sandbox.close();
    rmSync(dir, { recursive: true, force: true });
  });
  afterEach(() => vi.restoreAllMocks());

  const from = (client: string, bearer: string) =>
    fetch(`${sandbox.url}/_sandbox/v1/requests`, { headers: { Authorization: `Bearer ${bearer}`, "X-Forwarded-For": client } });
  /** Counts the statements the sandbox's database runs from now on. */
  const statements = () => {
    const spies = (["run", "get", "all"] as const).map((name) => vi.spyOn(SqliteDatabase.prototype, name));
    return () => spies.reduce((sum, spy) => sum + spy.mock.calls.length, 0);
  };

  it("serves the tenant's token after 30 invented ones from its address, and the guesses past the burst cost no query each", async () => {
    const statuses = [];
    for (let n = 0; n < 20; n++) statuses.push((await from("198.51.100.20", invented())).status);
    const counted = statements();
    for (let n = 0; n < 10; n++) statuses.push((await from("198.51.100.20", invented())).status);
    // One read of the issued accounts at most, for all ten.
    expect(counted()).toBeLessThanOrEqual(1);
    expect(statuses).toEqual([...Array(20).fill(401), ...Array(10).fill(429)]);
    expect((await from("198.51.100.20", token)).status).toBe(200);
  });

  it("answers 429 past the burst to invented tokens from 50 addresses of one IPv6 /64", async () => {
    const statuses = [];
    for (let n = 1; n <= 50; n++) statuses.push((await from(`2001:db8:42:7:${n.toString(16)}::1`, invented())).status);
    expect(statuses).toEqual([...Array(20).fill(401), ...Array(30).fill(429)]);
    expect((await from("2001:db8:42:7:ffff::1", token)).status).toBe(200);
  });
});
