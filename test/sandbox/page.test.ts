// The payment page's HTML: what each session state shows, what it offers, and that nothing from a session escapes into markup.
import { readFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { generatedDir } from "../../scripts/lib/paths.ts";
import { DEFAULT_FAILURE_REASON, FAILURE_REASONS } from "../../src/sandbox/flow/failure-reasons.ts";
import { notFoundPage, paymentPage, type PageSession } from "../../src/sandbox/edge/page/render.ts";

const session: PageSession = {
  id: "ps_test_1",
  amount: 10,
  currency: "EUR",
  order_id: "ORD-417",
  source_url: "https://shop.example.com/checkout",
  redirect_url: "https://shop.example.com/return?order=417&x=1",
  expires_at: "2025-06-18T14:05:00Z",
  status: "created",
};

/** The page as the sandbox renders it, offering the reasons the sandbox offers. */
const page = (shown: PageSession, notice?: { failed?: string }) => paymentPage(shown, FAILURE_REASONS, notice);

const HOSTILE = `<script>alert("x")</script>'&`;

/** Every URL-carrying attribute in the markup, in order. */
const urlAttributes = (html: string) =>
  [...html.matchAll(/\b(href|src|action|srcset|poster|data)\s*=\s*"([^"]*)"/gi)].map((m) => `${m[1]}=${m[2]}`);

describe("the payment page", () => {
  it("is a complete, self-contained HTML5 document", () => {
    for (const html of [
      page(session),
      page({ ...session, status: "completed" }),
      page({ ...session, status: "expired" }),
      notFoundPage("ps_x"),
    ]) {
      expect(html.startsWith("<!doctype html>")).toBe(true);
      expect(html).toContain('<html lang="en">');
      expect(html).toContain('<meta name="viewport" content="width=device-width, initial-scale=1">');
      expect(html).toMatch(/<title>[^<]+<\/title>/);
      expect(html.match(/<style[\s>]/g)).toHaveLength(1);
      expect(html).not.toMatch(/<script/i);
      expect(html).not.toMatch(/<link[\s>]|<img[\s>]|<iframe|@import|url\(/i);
      expect(html).toContain("Test mode");
    }
  });

  it("shows the amount with its currency, the order, the merchant's host and the expiry", () => {
    const html = page(session);
    expect(html).toContain("€10.00");
    expect(html).toContain("ORD-417");
    expect(html).toContain("shop.example.com");
    expect(html).not.toContain("/checkout"); // the host only, not the merchant's whole URL
    expect(html).toContain('<time datetime="2025-06-18T14:05:00Z">18 June 2025, 14:05 UTC</time>');
    expect(page({ ...session, amount: 1234.5, currency: "USD" })).toContain("$1,234.50");
  });

  it("falls back to the bare amount and code for a currency Intl does not know", () => {
    expect(page({ ...session, amount: 7, currency: "NOPE1" })).toContain("7 NOPE1");
  });

  it("leaves out the order and the merchant when the session has none", () => {
    const { order_id: _order, source_url: _source, ...bare } = session;
    const html = page(bare);
    expect(html).not.toContain("<dt>Order</dt>");
    expect(html).not.toContain("<dt>Merchant</dt>");
  });

  it("offers Pay, and Fail with every failure reason, on an open session", () => {
    const html = page(session);
    expect(html).toContain('<form method="post" action="/pay/ps_test_1">');
    expect(html).toMatch(/<button type="submit"[^>]* name="outcome" value="pay">Pay<\/button>/);
    expect(html).toMatch(/<button type="submit"[^>]* name="outcome" value="fail">Fail<\/button>/);
    expect(html).toContain('<label for="failure_reason">');
    expect(html).toContain('<select id="failure_reason" name="failure_reason">');
    const values = [...html.matchAll(/<option value="([^"]+)"[^>]*>([^<]+)<\/option>/g)].map((m) => [m[1], m[2]]);
    expect(values).toEqual([
      ["card_declined", "Card declined"],
      ["insufficient_funds", "Insufficient funds"],
      ["authentication_failed", "Authentication failed"],
      ["processing_error", "Processing error"],
    ]);
    expect(values.map(([code]) => code)).toEqual([...FAILURE_REASONS]);
  });

  it("offers the reasons, and the default, the control API's simulate says it does", () => {
    const controlApi = JSON.parse(readFileSync(path.join(generatedDir, "sandbox.json"), "utf8"));
    const described: string = controlApi.components.schemas.SimulatePayment.properties.failure_reason.description;
    const named = described.match(/the payment page offers ([^)]*)\)/)![1]!;
    expect([...named.matchAll(/`(\w+)`/g)].map((m) => m[1])).toEqual([...FAILURE_REASONS]);
    expect(described).toContain(`Default \`${DEFAULT_FAILURE_REASON}\`.`);
  });

  it("encodes the session id into the form's action", () => {
    expect(page({ ...session, id: 'a/b?c"d' })).toContain('action="/pay/a%2Fb%3Fc%22d"');
  });

  it("shows the last failure above the form and keeps the form", () => {
    const html = page(session, { failed: "card_declined" });
    expect(html).toContain('role="alert"');
    expect(html).toContain("The payment failed (Card declined). The customer can try again.");
    expect(html.indexOf('role="alert"')).toBeLessThan(html.indexOf("<form"));
    expect(html).toContain('<option value="card_declined" selected>');
    expect(page(session)).not.toContain("The payment failed");
    expect(page(session, {})).not.toContain('role="alert"');
  });

  it("escapes a failure reason it does not know", () => {
    const html = page(session, { failed: HOSTILE });
    expect(html).toContain("The payment failed (&lt;script&gt;alert(&quot;x&quot;)&lt;/script&gt;&#39;&amp;).");
    expect(html).not.toContain("<script");
  });

  it("shows a completed session as paid, with no form and no button, and a way back to the shop", () => {
    const html = page({ ...session, status: "completed" });
    expect(html).toContain("Payment completed");
    expect(html).not.toMatch(/<form|<button|<select/);
    expect(html).toContain('<a class="btn primary" href="https://shop.example.com/return?order=417&amp;x=1">Back to the shop</a>');
    expect(html).not.toContain("The payment failed");
  });

  it("shows an expired session as expired, with no form and no button", () => {
    const html = page({ ...session, status: "expired" }, { failed: "card_declined" });
    expect(html).toContain("Payment link expired");
    expect(html).not.toMatch(/<form|<button|<select/);
    expect(html).not.toContain("The payment failed");
  });

  it("escapes every value from the session", () => {
    const hostile = page({ ...session, id: HOSTILE, order_id: HOSTILE, currency: HOSTILE, source_url: `https://"><script>/` });
    expect(hostile).not.toMatch(/<script/i);
    expect(hostile).toContain("&lt;script&gt;alert(&quot;x&quot;)&lt;/script&gt;&#39;&amp;");
    // A hostile redirect_url stays one attribute value.
    const paid = page({ ...session, status: "completed", redirect_url: `https://x.example/"><script>` });
    expect(paid).not.toMatch(/<script/i);
    expect(urlAttributes(paid)).toEqual(["href=https://x.example/&quot;&gt;&lt;script&gt;"]);
    for (const status of ["completed", "expired"] as const) {
      expect(page({ ...session, status, order_id: HOSTILE })).not.toMatch(/<script/i);
    }
    expect(page({ ...session, expires_at: HOSTILE })).not.toMatch(/<script/i);
  });

  it("links nowhere but the session's redirect_url, and only a web URL", () => {
    expect(urlAttributes(page(session))).toEqual(["action=/pay/ps_test_1"]);
    expect(urlAttributes(page({ ...session, status: "completed" }))).toEqual(["href=https://shop.example.com/return?order=417&amp;x=1"]);
    expect(urlAttributes(page({ ...session, status: "expired" }))).toEqual(["href=https://shop.example.com/return?order=417&amp;x=1"]);

    const scheming = page({
      ...session,
      status: "completed",
      redirect_url: "javascript:alert(1)",
      source_url: "javascript:alert(2)",
    });
    expect(urlAttributes(scheming)).toEqual([]);
    expect(scheming).not.toContain("javascript:");
    expect(page({ ...session, source_url: "data:text/html,hi" })).not.toContain("data:text");
  });
});

describe("the not-found page", () => {
  it("names the unknown id, escaped, and offers nothing to do", () => {
    const html = notFoundPage("ps_missing");
    expect(html).toContain("Payment not found");
    expect(html).toContain("ps_missing");
    expect(html).not.toMatch(/<form|<button/);
    expect(urlAttributes(html)).toEqual([]);

    const hostile = notFoundPage(HOSTILE);
    expect(hostile).not.toMatch(/<script/i);
    expect(hostile).toContain("&lt;script&gt;alert(&quot;x&quot;)&lt;/script&gt;&#39;&amp;");
  });
});

// The page as a whole, byte for byte: its look was judged in Chromium (page.browser.test.ts keeps
// the screenshots), and this file makes any change to it, CSS and icons included, a reviewed
// one. The style sheet every state shares is kept once, at the top.
describe("the payment page, as last reviewed", () => {
  it("renders every state unchanged", async () => {
    const states = {
      open: page(session),
      "failed attempt": page(session, { failed: "insufficient_funds" }),
      completed: page({ ...session, status: "completed" }),
      expired: page({ ...session, status: "expired" }),
      "without order or merchant, in yen": page({
        ...session,
        order_id: undefined,
        source_url: undefined,
        currency: "JPY",
        amount: 1200,
      }),
      "not found": notFoundPage("ps_unknown"),
    };
    const style = /<style>[\s\S]*?<\/style>/.exec(states.open)![0];
    const parts = Object.entries(states).map(([name, html]) => {
      expect(html, name).toContain(style);
      return `<!-- ${name} -->\n${html.replace(style, "<style>(the style sheet above)</style>")}`;
    });
    await expect([`<!-- the style sheet of every state -->\n${style}`, ...parts].join("\n")).toMatchFileSnapshot(
      "./__snapshots__/payment-page.html",
    );
  });
});

describe("the payment page's details", () => {
  it("names every month of the expiry in English, whatever the locale", () => {
    const monthName = new Intl.DateTimeFormat("en", { month: "long", timeZone: "UTC" });
    for (let month = 0; month < 12; month++) {
      const expires = new Date(Date.UTC(2025, month, 18, 14, 5));
      expect(page({ ...session, expires_at: expires.toISOString() })).toContain(`18 ${monthName.format(expires)} 2025, 14:05 UTC`);
    }
  });

  it("shows an expiry it cannot read as it was given, not as NaN", () => {
    const html = page({ ...session, expires_at: "soon" });
    expect(html).toContain(">soon</time>");
    expect(html).not.toContain("NaN");
  });

  it("links back over http as well as https, and never to a URL that only contains one", () => {
    const plain = page({ ...session, status: "completed", redirect_url: "http://localhost:3000/return" });
    expect(plain).toContain('href="http://localhost:3000/return"');
    const smuggled = page({ ...session, status: "completed", redirect_url: "javascript:alert(1)//https://shop.example.com" });
    expect(smuggled).not.toContain("javascript:");
    expect(smuggled).not.toContain("Back to the shop");
  });
});
