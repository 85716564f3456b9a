// The payment page over HTTP, as a form post reaches it: what each answer is, and what it did.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startSandbox, type RunningSandbox } from "../../src/sandbox/index.ts";
import { accountOn } from "../support/sandbox-account.ts";

let sandbox: RunningSandbox;
beforeAll(async () => {
  sandbox = await startSandbox({ port: 0 });
});
afterAll(() => sandbox.close());

const post = (link: string, form: Record<string, string> | string) =>
  fetch(link, {
    method: "POST",
    redirect: "manual",
    headers: { "Content-Type": "application/x-www-form-urlencoded" },
    body: typeof form === "string" ? form : new URLSearchParams(form).toString(),
  });

describe("the payment page", () => {
  it("is served at payment_link without a token, as HTML that may load nothing from anywhere", async () => {
    const session = await accountOn(sandbox.url).session();
    expect(session.payment_link).toBe(`${sandbox.url}/pay/${session.id}`);
    const res = await fetch(session.payment_link);
    expect(res.status).toBe(200);
    expect(res.headers.get("content-type")).toBe("text/html; charset=utf-8");
    expect(res.headers.get("content-security-policy")).toBe(
      "default-src 'none'; style-src 'unsafe-inline'; img-src data:; frame-ancestors 'none'",
    );
    // A page that shows a payment's state must not be served from a cache.
    expect(res.headers.get("cache-control")).toBe("no-store");
    const head = await fetch(session.payment_link, { method: "HEAD" });
    expect(head.status).toBe(200);
    expect(head.headers.get("content-length")).toBe(res.headers.get("content-length"));
    const html = await res.text();
    expect(html).toContain("€10.00");
    expect(html).toContain(`action="/pay/${session.id}"`);
  });

  it("answers an unknown session with the 404 page", async () => {
    const res = await fetch(`${sandbox.url}/pay/ps_nobody`);
    expect(res.status).toBe(404);
    expect(await res.text()).toContain("ps_nobody");
    expect((await post(`${sandbox.url}/pay/ps_nobody`, { outcome: "pay" })).status).toBe(404);
    expect((await fetch(`${sandbox.url}/pay/a/b`)).status).toBe(404);
  });

  it("pays: 303 to redirect_url, the session completed, and a second Pay refused with 409", async () => {
    const account = accountOn(sandbox.url);
    const session = await account.session({ redirect_url: "https://shop.example.com/orders/7/thanks" });
    const res = await post(session.payment_link, { outcome: "pay", failure_reason: "card_declined" });
    expect(res.status).toBe(303);
    expect(res.headers.get("location")).toBe("https://shop.example.com/orders/7/thanks");
    expect(res.headers.get("cache-control")).toBe("no-store");
    expect((await account.call("GET", `/_sandbox/v1/payment-sessions/${session.id}`)).body.status).toBe("completed");
    const again = await post(session.payment_link, { outcome: "pay" });
    expect(again.status).toBe(409);
    expect(await again.text()).not.toContain("<form");
  });

  it("fails with the chosen reason: 303 back to the page, which says so and still offers Pay", async () => {
    const account = accountOn(sandbox.url);
    const session = await account.session();
    const res = await post(session.payment_link, { outcome: "fail", failure_reason: "insufficient_funds" });
    expect(res.status).toBe(303);
    expect(res.headers.get("location")).toBe(`/pay/${session.id}?failed=insufficient_funds`);
    const page = await (await fetch(sandbox.url + res.headers.get("location"))).text();
    expect(page).toContain('<div class="notice" role="alert">');
    expect(page).toContain("The payment failed (Insufficient funds).");
    expect(page).toContain("<form");
    expect((await account.call("GET", `/_sandbox/v1/payment-sessions/${session.id}`)).body.status).toBe("created");
  });

  it("refuses a form that simulate's schema refuses with 400, and one over 64 KiB with 413, and does nothing", async () => {
    const account = accountOn(sandbox.url);
    const session = await account.session();
    const forms: Array<Record<string, string> | string> = [
      { outcome: "refund" },
      { outcome: "refund", failure_reason: "card_declined" },
      { outcome: "fail", failure_reason: "<script>" },
      {},
    ];
    for (const form of forms) expect((await post(session.payment_link, form)).status).toBe(400);
    expect((await post(session.payment_link, "x".repeat(70 * 1024))).status).toBe(413);
    expect((await account.call("GET", `/_sandbox/v1/payment-sessions/${session.id}`)).body.status).toBe("created");
    expect((await fetch(session.payment_link + "?failed=<b>")).status).toBe(200);
    expect(await (await fetch(session.payment_link + "?failed=<b>")).text()).not.toContain("payment failed");
  });

  it("answers another method with 405 and Allow", async () => {
    const session = await accountOn(sandbox.url).session();
    const res = await fetch(session.payment_link, { method: "DELETE" });
    expect(res.status).toBe(405);
    expect(res.headers.get("allow")).toBe("GET, HEAD, POST");
  });

  it("shows an expired session as expired once the account's clock passes expires_at, with no form", async () => {
    const account = accountOn(sandbox.url);
    const session = await account.session();
    await account.advance(3600);
    const res = await fetch(session.payment_link);
    const html = await res.text();
    expect(html).not.toContain("<form");
    expect(html.toLowerCase()).toContain("expired");
    expect((await post(session.payment_link, { outcome: "pay" })).status).toBe(409);
  });
});
