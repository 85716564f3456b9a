// The sandbox dashboard in Chromium, at a desktop's width and a phone's: sign in with a token,
// see a session, press Pay, see its events delivered; nothing overflows the page, nothing errs
// in the console, and another token's browser sees nothing of the first.
import { mkdirSync } from "node:fs";
import path from "node:path";
import type { Browser, Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { root } from "../../scripts/lib/paths.ts";
import { startSandbox, type RunningSandbox } from "../../src/sandbox/index.ts";
import { launchChromium, skipBrowserTests } from "../support/chromium.ts";
import { startReceiver, type Receiver } from "../support/receiver.ts";
import { accountOn } from "../support/sandbox-account.ts";

const skip = skipBrowserTests("test/sandbox/dashboard.browser", "the sandbox dashboard in a browser");
const screenshots = path.join(root, "test-results", "dashboard");

let sandbox: RunningSandbox;
let endpoint: Receiver;
let browser: Browser;

describe.skipIf(skip)("the sandbox dashboard in a browser", () => {
  beforeAll(async () => {
    mkdirSync(screenshots, { recursive: true });
    sandbox = await startSandbox({ port: 0 });
    endpoint = await startReceiver();
    browser = await launchChromium("the sandbox dashboard");
  }, 60_000);
  afterAll(async () => {
    await browser?.close();
    await sandbox?.close();
    await endpoint?.close();
  });

  /** A new browser (its own cookies) at `width`, signed in with `token`, and the console errors it saw. */
  async function signIn(token: string, viewport: { width: number; height: number }): Promise<{ page: Page; errors: string[] }> {
    const page = await (await browser.newContext({ viewport })).newPage();
    const errors: string[] = [];
    page.on("console", (m) => m.type() === "error" && errors.push(m.text()));
    page.on("pageerror", (error) => errors.push(error.message));
    await page.goto(`${sandbox.url}/_sandbox/dashboard`);
    await page.getByLabel("Token").fill(token);
    await page.getByRole("button", { name: "Open" }).click();
    await page.waitForSelector("text=Payment sessions");
    return { page, errors };
  }
  const overflow = (page: Page) => page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);

  it.each([
    ["desktop", { width: 1280, height: 800 }],
    ["phone", { width: 390, height: 844 }],
  ])("on a %s: a session, Pay, then its events and their deliveries; nothing overflows", async (name, viewport) => {
    const account = accountOn(sandbox.url);
    await account.register(endpoint.url);
    const session = await account.session();
    const { page, errors } = await signIn(account.token, viewport);
    const row = page.locator("tr", { hasText: session.id });
    await row.getByRole("button", { name: "Pay" }).click();
    await page.waitForSelector(`text=Session ${session.id}: paid.`);
    await page.getByLabel("Advance by").fill("1");
    await page.getByRole("button", { name: "Advance" }).click();
    await page.waitForSelector("text=The clock moved 1 s.");
    const text = await page.locator("main").innerText();
    for (const type of ["session-created", "transaction-created", "transaction-completed", "session-completed"])
      expect(text).toContain(type);
    expect(text).toMatch(/#1 succeeded 204/);
    expect(await overflow(page)).toBeLessThanOrEqual(0);
    await page.screenshot({ path: path.join(screenshots, `${name}.png`), fullPage: true });
    expect(errors).toEqual([]);

    // Another token's browser, once: what it sees does not depend on the width.
    if (name !== "desktop") return;
    const other = await signIn(`other-${crypto.randomUUID()}`, viewport);
    expect(await other.page.locator("main").innerText()).not.toContain(session.id);
    await other.page.screenshot({ path: path.join(screenshots, `${name}-other-token.png`), fullPage: true });
  });
});
