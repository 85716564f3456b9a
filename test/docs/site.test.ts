// The documentation site in a real browser: `npm run docs` builds it, a static server serves
// it under a sub-path (as a host serving it from a folder would), beside a sandbox that its
// try-it reaches, and Chromium opens every page at 1280 and 390 px (the most read also at 1920).
// It must show the whole contract, read well at every width, search every page, send a request
// from the reference, link only relatively, load nothing from another host and run without
// script errors. The screenshots are in test-results/docs/.
import { spawn } from "node:child_process";
import { mkdirSync, readFileSync } from "node:fs";
import path from "node:path";
import type { Browser, BrowserContext, Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { EVENT_TYPES } from "../../generated/event-types.ts";
import { operationAnchor, referenceSections } from "../../scripts/docs/api-reference.ts";
import { readRegister } from "../../scripts/docs/decisions.ts";
import { guides } from "../../scripts/docs/guides.ts";
import { markdownFile, SITE_PAGES } from "../../scripts/docs/html.ts";
import { siteSizes, sizeProblems } from "../../scripts/docs/size.ts";
import { buildDocs } from "../../scripts/lib/build-steps.ts";
import { root } from "../../scripts/lib/paths.ts";
import { operationsOf } from "../../scripts/lib/openapi.ts";
import { serveStatic, type StaticServer } from "../../scripts/lib/static-server.ts";
import { startSandbox, type RunningSandbox } from "../../src/sandbox/index.ts";
import { createSandboxClient } from "../../src/sandbox-client.ts";
import { launchChromium, skipBrowserTests } from "../support/chromium.ts";
import { sequenceProblems, stateDiagramProblems } from "./drawing-checks.ts";
import { siteLinkProblems } from "./site-links.ts";
import { hiddenUnderscore } from "./underscores.ts";

const skip = skipBrowserTests("test/docs", "the docs site test");

const site = path.join(root, "dist", "docs");
const screenshots = path.join(root, "test-results", "docs");
const prefix = "/payin/docs/";

const readJson = (file: string) => JSON.parse(readFileSync(path.join(root, "generated", file), "utf8"));
const openapi = readJson("openapi.json");
const sandboxApi = readJson("sandbox.json");
const events = EVENT_TYPES;
const flows = readJson("payin.arazzo.json") as {
  workflows: Array<{ workflowId: string; summary: string; steps: Array<{ stepId: string }> }>;
};
const decisionIds = readRegister(readFileSync(path.join(root, "openapi", "DECISIONS.md"), "utf8")).decisions.map((d) => d.id);

const PAGES: string[] = SITE_PAGES.map((p) => p.file);
/** The pages a person reads most: they must look right on a wide screen too. */
const WIDE_PAGES = ["index.html", "quickstart.html", "openapi.html", "asyncapi.html"];
const REFERENCES = ["openapi.html", "sandbox.html"];

/** What a page did while the test looked at it. */
interface Visit {
  file: string;
  width: number;
  page: Page;
  /** Every URL the page (or its workers) asked for. */
  requests: string[];
  errors: string[];
  /** Warnings the page logged that a change of a dependency announces (a deprecated option). */
  deprecations: string[];
}

let sandbox: RunningSandbox;
let server: StaticServer;
let browser: Browser;
const contexts = new Map<number, BrowserContext>();
const visits: Visit[] = [];

/** A browser context of one window width (the same for every page opened at it). */
async function at(width: number): Promise<BrowserContext> {
  let context = contexts.get(width);
  if (!context) contexts.set(width, (context = await browser.newContext({ viewport: { width, height: 900 } })));
  return context;
}

/** The page at that width, opened once: the checks of its layout and of its content share it. */
/** The pages at 1280 px that the checks of content read, by file: opened once, never navigated away. */
const shared = new Map<string, Visit>();

/** A page opened at that width; with `shared`, the one the checks of layout and of content share. */
async function open(file: string, width = 1280, { share = false } = {}): Promise<Visit> {
  const opened = share ? shared.get(file) : undefined;
  if (opened) return opened;
  const page = await (await at(width)).newPage();
  const visit: Visit = { file, width, page, requests: [], errors: [], deprecations: [] };
  visits.push(visit);
  if (share) shared.set(file, visit);
  page.on("request", (request) => visit.requests.push(request.url()));
  page.on("pageerror", (error) => visit.errors.push(`${file} at ${width}: ${error.message}`));
  page.on("console", (message) => {
    if (message.type() === "error") visit.errors.push(`${file} at ${width}: console: ${message.text()}`);
    if (message.type() === "warning" && /deprecat/i.test(message.text())) visit.deprecations.push(`${file}: ${message.text()}`);
  });
  await page.goto(server.url + file, { waitUntil: "load" });
  // The references render in the browser; the other pages are whole once loaded.
  if (REFERENCES.includes(file.split("#")[0]!)) {
    await page.locator('#reference [id^="api-1/tag/"]').first().waitFor();
    await settled(page);
  }
  return visit;
}

/** Waits until the page stops changing its text: the two references render in the browser. */
async function settled(page: Page): Promise<string> {
  let previous = "";
  for (let i = 0; i < 40; i++) {
    const text = await page.evaluate(() => document.body.innerText);
    if (text && text === previous) return text;
    previous = text;
    await page.waitForTimeout(250);
  }
  return previous;
}

const hrefs = (page: Page, selector = "a[href]") => page.$$eval(selector, (links) => links.map((a) => a.getAttribute("href") ?? ""));

/** `POST /webhooks` appears as the method and the path, whatever separates them. */
const showsOperation = (text: string, operation: string) => {
  const [method, route] = operation.split(" ") as [string, string];
  const escaped = route.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
  return new RegExp(`\\b${method}\\s*${escaped}(?![\\w{/-])`).test(text);
};

async function screenshot(page: Page, name: string) {
  await page.screenshot({ path: path.join(screenshots, `${name}.png`) });
}

/** What is wrong with how a page reads at its width: each problem one line. */
const layoutProblems = (page: Page, checkNavigation: boolean) =>
  page.evaluate((checkNavigation) => {
    const problems: string[] = [];
    const width = document.documentElement.clientWidth;
    if (document.documentElement.scrollWidth > width)
      problems.push(`the page is ${document.documentElement.scrollWidth} px wide in a ${width} px window`);
    // The main navigation: every link shown, inside the window, on one line.
    const links = [...document.querySelectorAll<HTMLElement>("nav[aria-label=Documentation] a")];
    if (links.length === 0) problems.push("no main navigation");
    if (checkNavigation) {
      const hidden = links.filter((a) => {
        const box = a.getBoundingClientRect();
        return box.width === 0 || box.right > width || box.bottom > window.innerHeight || getComputedStyle(a).visibility === "hidden";
      });
      if (hidden.length) problems.push(`navigation links hidden: ${hidden.map((a) => a.textContent).join(", ")}`);
      if (new Set(links.map((a) => Math.round(a.getBoundingClientRect().top))).size > 1) problems.push("the navigation wraps");
      // Each link whole and on top: nothing (the search box) lies over either end of it.
      const covered = links.filter((a) => {
        const box = a.getBoundingClientRect();
        const y = box.top + box.height / 2;
        return [box.left + 1, box.left + box.width / 2, box.right - 1].some((x) => document.elementFromPoint(x, y)?.closest("a") !== a);
      });
      if (covered.length) problems.push(`navigation links covered: ${covered.map((a) => a.textContent).join(", ")}`);
    }
    // Every control shown lies inside the window. What of it shows is what the boxes around it
    // that clip their overflow leave: a link in a collapsed description is not shown, and one in a
    // box that scrolls sideways shows as far as that box, which must be in the window itself.
    for (const control of document.querySelectorAll<HTMLElement>(
      "a[href], button, input, select, textarea, summary, [role=button], [role=tab], [tabindex]:not([tabindex='-1'])",
    )) {
      if (!control.checkVisibility({ visibilityProperty: true, opacityProperty: true })) continue;
      let { left, right, top, bottom } = control.getBoundingClientRect();
      for (let box = control.parentElement; box; box = box.parentElement) {
        const style = getComputedStyle(box);
        if (style.overflowX === "visible" && style.overflowY === "visible") continue;
        const clip = box.getBoundingClientRect();
        [left, right, top, bottom] = [
          Math.max(left, clip.left),
          Math.min(right, clip.right),
          Math.max(top, clip.top),
          Math.min(bottom, clip.bottom),
        ];
      }
      if (right - left < 1 || bottom - top < 1) continue;
      if (left < -0.5 || right > width + 0.5)
        problems.push(
          `a control outside the window: <${control.tagName.toLowerCase()}> ` +
            `"${(control.getAttribute("aria-label") ?? control.textContent ?? "").trim().slice(0, 40)}" ` +
            `at ${Math.round(left)}..${Math.round(right)}`,
        );
    }
    // Tables of ours read without sideways scrolling (a phone stacks their rows).
    for (const table of document.querySelectorAll<HTMLElement>("main.wrap table"))
      if (table.scrollWidth > table.clientWidth + 1) problems.push(`table scrolls sideways: "${table.textContent?.trim().slice(0, 50)}"`);
    // A copy button never covers its block's code.
    for (const pre of document.querySelectorAll<HTMLElement>("main pre")) {
      const button = pre.querySelector("button.copy")?.getBoundingClientRect();
      const code = pre.querySelector("code") ?? pre;
      const lines = [...code.getClientRects()];
      const range = document.createRange();
      range.selectNodeContents(code);
      const text = [...range.getClientRects()].filter((r) => r.width > 0);
      if (
        button &&
        [...lines, ...text].some(
          (r) => r !== lines[0] && r.left < button.right && r.right > button.left && r.top < button.bottom && r.bottom > button.top,
        )
      )
        problems.push(`a copy button covers code: "${code.textContent?.trim().slice(0, 40)}"`);
    }
    // Prose as rendered: text outside code, editors and forms, where Markdown or a template
    // that failed to render would show.
    const walker = document.createTreeWalker(document.body, NodeFilter.SHOW_TEXT);
    const skipped = "pre, code, textarea, script, style, input, [contenteditable], .cm-editor, noscript";
    for (let node = walker.nextNode(); node; node = walker.nextNode()) {
      const text = node.textContent ?? "";
      const element = node.parentElement;
      if (!element || element.closest(skipped) || !element.checkVisibility()) continue;
      if (/\]\([^)\s]*\)/.test(text)) problems.push(`raw Markdown link: "${text.trim().slice(0, 80)}"`);
      if (/`[^`\n]+`/.test(text)) problems.push(`backtick-quoted text: "${text.trim().slice(0, 80)}"`);
      if (/\{\{\s*\w+\s*\}\}/.test(text)) problems.push(`template text: "${text.trim().slice(0, 80)}"`);
    }
    // Nothing cut: a box that hides what overflows it must let the reader scroll to it.
    for (const element of document.querySelectorAll<HTMLElement>("main pre, main table, main code")) {
      const style = getComputedStyle(element);
      if (
        element.scrollWidth > element.clientWidth + 1 &&
        style.overflowX !== "auto" &&
        style.overflowX !== "scroll" &&
        style.display !== "inline"
      )
        problems.push(`cut: <${element.tagName.toLowerCase()}> "${element.textContent?.trim().slice(0, 60)}"`);
    }
    return problems;
  }, checkNavigation);

describe.skipIf(skip)("the docs site (npm run docs)", () => {
  beforeAll(async () => {
    // `npm run docs`, unless dist/docs is already what it makes from today's inputs (after `npm start`).
    await buildDocs({ quiet: true });
    mkdirSync(screenshots, { recursive: true });
    sandbox = await startSandbox({ port: 0 });
    // As `npm start` does: the docs' try-it is told where the sandbox beside them is.
    server = await serveStatic(site, prefix, 0, { "try-it.json": JSON.stringify({ sandbox: sandbox.url }) });
    browser = await launchChromium("the docs site");
  }, 180_000);

  afterAll(async () => {
    await browser?.close();
    await server?.close();
    await sandbox?.close();
  });

  // Each page is loaded once and looked at in a window of each width in turn: a resize applies
  // the same media queries as a load at that width, and the references render only once.
  it.concurrent.each(PAGES)(
    "%s reads whole at 1280 and 390 px (some at 1920): no overflow, nothing cut, navigation shown, no raw Markdown",
    async (file) => {
      const visit = await open(file, 1280, { share: true });
      const widths = WIDE_PAGES.includes(file) ? [1280, 390, 1920] : [1280, 390];
      const problems: string[] = [];
      for (const width of widths) {
        await visit.page.setViewportSize({ width, height: 900 });
        await settled(visit.page);
        await screenshot(visit.page, `${file.replace(/\.html$/, "")}-${width}`);
        problems.push(...(await layoutProblems(visit.page, width >= 1280)).map((problem) => `${width} px: ${problem}`));
      }
      // The checks of content read the page at 1280 px.
      await visit.page.setViewportSize({ width: 1280, height: 900 });
      expect(problems).toEqual([]);
      expect(visit.errors).toEqual([]);
      // A link built from the page's own URL at run time is fine; `/counterparties` is not.
      const outside = (await hrefs(visit.page))
        .map((href) => new URL(href, visit.page.url()))
        .filter((url) => url.origin === new URL(server.url).origin && !url.href.startsWith(server.url));
      expect(
        outside.map((url) => url.pathname),
        "links that leave the site's folder",
      ).toEqual([]);
    },
  );

  it("search, from the overview, finds a word that only a guide has, and leads to it", async () => {
    const twins = Object.fromEntries(PAGES.map((file) => [file, readFileSync(path.join(site, markdownFile(file)), "utf8").toLowerCase()]));
    const references = REFERENCES.map((file) => readFileSync(path.join(site, file), "utf8").toLowerCase());
    // The first long word of the sandbox guide that no other page has, in its text or its document.
    const guide = "sandbox-guide.html";
    const word = [...new Set(twins[guide]!.match(/\b[a-z]{9,}\b/g))].find(
      (w) => Object.entries(twins).every(([file, text]) => file === guide || !text.includes(w)) && references.every((r) => !r.includes(w)),
    );
    expect(word, "a word only the sandbox guide has").toBeDefined();
    const { page } = await open("index.html");
    await page.locator("#site-search").fill(word!);
    const results = page.locator("#search-results a");
    await expect.poll(() => results.count()).toBeGreaterThan(0);
    expect(new Set((await results.evaluateAll((links) => links.map((a) => a.getAttribute("href")!))).map((h) => h.split("#")[0]))).toEqual(
      new Set([guide]),
    );
    await results.first().click();
    await page.waitForURL(new RegExp(`${guide}`));
    expect(await page.locator("article.guide").innerText()).toMatch(new RegExp(word!, "i"));
  });

  it.each(PAGES.filter((file) => !REFERENCES.includes(file)))(
    "%s has an on-this-page list beside it at 1280, and a guide links to the guides before and after it",
    async (file) => {
      const { page } = await open(file, 1280, { share: true });
      const toc = page.locator('nav[aria-label="On this page"]');
      expect(await toc.isVisible()).toBe(true);
      const targets = await toc.locator("a").evaluateAll((links) => links.map((a) => a.getAttribute("href")!));
      expect(targets.length).toBeGreaterThanOrEqual(3);
      for (const target of targets) expect(await page.locator(`[id="${target.slice(1)}"]`).count(), target).toBe(1);
      const order: string[] = SITE_PAGES.filter((p) => p.group === "Guides").map((p) => p.file);
      const at = order.includes(file) ? order.indexOf(file) : -2;
      const target = async (rel: string) => {
        const link = page.locator(`a[rel="${rel}"]`);
        return (await link.count()) ? link.getAttribute("href") : null;
      };
      expect({ prev: await target("prev"), next: await target("next") }).toEqual({
        prev: order[at - 1] ?? null,
        next: order[at + 1] ?? null,
      });
    },
  );

  it("at 390 px, a menu button shows every navigation link, and search shows its results above the page, each with a snippet", async () => {
    const { page } = await open("sandbox-guide.html", 390);
    const links = page.locator("nav[aria-label=Documentation] a");
    expect(await links.first().isVisible()).toBe(false);
    await page.getByRole("button", { name: "Menu" }).click();
    for (const link of await links.all()) {
      const name = (await link.textContent()) ?? "";
      expect(await link.isVisible(), name).toBe(true);
      const box = (await link.boundingBox())!;
      expect(box.x + box.width, name).toBeLessThanOrEqual(390);
    }
    await page.getByRole("button", { name: "Menu" }).click();
    await page.locator("#site-search").fill("signature");
    const results = page.locator("#search-results a");
    await expect.poll(() => results.count()).toBeGreaterThan(0);
    // Each result with a snippet, the words it matched marked.
    await expect.poll(async () => (await results.count()) - (await page.locator("#search-results .snippet:has(mark)").count())).toBe(0);
    // Every result in the window (the list scrolls within itself past 70 % of its height) is on top of the page.
    const onTop = await results.evaluateAll((all) =>
      all
        .filter((a) => a.getBoundingClientRect().bottom <= a.closest("ol")!.getBoundingClientRect().bottom)
        .map((a) => {
          const box = a.getBoundingClientRect();
          return document.elementFromPoint(box.left + box.width / 2, box.top + Math.min(box.height / 2, 10))?.closest("a") === a;
        }),
    );
    expect(onTop.length).toBeGreaterThan(0);
    expect(onTop.every(Boolean), JSON.stringify(onTop)).toBe(true);
    await screenshot(page, "search-390");
    await page.close();
  });

  it.each([1280, 390])(
    "try it at %i px: a flow step's link opens the reference at create counterparty, which sends it twice as prefilled: 201 each",
    async (width) => {
      const operation = openapi.paths["/api/v1/send/counterparties/"].post;
      const anchor = operationAnchor(operation, "post", "/api/v1/send/counterparties/");
      const visit = await open("flows.html", width);
      const { page } = visit;
      await page.locator(`ol.steps a[href="openapi.html#${anchor}"]`).first().click();
      // The reference scrolls to the operation, below the site's header.
      const header = await page
        .locator(".site-header")
        .evaluate((h) => (getComputedStyle(h).position === "sticky" ? h.getBoundingClientRect().height : 0));
      const top = () => page.locator(`[id="api-1/${anchor}"]`).evaluate((e) => Math.round(e.getBoundingClientRect().top));
      await expect.poll(top, { timeout: 15_000 }).toBeLessThan(header + 200);
      expect(await top()).toBeGreaterThan(header - 5);
      expect(await page.evaluate(() => window.scrollY)).toBeGreaterThan(0);
      const control = createSandboxClient({ baseUrl: sandbox.url, token: "docs-try-it" });
      const created = async () =>
        ((await control.GET("/_sandbox/v1/requests")).data?.data ?? []).filter((r) => r.operation_id === "createCounterparty");
      const before = (await created()).length;
      await page
        .locator(`[id="api-1/${anchor}"]`)
        .getByRole("button", { name: /test request/i })
        .first()
        .click();
      // Sent twice as it stands: each time a fresh Idempotency-Key (no replay) and a fresh email (no 409 counterparty_exists).
      for (const sent of [1, 2]) {
        await page.getByRole("button", { name: /^Send post request to / }).click();
        await expect.poll(async () => (await created()).length - before, { timeout: 15_000 }).toBe(sent);
      }
      const requests = (await created()).slice(before);
      expect(requests.map((r) => r.status)).toEqual([201, 201]);
      const keys = requests.map((r) => r.idempotency_key);
      expect(new Set(keys).size).toBe(2);
      expect(keys).not.toContain("2f1c9b3e-6d0a-4c1e-9a55-0f3c2b7d8e41");
      await expect.poll(() => page.getByText("201 Created").count(), { timeout: 15_000 }).toBeGreaterThan(0);
      // Its close button is in the client, inside the window, with nothing of the site's header under it, and closes it.
      const close = page.locator(".app-exit-button");
      const box = (await close.boundingBox())!;
      expect(box.x).toBeGreaterThanOrEqual(0);
      expect(box.x + box.width).toBeLessThanOrEqual(width);
      const under = await page.locator(".site-header :is(a, button, input)").evaluateAll(
        (controls, b) =>
          controls
            .map((c) => ({ name: c.textContent || c.getAttribute("aria-label"), r: c.getBoundingClientRect() }))
            .filter(({ r }) => r.width && r.left < b.x + b.width && b.x < r.right && r.top < b.y + b.height && b.y < r.bottom)
            .map(({ name }) => name),
        box,
      );
      expect(under, "the site header's controls under the close button").toEqual([]);
      await screenshot(page, `try-it-${width}`);
      await close.click();
      await expect.poll(() => page.getByRole("button", { name: /^Send post request to / }).count(), { timeout: 15_000 }).toBe(0);
      expect(visit.errors).toEqual([]);
      await page.close();
    },
  );

  it.each(REFERENCES)("%s at 390 px has one menu: the site's, which holds the reference's sections and goes to each", async (file) => {
    const { page } = await open(file, 390);
    const document = file === "openapi.html" ? openapi : sandboxApi;
    // Scalar's own bar and its menu are gone; the site's header stays on screen.
    expect(await page.getByRole("button", { name: /menu/i }).and(page.locator(":visible")).allInnerTexts()).toEqual(["Menu"]);
    await page.getByRole("button", { name: "Menu", exact: true }).click();
    const sections = page.locator('nav[aria-label="Sections of this reference"] a');
    const expected = referenceSections(document).flatMap((section) => [section, ...section.items]);
    expect(await sections.evaluateAll((links) => links.map((a) => a.getAttribute("href")))).toEqual(expected.map((s) => s.href));
    for (const link of await sections.all()) {
      expect(await link.isVisible()).toBe(true);
      const box = (await link.boundingBox())!;
      expect(box.x + box.width, await link.innerText()).toBeLessThanOrEqual(390);
    }
    // Each leads to a part of the reference Scalar drew.
    const missing = await page.evaluate(
      (hrefs) => hrefs.filter((href) => !document.getElementById(`api-1/${decodeURIComponent(href.slice(1))}`)),
      expected.map((s) => s.href),
    );
    expect(missing).toEqual([]);
    await screenshot(page, `${file.replace(/\.html$/, "")}-menu-390`);
    // The last operation or event: Scalar scrolls to it, below the header that stays.
    const target = referenceSections(document)
      .flatMap((section) => section.items)
      .at(-1)!;
    await page.locator(`nav[aria-label="Sections of this reference"] a[href="${target.href}"]`).click();
    expect(await page.locator(".site-header").evaluate((h) => h.classList.contains("open"))).toBe(false);
    const header = await page.locator(".site-header").evaluate((h) => h.getBoundingClientRect().bottom);
    const top = () => page.locator(`[id="api-1/${target.href.slice(1)}"]`).evaluate((e) => Math.round(e.getBoundingClientRect().top));
    await expect.poll(top, { timeout: 15_000 }).toBeLessThan(header + 200);
    expect(await top()).toBeGreaterThan(header - 5);
    await page.close();
  });

  it("index.html presents the service and the package, and every link on it resolves", async () => {
    const { page } = await open("index.html", 1280, { share: true });
    const text = await page.locator("body").innerText();
    for (const words of [
      "payment_link",
      "createPayinClient",
      "createSandboxClient",
      "verifyWebhook",
      "signWebhook",
      "buildEvent",
      "payin-sandbox",
      "payin-conformance",
      "payin-trigger",
      "payin-mock",
      ...events,
    ])
      expect(text, words).toContain(words);
    expect(text).not.toMatch(/a typed client, a webhook toolkit and a mock/);
    for (const { method, path: route } of operationsOf(openapi))
      expect(showsOperation(text, `${method.toUpperCase()} ${route}`), route).toBe(true);
    expect(await page.locator("figure.diagram svg[role=img]:visible").count(), "the two state diagrams").toBe(2);
    const links = [...new Set(await hrefs(page))];
    for (const target of [...PAGES.filter((p) => p !== "index.html"), "payin.arazzo.yaml", "payin.postman_collection.json", "llms.txt"])
      expect(links, target).toContain(target);
    for (const href of links) {
      expect(href, "links are relative").not.toMatch(/^(\/|[a-z][\w+.-]*:)/i);
      const response = await page.context().request.get(new URL(href, page.url()).href);
      expect(response.status(), href).toBe(200);
    }
  });

  it.each(REFERENCES.map((file) => [file, file === "openapi.html" ? openapi : sandboxApi] as const))(
    "%s shows every operation of its document at its anchor, and the API reference every webhook event",
    async (file, document) => {
      const { page } = await open(file, 1280, { share: true });
      const operations = operationsOf(document).map(({ method, path: route, operation }) => ({
        id: operationAnchor(operation, method, route),
        name: `${method.toUpperCase()} ${route}`,
      }));
      const webhooks = file === "openapi.html" ? events.map((event) => ({ id: `tag/events/webhook/POST/${event}`, name: event })) : [];
      // Scalar renders a section's body once it comes into view: each is scrolled to, and read once it has text.
      const texts = await page.evaluate(
        async (ids) => {
          const read: Record<string, string> = {};
          for (const id of ids) {
            const section = document.getElementById(`api-1/${id}`);
            section?.scrollIntoView();
            for (let i = 0; i < 100 && section && !section.innerText.trim(); i++) await new Promise((r) => setTimeout(r, 50));
            read[id] = section?.innerText ?? "(no section)";
          }
          return read;
        },
        [...operations, ...webhooks].map(({ id }) => id),
      );
      for (const { id, name } of operations) expect(showsOperation(texts[id]!, name), name).toBe(true);
      for (const { id, name } of webhooks) expect(texts[id], name).toContain(name);
    },
  );

  it("the events reference shows every event with its fields and example, at an anchor of its name", async () => {
    const { page } = await open("asyncapi.html", 1280, { share: true });
    for (const event of events) {
      const heading = page.locator(`h2[id="${event}"]`);
      expect(await heading.count(), event).toBe(1);
    }
    expect(await page.locator("article.guide table").count()).toBeGreaterThanOrEqual(events.length + 2);
    expect(await page.locator("article.guide pre code.language-json").count()).toBe(events.length);
    expect(await page.locator("article.guide pre code .hljs-attr").count(), "the examples are highlighted").toBeGreaterThan(0);
  });

  it("the flows page shows each workflow of the Arazzo document as its steps, each operation linked to its reference", async () => {
    const { page } = await open("flows.html");
    for (const workflow of flows.workflows) {
      const section = page.locator(`section#${workflow.workflowId}`);
      expect(await section.locator("h2").innerText()).toContain(workflow.summary);
      const steps = await section.locator("ol.steps > li > strong").allInnerTexts();
      expect(steps, workflow.workflowId).toEqual(workflow.steps.map((s) => s.stepId));
    }
    const operationLinks = await hrefs(page, "ol.steps a[href*='#']");
    const anchors = operationsOf(openapi).map(
      ({ method, path: route, operation }) => `openapi.html#${operationAnchor(operation, method, route)}`,
    );
    expect(new Set(operationLinks.filter((h) => h.startsWith("openapi.html")))).toEqual(new Set(anchors));
    expect(await page.locator("pre").first().innerText()).toMatch(/npx payin-conformance flows --base-url \S+ --token \S+ --control/);
  });

  it.each(guides.map((g) => [g.file, g.source] as const))(
    "%s renders its guide (%s): headings, highlighted code with a copy button, every link resolving",
    async (file, source) => {
      const markdown = readFileSync(path.join(root, "scripts", "docs", "guides", source), "utf8");
      const { page } = await open(file, 1280, { share: true });
      // Every heading of the Markdown is a heading of the page, in order; code is shown as code.
      const headings = [...markdown.matchAll(/^#{1,3} (.+)$/gm)].map((m) => m[1]!.replace(/`/g, ""));
      expect(await page.$$eval("article.guide :is(h1, h2, h3)", (hs) => hs.map((h) => h.textContent))).toEqual(headings);
      const blocks = (markdown.match(/^ *```/gm) ?? []).length / 2;
      // A code group's other languages are the samples' blocks, beside the guide's own.
      expect(await page.locator("article.guide pre code:not(.code-panel[data-sample] code)").count()).toBe(blocks);
      const shown = await page.locator("article.guide pre").count();
      expect(await page.locator("article.guide pre button.copy").count(), "a copy button on each").toBe(shown);
      expect(await page.locator(`nav a[href="${file}"][aria-current="page"]`).count(), "the navigation marks the page").toBe(1);
      for (const href of new Set(await hrefs(page, "article.guide a[href]"))) {
        expect(href, "links are relative").not.toMatch(/^(\/|[a-z][\w+.-]*:)/i);
        expect((await page.context().request.get(new URL(href, page.url()).href)).status(), href).toBe(200);
      }
    },
  );

  it.each(REFERENCES)("%s has one search, the site's: the reference's own is hidden", async (file) => {
    const { page } = await open(file, 1280, { share: true });
    expect(await page.locator("#site-search").isVisible()).toBe(true);
    expect(
      await page
        .locator("#reference")
        .getByText(/^(Open )?Search$/)
        .count(),
    ).toBe(0);
  });

  it("search ranks the guide's section that explains a thing first, as payin-mcp's search_docs does (test/mcp/docs.test.ts)", async () => {
    const { page } = await open("decisions.html");
    for (const [query, href] of [
      ["idempotency", "quickstart.html#3-the-customer-and-the-session"],
      ["register a webhook url", "quickstart.html#2-where-events-go"],
      ["how do I verify a webhook", "quickstart.html#4-the-events"],
    ] as const) {
      await page.locator("#site-search").fill(query);
      await expect.poll(() => page.locator("#search-results a").first().getAttribute("href"), { message: query }).toBe(href);
      // Each snippet is text: no Markdown's backticks around code.
      expect(await page.locator("#search-results .snippet").allInnerTexts(), query).not.toContainEqual(expect.stringContaining("`"));
    }
    await page.close();
  });

  // Each page that draws the state diagrams: the overview, the events reference and the decision register.
  it.each(["index.html", "asyncapi.html", "decisions.html"].flatMap((file) => [1280, 390].map((width) => [file, width] as const)))(
    "%s at %i px shows each state diagram whole: one drawing, unscaled, nothing overlapping, on a phone the states under one another",
    async (file, width) => {
      const { page } = await open(file, width);
      expect(await page.evaluate(stateDiagramProblems)).toEqual([]);
      const shown = await page.locator("figure.diagram svg:visible").evaluateAll((all) => all.map((svg) => svg.getAttribute("class")));
      expect(shown).toEqual(shown.map(() => (width >= 1280 ? "diagram-wide" : "diagram-narrow")));
      await page.locator("figure.diagram").last().scrollIntoViewIfNeeded();
      await screenshot(page, `${file.replace(/\.html$/, "")}-diagram-${width}`);
      await page.close();
    },
  );

  it.each([1280, 390])(
    "the flows page at %i px draws each workflow as a sequence diagram: whole, no label across a lifeline, no emoji, the column's width",
    async (width) => {
      const { page } = await open("flows.html", width);
      expect(await page.evaluate(sequenceProblems)).toEqual([]);
      expect(await page.locator("section.workflow").evaluateAll((sections) => sections.map((s) => s.id))).toEqual(
        flows.workflows.map((w) => w.workflowId),
      );
      // Time passing is drawn as a clock: an SVG icon, not an emoji.
      expect(await page.locator("svg.sequence:visible .icon svg").count()).toBeGreaterThan(0);
      await page.locator("svg.sequence:visible").nth(2).scrollIntoViewIfNeeded();
      await screenshot(page, `flows-drawing-${width}`);
      await page.close();
    },
  );

  it.each([1280, 390])("a link's code keeps its underscores at %i px: the underline is drawn apart from them", async (width) => {
    const { page } = await open("flows.html", width);
    expect(await hiddenUnderscore(page)).toBeUndefined();
    await page.close();
  });

  it("a copy button copies its block's code", async () => {
    const context = await browser.newContext({
      viewport: { width: 1280, height: 900 },
      permissions: ["clipboard-read", "clipboard-write"],
    });
    const page = await context.newPage();
    await page.goto(`${server.url}quickstart.html`);
    const block = page.locator("article.guide pre").first();
    await block.locator("button.copy").click();
    expect(await page.evaluate(() => navigator.clipboard.readText())).toBe(await block.locator("code").innerText());
    await context.close();
  });

  it.each([1280, 390])(
    "at %i px, the reader's language is every code group's: Python once chosen, on the next page too, Go from a ?lang=go link",
    async (width) => {
      // Contexts of their own: what one remembers (localStorage) is not another's.
      const contexts = [
        await browser.newContext({ viewport: { width, height: 900 } }),
        await browser.newContext({ viewport: { width, height: 900 } }),
      ];
      const errors: string[] = [];
      const opened = async (context: BrowserContext, file: string) => {
        const page = await context.newPage();
        page.on("pageerror", (error) => errors.push(`${file}: ${error.message}`));
        await page.goto(server.url + file);
        return page;
      };
      /** The language each group of the page shows, and what is wrong with how it reads. */
      const state = (page: Page) =>
        page.evaluate(() => {
          const width = document.documentElement.clientWidth;
          const groups = [...document.querySelectorAll<HTMLElement>(".code-group")];
          const problems =
            document.documentElement.scrollWidth > width ? [`the page is ${document.documentElement.scrollWidth} px wide`] : [];
          for (const group of groups) {
            const visible = [...group.querySelectorAll<HTMLElement>(".code-panel")].filter((panel) => panel.checkVisibility());
            if (visible.length !== 1) problems.push(`${group.dataset.group}: ${visible.length} panels shown`);
            const selected = group.querySelectorAll("[role=tab][aria-selected=true]");
            if (selected.length !== 1 || (selected[0] as HTMLElement).dataset.lang !== visible[0]?.dataset.lang)
              problems.push(`${group.dataset.group}: the selected tab is not the panel shown`);
            for (const tab of group.querySelectorAll<HTMLElement>("[role=tab]")) {
              const box = tab.getBoundingClientRect();
              if (box.left < 0 || box.right > width)
                problems.push(`${group.dataset.group}: the ${tab.textContent} tab is outside the window`);
            }
          }
          return { shown: groups.map((g) => g.querySelector<HTMLElement>(".code-panel:not([hidden])")?.dataset.lang), problems };
        });
      const groupsOf = async (page: Page) => page.locator(".code-group").count();

      const quickstart = await opened(contexts[0]!, "quickstart.html");
      const groups = await groupsOf(quickstart);
      expect(groups, "the Quickstart's code groups").toBeGreaterThanOrEqual(2);
      expect(await state(quickstart)).toEqual({ shown: Array(groups).fill("typescript"), problems: [] });
      const python = quickstart.locator('.code-group[data-group="handler"] [role=tab][data-lang="python"]');
      expect(await python.count(), "the handler in Python, from examples/merchant-python/").toBe(1);
      await python.click();
      expect(await state(quickstart)).toEqual({ shown: Array(groups).fill("python"), problems: [] });
      expect(new URL(quickstart.url()).searchParams.get("lang"), "the address says it").toBe("python");
      await quickstart.locator('.code-group[data-group="handler"]').scrollIntoViewIfNeeded();
      await screenshot(quickstart, `code-groups-python-${width}`);

      // The next page, opened as a reader would: by the navigation, with no ?lang in its link.
      const guide = await opened(contexts[0]!, "verify-webhooks.html");
      expect(await state(guide)).toEqual({ shown: Array(await groupsOf(guide)).fill("python"), problems: [] });

      // A link shared with someone else, who never chose.
      const linked = await opened(contexts[1]!, "verify-webhooks.html?lang=go");
      expect(await state(linked)).toEqual({ shown: Array(await groupsOf(linked)).fill("go"), problems: [] });
      const next = await opened(contexts[1]!, "quickstart.html");
      expect(await state(next)).toEqual({ shown: Array(groups).fill("go"), problems: [] });
      await screenshot(next, `code-groups-go-${width}`);
      expect(errors).toEqual([]);
      for (const context of contexts) await context.close();
    },
  );

  it("the decision register shows every decision of DECISIONS.md, each with its anchor", async () => {
    expect(decisionIds.length).toBeGreaterThanOrEqual(17);
    const { page } = await open("decisions.html", 1280, { share: true });
    const text = await page.locator("body").innerText();
    const anchors = await page.$$eval("section.decision[id]", (sections) => sections.map((s) => s.id));
    expect(anchors).toEqual(decisionIds.map((id) => id.toLowerCase()));
    for (const id of decisionIds) expect(text).toMatch(new RegExp(`\\b${id}\\b`));
  });

  it("decision links in the API reference and the events reference lead to their entries", async () => {
    const anchors = new Set(decisionIds.map((id) => id.toLowerCase()));
    for (const file of ["openapi.html", "asyncapi.html"]) {
      const { page } = await open(file, 1280, { share: true });
      const links = [...new Set(await hrefs(page, 'a[href^="decisions.html#"]'))];
      expect(links.length, `decision links in ${file}`).toBeGreaterThan(0);
      for (const href of links) expect(anchors.has(href.split("#")[1]!), `${file}: ${href}`).toBe(true);
    }
    // Follow one as a reader would.
    const { page } = await open("asyncapi.html");
    const href = (await hrefs(page, 'a[href^="decisions.html#"]'))[0]!;
    await page.locator(`a[href="${href}"]`).first().click();
    await page.waitForURL(new URL(href, page.url()).href);
    await expect.poll(() => page.locator(`#${href.split("#")[1]}`).isVisible(), { message: href }).toBe(true);
  });

  it("llms.txt lists every page's Markdown, each a Markdown document: a heading, no HTML left", async () => {
    const llms = readFileSync(path.join(site, "llms.txt"), "utf8");
    expect(llms).toMatch(/^# Payin Acceptance Service\n\n> /);
    const listed = [...llms.matchAll(/^- \[[^\]]+\]\(([^)]+)\): \S/gm)].map((m) => m[1]);
    expect(listed).toEqual(PAGES.map(markdownFile));
    for (const file of listed) {
      const markdown = readFileSync(path.join(site, file!), "utf8");
      expect(markdown, file).toMatch(/^# \S/);
      expect(markdown, `${file}: no HTML left`).not.toMatch(/<(div|span|section|table)\b/);
    }
    expect(readFileSync(path.join(site, "asyncapi.md"), "utf8")).toContain(`## ${events[0]}`);
    expect(readFileSync(path.join(site, "openapi.md"), "utf8")).toContain("`POST /api/v1/earn/payment-sessions/`");
  });

  it("every relative link of every page, as served, leads to a file of the site and its anchor to an id there", () => {
    // Read from the files (site-links.ts): each href and src of the markup, and the links of the
    // documents Scalar renders in the browser; the guides' Markdown links, rewritten by the build.
    const { pages, links, problems } = siteLinkProblems(site);
    expect(new Set(pages)).toEqual(new Set(PAGES));
    expect(links, "links walked").toBeGreaterThan(100);
    expect(problems).toEqual([]);
  });

  it("keeps within its size: Scalar's script under 4.5 MiB, the rest of the site under 1.25 MiB", () => {
    const sizes = siteSizes(site);
    expect(sizes.scalar, "Scalar's script is there").toBeGreaterThan(2 ** 20);
    expect(sizeProblems(sizes)).toEqual([]);
  });

  it("no page loads anything from another host, or asks the site for what it lacks", () => {
    const origin = new URL(server.url).origin;
    expect(visits.length).toBeGreaterThan(PAGES.length);
    const elsewhere = visits
      .flatMap((visit) => visit.requests)
      .filter(
        (url) =>
          !url.startsWith("data:") && !url.startsWith("blob:") && ![origin, new URL(sandbox.url).origin].includes(new URL(url).origin),
      );
    expect(elsewhere).toEqual([]);
    expect(server.notFound, "requests the site could not answer").toEqual([]);
  });

  it("no page has a script error", () => {
    expect(visits.flatMap((visit) => visit.errors)).toEqual([]);
  });

  it("no page uses an option that its renderer deprecates", () => {
    expect(visits.flatMap((visit) => visit.deprecations)).toEqual([]);
  });
});

// `npm start` serves the docs it builds here; in this file, so that the two never build at once.
describe("npm start", () => {
  it("prints only where the sandbox and the docs are, with a request that succeeds, and stops on SIGINT", async () => {
    // npm itself, as a newcomer runs it, in a process group of its own to interrupt as Ctrl-C does.
    const child = spawn("npm", ["start"], {
      cwd: root,
      env: { ...process.env, PORT: "0", DOCS_PORT: "0" },
      stdio: ["ignore", "pipe", "pipe"],
      detached: true,
    });
    let printed = "";
    child.stdout!.on("data", (chunk: Buffer) => void (printed += chunk));
    child.stderr!.on("data", (chunk: Buffer) => void (printed += chunk));
    // npm stops as its script did, or by the interrupt it passed on, as a shell's Ctrl-C shows it.
    const exited = new Promise<number | string | null>((resolve) => child.once("exit", (code, signal) => resolve(code ?? signal)));
    try {
      await Promise.race([
        new Promise<void>((resolve) => child.stdout!.on("data", () => /^docs: /m.test(printed) && resolve())),
        exited.then((code) => Promise.reject(new Error(`npm start exited with ${code}: ${printed}`))),
      ]);
      // Each step and how it went, then the two addresses: nothing a newcomer has to wonder about.
      const lines = printed
        .trimEnd()
        .split("\n")
        .filter((line) => line !== "");
      expect(
        lines.filter(
          (line) =>
            !new RegExp(
              [
                String.raw`^(> payin-acceptance-contract@[\d.]+ start|> node scripts\/start\.ts|▸ .+…|✓ .+ \(\d+(\.\d)? s\)|`,
                String.raw`sandbox: http:\/\/127\.0\.0\.1:\d+ {3}\(try: curl .+\)|`,
                String.raw`docs: http:\/\/127\.0\.0\.1:\d+\/)$`,
              ].join(""),
            ).test(line),
        ),
      ).toEqual([]);
      const [, token, url] = /curl -H "Authorization: Bearer (\S+)" "(\S+)"/.exec(printed)!;
      const tried = await fetch(url!, { headers: { Authorization: `Bearer ${token}` } });
      expect(tried.status).toBe(200);
      const docs = /^docs: (\S+)/m.exec(printed)![1]!;
      expect((await fetch(docs)).status).toBe(200);
      // The docs' try-it sends to this sandbox.
      expect(await (await fetch(new URL("try-it.json", docs))).json()).toEqual({ sandbox: /^sandbox: (\S+)/m.exec(printed)![1] });
    } finally {
      process.kill(-child.pid!, "SIGINT");
    }
    expect([0, "SIGINT"]).toContain(await exited);
  }, 180_000);
});
