// The sandbox dashboard in Chromium, at a desktop's width and a phone's: sign in with a token, see a
// session with its order and customer, press Pay, see its events delivered; one tap on an event
// shows what its attempt sent (the body, the signature header) and what came back; Resend brings
// the reader back to that event with the new attempt; the filter's form narrows the list. No
// control lies outside the window, nothing overflows it, a link's underline leaves its id's
// underscores visible, nothing errs in the console, and another token's browser sees nothing of the first.
// The longest values the contract allows (an order, a name, an email, a webhook URL) widen nothing either.
import { mkdirSync } from "node:fs";
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import path from "node:path";
import type { Browser, BrowserContextOptions, Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { root } from "../../scripts/lib/paths.ts";
import { startSandbox, type RunningSandbox } from "../../src/sandbox/index.ts";
import { verifyWebhook } from "../../src/webhooks/index.ts";
import { newCounterparty } from "../../src/conformance/fixtures.ts";
import { hiddenUnderscore } from "../docs/underscores.ts";
import { launchChromium, skipBrowserTests } from "../support/chromium.ts";
import { accountOn } from "../support/sandbox-account.ts";

const skip = skipBrowserTests("test/sandbox/dashboard.browser", "the sandbox dashboard in a browser");
const screenshots = path.join(root, "test-results", "dashboard");
/** What the receiver answers every delivery: markup, which the page must show as text. */
const ANSWER = "<b>ok</b> received";

let sandbox: RunningSandbox;
let endpoint: { server: Server; url: string };
let browser: Browser;

describe.skipIf(skip)("the sandbox dashboard in a browser", () => {
  beforeAll(async () => {
    mkdirSync(screenshots, { recursive: true });
    sandbox = await startSandbox({ port: 0 });
    const server = createServer((req, res) =>
      req.resume().on("end", () => res.writeHead(200, { "Content-Type": "text/html" }).end(ANSWER)),
    );
    await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
    endpoint = { server, url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/hook` };
    browser = await launchChromium("the sandbox dashboard");
  }, 60_000);
  afterAll(async () => {
    await browser?.close();
    await sandbox?.close();
    endpoint?.server.close();
  });

  /** A new browser (its own cookies) at `viewport`, as `device`, signed in with `token`, and the console errors it saw. */
  async function signIn(token: string, viewport: { width: number; height: number }, device: BrowserContextOptions = {}) {
    const page = await (await browser.newContext({ viewport, ...device })).newPage();
    const errors: string[] = [];
    page.on("console", (m) => m.type() === "error" && errors.push(m.text()));
    page.on("pageerror", (error) => errors.push(error.message));
    await page.goto(`${sandbox.url}/_sandbox/dashboard`);
    await page.getByLabel("Token").fill(token);
    await page.getByRole("button", { name: "Open" }).click();
    await page.waitForSelector("text=Payment sessions");
    return { page, errors };
  }
  /** How far the page is wider than `width`: a phone's browser widens its layout to fit what overflows, so the width is given. */
  const overflow = (page: Page, width: number) => page.evaluate(() => document.documentElement.scrollWidth).then((w) => w - width);
  /** Each control a reader can reach (by scrolling down, never across) that lies outside the window's width. */
  const outside = (page: Page, width: number) =>
    page.evaluate(
      (width) =>
        [...document.querySelectorAll("a, button, input, select, summary")]
          .filter((control) => control.checkVisibility())
          .filter((control) => control.getBoundingClientRect().left < 0 || control.getBoundingClientRect().right > width)
          .map((control) => control.outerHTML.slice(0, 120)),
      width,
    );
  /** The request an attempt shows: its URL, its headers and its body. */
  function request(shown: string) {
    const [head, body] = shown.split("\n\n") as [string, string];
    const [line, ...headers] = head.split("\n");
    return { url: line!.replace(/^POST /, ""), headers: Object.fromEntries(headers.map((h) => h.split(": ") as [string, string])), body };
  }

  it.each<[string, { width: number; height: number }, BrowserContextOptions]>([
    ["desktop", { width: 1280, height: 800 }, {}],
    ["phone", { width: 390, height: 844 }, { isMobile: true, hasTouch: true }],
  ])(
    "on a %s: a session, Pay, an event's delivery in one tap, Resend back to it, the filter; every control inside the window",
    async (name, viewport, device) => {
      const account = accountOn(sandbox.url);
      const secret = await account.register(endpoint.url);
      const session = await account.session();
      const { page, errors } = await signIn(account.token, viewport, device);
      const row = page.locator("tr", { hasText: session.id });
      // The session as a developer finds it: its order, its customer, what it charges.
      const seen = await row.innerText();
      for (const fact of [session.order_id, "Ana Conformance", "@example.com", "€10.00"]) expect(seen).toContain(fact);
      expect(await outside(page, viewport.width)).toEqual([]);
      await row.getByRole("button", { name: "Pay" }).click();
      await page.waitForSelector(`text=Session ${session.id}: paid.`);
      await page.getByLabel("Advance by").fill("1");
      await page.getByRole("button", { name: "Advance" }).click();
      await page.waitForSelector("text=The clock moved 1 s.");
      const kinds = await page.locator("ol.events .kind").allInnerTexts();
      expect(kinds.toSorted()).toEqual(["session-completed", "session-created", "transaction-completed", "transaction-created"]);
      expect(await overflow(page, viewport.width)).toBeLessThanOrEqual(0);
      await page.screenshot({ path: path.join(screenshots, `${name}.png`), fullPage: true });

      // One tap on the event's id: the request its attempt sent, the signature header and the body, and the answer.
      const event = page.locator("ol.events > li", { hasText: "transaction-completed" });
      const id = event.locator("summary a");
      await (device.hasTouch ? id.tap() : id.click());
      const sent = event.locator(".delivery pre").first();
      await expect.poll(() => sent.isVisible()).toBe(true);
      const shown = request(await sent.innerText());
      expect(shown.url).toBe(endpoint.url);
      expect(shown.headers["webhook-signature"]).toMatch(/^v1,/);
      await expect(verifyWebhook(shown.body, shown.headers, secret)).resolves.toMatchObject({
        id: await id.innerText(),
        type: "transaction-completed",
        data: { session_id: session.id },
      });
      expect(await event.locator(".delivery").innerText()).toMatch(new RegExp(`200 in \\d+ ms\\n+Its body's first bytes:\\n+${ANSWER}`));
      expect(await outside(page, viewport.width)).toEqual([]);
      expect(await overflow(page, viewport.width)).toBeLessThanOrEqual(0);
      await page.screenshot({ path: path.join(screenshots, `${name}-delivery.png`) });

      // Resend: back at the event, its message on the screen, the new attempt first.
      await event.getByRole("button", { name: "Resend" }).click();
      await page.waitForURL(/#msg_/);
      const said = page.locator("details[open] .delivery .note");
      expect(await said.innerText()).toMatch(/ sent again: attempt #2 succeeded \(200\), to /);
      const box = (await said.boundingBox())!;
      expect([box.y >= 0, box.y + box.height <= viewport.height]).toEqual([true, true]);
      expect(await page.locator("details[open] ol.attempts h4").first().innerText()).toMatch(/^#2 succeeded/);
      expect(await outside(page, viewport.width)).toEqual([]);
      await page.screenshot({ path: path.join(screenshots, `${name}-resent.png`) });

      // The filter's form: the delivered events of one type.
      await page.getByLabel("Type").selectOption("session-created");
      await page.getByLabel("Outcome").selectOption("delivered");
      await page.getByRole("button", { name: "Filter" }).click();
      await page.waitForURL(/\?type=session-created&outcome=delivered/);
      expect(await page.locator("ol.events .kind").allInnerTexts()).toEqual(["session-created"]);
      expect(await outside(page, viewport.width)).toEqual([]);
      // Last: it writes a space into an id to compare with.
      expect(await hiddenUnderscore(page, { spaced: true })).toBeUndefined();
      expect(errors).toEqual([]);

      // Another token's browser, once: what it sees does not depend on the width.
      if (name !== "desktop") return;
      const other = await signIn(`other-${crypto.randomUUID()}`, viewport);
      expect(await other.page.locator("main").innerText()).not.toContain(session.id);
      await other.page.screenshot({ path: path.join(screenshots, `${name}-other-token.png`), fullPage: true });
    },
  );

  it.each<[string, { width: number; height: number }, BrowserContextOptions]>([
    ["desktop", { width: 1280, height: 800 }, {}],
    ["phone", { width: 390, height: 844 }, { isMobile: true, hasTouch: true }],
  ])("on a %s: the longest order, name, email and webhook URL the contract allows widen no view", async (name, viewport, device) => {
    const account = accountOn(sandbox.url);
    // Unbroken text, which no space lets wrap: the contract's lengths at most (128, 100, 254, a long query).
    const order = `ORD-${"7".repeat(124)}`;
    const firstName = `Maximiliana${"x".repeat(89)}`;
    const email = `${"a".repeat(64)}@${"b".repeat(60)}.${"c".repeat(60)}.${"d".repeat(52)}.example.com`;
    await account.register(`${endpoint.url}?${"q".repeat(600)}`);
    const person = (await account.call("POST", "/api/v1/send/counterparties/", { ...newCounterparty(), first_name: firstName, email }))
      .body;
    const session = await account.session({ counterparty_id: person.id, order_id: order });
    await account.simulate(session.id, { outcome: "pay" });
    await account.advance(1);
    const { page, errors } = await signIn(account.token, viewport, device);
    /** The page holds no sideways scroll, no control outside the window, and each long value whole where it is cut. */
    const fits = async (view: string) => {
      expect([view, await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth)]).toEqual([view, 0]);
      expect([view, await overflow(page, viewport.width)]).toEqual([view, expect.toSatisfy((n: number) => n <= 0)]);
      expect([view, await outside(page, viewport.width)]).toEqual([view, []]);
      await page.screenshot({ path: path.join(screenshots, `${name}-long-${view}.png`), fullPage: true });
    };
    // The session's row whole: the order cut short, all of it in its title, and the columns after it on the screen.
    const row = page.locator("tr", { has: page.locator(`[title="${order}"]`) });
    expect(await row.innerText()).toContain("€10.00");
    await fits("sessions");
    // A session's events: the link of its row.
    await row.getByRole("link", { name: "its events" }).click();
    await page.waitForURL(/\?session=/);
    expect(await page.locator("ol.events .kind").count()).toBe(4);
    await fits("events");
    // An event's delivery opened: the request as it went, to the long URL, and the body with the long order.
    const event = page.locator("ol.events > li", { hasText: "session-created" });
    const id = event.locator("summary a");
    await (device.hasTouch ? id.tap() : id.click());
    await expect.poll(() => event.locator(".delivery pre").first().isVisible()).toBe(true);
    expect(await event.locator(".delivery pre").first().innerText()).toContain(order);
    await fits("delivery");
    // Resend: its message names the long URL it went to.
    await event.getByRole("button", { name: "Resend" }).click();
    await page.waitForURL(/#msg_/);
    expect(await page.locator("details[open] .delivery .note").innerText()).toMatch(/ sent again: attempt #2 succeeded \(200\), to .*qqq/);
    await fits("resent");
    expect(errors).toEqual([]);
  });
});
