// Who may use a hosted sandbox, and how much: --min-token-length refuses guessable tokens with
// 401 naming the minimum, on every operation and at the dashboard's sign-in; --rate-limit turns
// one token's burst beyond its rate away with the contract's 429 and Retry-After, while another
// token at the same time is served, and so does the dashboard and, by address, the payment page.
// The sandbox's clock is the test's: the rate is seen the same however busy the machine is.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startSandbox, type RunningSandbox } from "../../src/sandbox/index.ts";
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
    const page = await (await fetch(new URL(signIn.headers.get("location")!, sandbox.url))).text();
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
