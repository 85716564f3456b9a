// The payment page behind every payment_link in a real browser: Chromium opens the link, the
// customer pays or fails with the page's own form, and the browser lands where the session says
// (a shop on loopback). What the page showed must be what the sandbox then holds and delivers,
// and the page must load nothing from another host and run without errors.
import { mkdirSync } from "node:fs";
import { createServer, type Server } from "node:http";
import path from "node:path";
import type { Browser, BrowserContext, Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { root } from "../../scripts/lib/paths.ts";
import { startSandbox, type RunningSandbox } from "../../src/sandbox/index.ts";
import { FAILURE_REASONS } from "../../src/sandbox/flow/failure-reasons.ts";
import { accountOn } from "../support/sandbox-account.ts";
import { launchChromium, skipBrowserTests } from "../support/chromium.ts";
import { startReceiver, type Receiver } from "../support/receiver.ts";

const skip = skipBrowserTests("test/sandbox/page.browser", "the payment page in a browser");

const screenshots = path.join(root, "test-results", "sandbox");
const DESKTOP = { width: 1280, height: 800 };
const PHONE = { width: 375, height: 740 };
const UNKNOWN_ID = "ps_doesNotExist00";

/** The shop the customer comes back to: answers every GET with a small "thanks" page and keeps what it was asked. */
interface Shop {
  url: string;
  requests: string[];
  close(): Promise<void>;
}

async function startShop(): Promise<Shop> {
  const requests: string[] = [];
  const server: Server = createServer((req, res) => {
    requests.push(`${req.method} ${req.url}`);
    req.resume();
    if (req.url?.startsWith("/thanks")) {
      const html =
        '<!doctype html><html lang="en"><head><meta charset="utf-8"><title>Thanks</title><link rel="icon" href="data:,"></head>' +
        "<body><h1>Thanks for your order</h1></body></html>";
      res.writeHead(200, { "Content-Type": "text/html; charset=utf-8", "Content-Length": String(Buffer.byteLength(html)) });
      return res.end(html);
    }
    res.writeHead(404, { "Content-Length": "0" }).end();
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as { port: number }).port}`,
    requests,
    close: () =>
      new Promise((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      }),
  };
}

/** What a page did while the test looked at it. */
interface Visit {
  name: string;
  page: Page;
  /** Every URL the page asked for, in order. */
  requests: string[];
  errors: string[];
}

let sandbox: RunningSandbox;
let endpoint: Receiver;
let shop: Shop;
let browser: Browser;
let context: BrowserContext;
const visits: Visit[] = [];

async function open(name: string): Promise<Visit> {
  const page = await context.newPage();
  const visit: Visit = { name, page, requests: [], errors: [] };
  visits.push(visit);
  page.on("request", (request) => visit.requests.push(request.url()));
  page.on("pageerror", (error) => visit.errors.push(`${name}: ${error.message}`));
  page.on("console", (message) => {
    if (message.type() === "error") visit.errors.push(`${name}: console: ${message.text()} @ ${message.location().url}`);
  });
  return visit;
}

async function screenshot(page: Page, name: string) {
  await page.screenshot({ path: path.join(screenshots, `${name}.png`), fullPage: true });
}

/** An account with the endpoint registered, a session whose redirect_url is the shop, and the events delivered for it. */
async function merchant() {
  const account = accountOn(sandbox.url);
  await account.register(endpoint.url);
  let orders = 0;
  const session = async () => {
    const order = `ORD-${crypto.randomUUID().slice(0, 8)}-${++orders}`;
    return account.session({
      order_id: order,
      redirect_url: `${shop.url}/thanks?order=${order}`,
      source_url: "https://shop.example.com/checkout",
    });
  };
  const received = (sessionId: string) =>
    endpoint.attempts
      .filter((a) => a.status >= 200 && a.status < 300)
      .map((a) => JSON.parse(a.body))
      .filter((event) => event.data.session_id === sessionId);
  /** The session's delivered events once one of `type` is among them. */
  const until = async (sessionId: string, type: string) => {
    for (let i = 0; i < 500 && !received(sessionId).some((e) => e.type === type); i++) await new Promise((r) => setTimeout(r, 10));
    return received(sessionId);
  };
  const sandboxSession = async (id: string) => (await account.call("GET", `/_sandbox/v1/payment-sessions/${id}`)).body;
  return { ...account, session, received, until, sandboxSession };
}

/** The expiry as a reader expects it, from the session's RFC 3339 time: "23 November 2026, 09:48 UTC". */
function expiryText(iso: string) {
  const date = new Date(iso);
  const day = date.toLocaleDateString("en-GB", { timeZone: "UTC", day: "numeric", month: "long", year: "numeric" });
  const time = date.toLocaleTimeString("en-GB", { timeZone: "UTC", hour: "2-digit", minute: "2-digit", hour12: false });
  return `${day}, ${time} UTC`;
}

const text = (page: Page) => page.locator("body").innerText();
const payButton = (page: Page) => page.locator('button[name="outcome"][value="pay"]');
const failButton = (page: Page) => page.locator('button[name="outcome"][value="fail"]');

describe.skipIf(skip)("the payment page in Chromium", () => {
  beforeAll(async () => {
    mkdirSync(screenshots, { recursive: true });
    [sandbox, endpoint, shop] = await Promise.all([startSandbox({ port: 0 }), startReceiver(), startShop()]);
    browser = await launchChromium("the payment page");
    context = await browser.newContext({ viewport: DESKTOP });
  }, 60_000);

  afterAll(async () => {
    await browser?.close();
    await Promise.all([sandbox?.close(), endpoint?.close(), shop?.close()]);
  });

  it("shows the session, pays, lands on redirect_url, and the sandbox then holds and delivers the payment", async () => {
    const m = await merchant();
    const session = await m.session();
    expect(session.payment_link).toBe(`${sandbox.url}/pay/${session.id}`);
    const { page } = await open("pay");

    const response = await page.goto(session.payment_link, { waitUntil: "load" });
    expect(response?.status()).toBe(200);
    expect(await page.title()).toBe("Pay €10.00 · Payin sandbox");
    const shown = await text(page);
    expect(shown).toContain("€10.00");
    expect(shown).toContain(session.order_id);
    expect(shown).toContain("Payment to shop.example.com");
    expect(shown).not.toContain("/checkout"); // the merchant's host, not its URL
    expect(shown).toContain(session.id);
    expect(shown).toContain("Open");
    const expires = page.locator("dl.details time");
    expect(await expires.getAttribute("datetime")).toBe(session.expires_at);
    expect(await expires.innerText()).toBe(expiryText(session.expires_at));
    await expect.poll(() => payButton(page).isVisible()).toBe(true);
    expect(await failButton(page).isVisible()).toBe(true);
    expect(
      await page.locator("select#failure_reason option").evaluateAll((options) => options.map((o) => (o as HTMLOptionElement).value)),
    ).toEqual([...FAILURE_REASONS]);

    // Desktop: the reason and Fail side by side. Phone: stacked, nothing wider than the screen.
    const [select, fail] = [await page.locator("select#failure_reason").boundingBox(), await failButton(page).boundingBox()];
    expect(fail!.x).toBeGreaterThan(select!.x + select!.width - 1);
    expect(Math.abs(fail!.y - select!.y)).toBeLessThan(8);
    await screenshot(page, "page-open-desktop");
    await page.setViewportSize(PHONE);
    const [phoneSelect, phoneFail] = [await page.locator("select#failure_reason").boundingBox(), await failButton(page).boundingBox()];
    expect(phoneFail!.y).toBeGreaterThan(phoneSelect!.y + phoneSelect!.height - 1);
    expect(Math.abs(phoneFail!.width - phoneSelect!.width)).toBeLessThan(2);
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(PHONE.width);
    expect(await payButton(page).isVisible()).toBe(true);
    await screenshot(page, "page-open-phone");
    await page.setViewportSize(DESKTOP);

    // Pay: a form POST, a 303, and the browser at the shop's thanks page.
    await payButton(page).click();
    await page.waitForURL(session.redirect_url);
    expect(page.url()).toBe(session.redirect_url);
    expect(await page.locator("h1").innerText()).toBe("Thanks for your order");
    expect(shop.requests).toContain(`GET /thanks?order=${session.order_id}`);
    await screenshot(page, "page-paid-redirect");

    // The sandbox agrees: the session is completed, its transaction completed, the events delivered.
    expect((await m.sandboxSession(session.id)).status).toBe("completed");
    const events = await m.until(session.id, "session-completed");
    expect(events.map((e) => e.type)).toEqual(["session-created", "transaction-created", "transaction-completed", "session-completed"]);
    const completed = events.find((e) => e.type === "transaction-completed")!;
    const transaction = await m.transaction(completed.data.transaction_id);
    expect(transaction.status).toBe(200);
    expect(transaction.body).toMatchObject({
      status: "completed",
      session_id: session.id,
      amount: 10,
      currency: "EUR",
      order_id: session.order_id,
    });
    const deliveries = await m.deliveries();
    expect(deliveries.filter((d) => d.event_type === "session-completed" && d.status === "succeeded")).toHaveLength(1);

    // The link now shows the paid state and offers no second payment.
    await page.goto(session.payment_link, { waitUntil: "load" });
    expect(await page.title()).toBe("Payment completed · Payin sandbox");
    const paid = await text(page);
    expect(paid).toContain("Payment completed");
    expect(paid).toContain("Paid");
    expect(paid).toContain("€10.00");
    expect(await page.locator("form").count()).toBe(0);
    expect(await payButton(page).count()).toBe(0);
    expect(await page.getByRole("link", { name: "Back to the shop" }).getAttribute("href")).toBe(session.redirect_url);
    await screenshot(page, "page-completed");
    await page.close();
  });

  it("fails with the chosen reason: the page says so and still offers Pay; transaction-failed carries the reason", async () => {
    const m = await merchant();
    const session = await m.session();
    const { page } = await open("fail");
    await page.goto(session.payment_link, { waitUntil: "load" });
    expect(await page.locator('[role="alert"]').count()).toBe(0);

    await page.selectOption("select#failure_reason", "insufficient_funds");
    await failButton(page).click();
    await page.waitForURL(`${session.payment_link}?failed=insufficient_funds`);
    const alert = page.getByRole("alert");
    expect(await alert.innerText()).toBe("The payment failed (Insufficient funds). The customer can try again.");
    expect(await page.locator("select#failure_reason").inputValue()).toBe("insufficient_funds");
    expect(await payButton(page).isVisible()).toBe(true);
    expect(await failButton(page).isVisible()).toBe(true);
    expect(await text(page)).toContain("Open");
    await screenshot(page, "page-failed");

    const events = await m.until(session.id, "transaction-failed");
    expect(events.map((e) => e.type)).toEqual(["session-created", "transaction-created", "transaction-failed"]);
    const failed = events[2];
    expect(failed.data).toMatchObject({
      status: "failed",
      failure_reason: "insufficient_funds",
      session_id: session.id,
      order_id: session.order_id,
    });
    expect((await m.transaction(failed.data.transaction_id)).body).toMatchObject({
      status: "failed",
      failure_reason: "insufficient_funds",
    });
    expect((await m.sandboxSession(session.id)).status).toBe("created");
    await page.close();
  });

  it("shows an expired session as expired, with no form, and an unknown id as the 404 page", async () => {
    const m = await merchant();
    const session = await m.session();
    expect((await m.advance(3600)).status).toBe(200);
    const { page } = await open("expired");

    const response = await page.goto(session.payment_link, { waitUntil: "load" });
    expect(response?.status()).toBe(200);
    expect(await page.title()).toBe("Payment expired · Payin sandbox");
    const shown = await text(page);
    expect(shown).toContain("Payment link expired");
    expect(shown).toContain("Expired");
    expect(shown).toContain("€10.00");
    expect(await page.locator("dl.details time").innerText()).toBe(expiryText(session.expires_at));
    expect(await page.locator("form").count()).toBe(0);
    expect(await payButton(page).count()).toBe(0);
    expect(await failButton(page).count()).toBe(0);
    expect(await page.getByRole("link", { name: "Back to the shop" }).getAttribute("href")).toBe(session.redirect_url);
    expect((await m.sandboxSession(session.id)).status).toBe("expired");
    await screenshot(page, "page-expired");

    const unknown = UNKNOWN_ID;
    const missingPage = await page.goto(`${sandbox.url}/pay/${unknown}`, { waitUntil: "load" });
    expect(missingPage?.status()).toBe(404);
    expect(missingPage?.headers()["content-type"]).toBe("text/html; charset=utf-8");
    expect(await page.title()).toBe("Payment not found · Payin sandbox");
    const notFound = await text(page);
    expect(notFound).toContain("Payment not found");
    expect(notFound).toContain(unknown);
    expect(await page.locator("form").count()).toBe(0);
    await screenshot(page, "page-not-found");
    await page.close();
  });

  it("loads nothing from another host and runs without errors, through fail, pay and every page before", async () => {
    const m = await merchant();
    const session = await m.session();
    const visit = await open("whole flow");
    const { page } = visit;
    await page.goto(session.payment_link, { waitUntil: "load" });
    await page.selectOption("select#failure_reason", "card_declined");
    await failButton(page).click();
    await page.waitForURL(`${session.payment_link}?failed=card_declined`);
    const beforePay = visit.requests.length;
    await payButton(page).click();
    await page.waitForURL(session.redirect_url);
    await page.waitForLoadState("load");

    const sandboxOrigin = new URL(sandbox.url).origin;
    const shopOrigin = new URL(shop.url).origin;
    // Until Pay, only the sandbox; after it, the redirect's target on the shop too.
    expect(visit.requests.slice(0, beforePay).filter((url) => new URL(url).origin !== sandboxOrigin)).toEqual([]);
    expect(visit.requests.slice(beforePay).filter((url) => ![sandboxOrigin, shopOrigin].includes(new URL(url).origin))).toEqual([]);
    expect(visit.requests).toContain(session.payment_link);
    expect(visit.requests).toContain(session.redirect_url);

    // Every page of every test: the page's own origin, the shop only as a redirect target.
    for (const { name, requests } of visits)
      expect(
        requests.filter((url) => ![sandboxOrigin, shopOrigin].includes(new URL(url).origin)),
        name,
      ).toEqual([]);
    // Chromium logs the 404 page's own status as a failed load; that one is what test 3 asked for.
    const notFoundLoad = (error: string) =>
      error.startsWith("expired: console: Failed to load resource") && error.endsWith(`@ ${sandbox.url}/pay/${UNKNOWN_ID}`);
    expect(visits.flatMap((v) => v.errors).filter((error) => !notFoundLoad(error))).toEqual([]);
    await page.close();
  });
});
