// Who may use a hosted sandbox, and how much (issue 43): --min-token-length refuses guessable
// tokens with 401 naming the minimum, on every operation and at the dashboard's sign-in;
// --rate-limit turns one token's burst beyond its rate away with the contract's 429 and
// Retry-After, while another token at the same time is served.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startSandbox, type RunningSandbox } from "../../src/sandbox/index.ts";
import { accountOn } from "../support/sandbox-account.ts";

describe("a sandbox with --min-token-length 24 and --rate-limit 20", () => {
  let sandbox: RunningSandbox;
  beforeAll(async () => {
    sandbox = await startSandbox({ port: 0, minTokenLength: 24, rateLimitPerSecond: 20 });
  });
  afterAll(() => sandbox.close());
  const token = () => `tok_${crypto.randomUUID()}`;

  it("refuses a token shorter than 24 characters with 401 naming the minimum, on the contract and the control API", async () => {
    for (const route of ["/webhooks", "/_sandbox/v1/deliveries"]) {
      const res = await fetch(sandbox.url + route, { headers: { Authorization: "Bearer test" } });
      expect([res.status, res.headers.get("www-authenticate"), (await res.json()).detail]).toEqual([
        401,
        'Bearer realm="payin", error="invalid_token"',
        "This sandbox takes bearer tokens of at least 24 characters, so that no one finds an account by guessing; this one has 4.",
      ]);
    }
    expect((await accountOn(sandbox.url, token()).call("GET", "/webhooks")).status).toBe(404);
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
    const [busy, calm] = [token(), token()];
    const get = (t: string) => fetch(`${sandbox.url}/webhooks`, { headers: { Authorization: `Bearer ${t}` } });
    const calmAnswers: number[] = [];
    const calmRun = (async () => {
      for (let i = 0; i < 10; i++) calmAnswers.push((await get(calm)).status);
    })();
    const answers = await Promise.all(Array.from({ length: 200 }, () => get(busy)));
    await calmRun;
    const limited = answers.filter((res) => res.status === 429);
    expect(answers.length - limited.length).toBeGreaterThanOrEqual(20);
    expect(limited.length).toBeGreaterThanOrEqual(150);
    const first = limited[0]!;
    expect([first.headers.get("retry-after"), (await first.json()).code]).toEqual(["1", "rate_limited"]);
    expect(calmAnswers).toEqual(Array(10).fill(404));
    // A second later the bucket has filled again.
    await new Promise((resolve) => setTimeout(resolve, 1000));
    expect((await get(busy)).status).toBe(404);
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
