// The documentation site in a real browser: `npm run docs` builds it, a static server serves
// it under a sub-path (as a host serving it from a folder would), and Chromium opens every
// page. It must show the whole contract, link only relatively, load nothing from another
// host and run without script errors.
import { spawn } from "node:child_process";
import { mkdirSync, readFileSync } from "node:fs";
import path from "node:path";
import type { Browser, BrowserContext, Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { EVENT_TYPES } from "../../generated/event-types.ts";
import { readRegister } from "../../scripts/docs/decisions.ts";
import { guides } from "../../scripts/docs/guides.ts";
import { buildDocs } from "../../scripts/lib/build-steps.ts";
import { root } from "../../scripts/lib/paths.ts";
import { operationsOf } from "../../scripts/lib/openapi.ts";
import { serveStatic, type StaticServer } from "../../scripts/lib/static-server.ts";
import { launchChromium, skipBrowserTests } from "../support/chromium.ts";
import { siteLinkProblems } from "./site-links.ts";

const skip = skipBrowserTests("test/docs", "the docs site test");

const site = path.join(root, "dist", "docs");
const screenshots = path.join(root, "test-results", "docs");
const prefix = "/payin/docs/";

const operations = [
  "POST /api/v1/send/counterparties/",
  "GET /api/v1/send/counterparties/schema/",
  "POST /api/v1/earn/payment-sessions/",
  "GET /api/v1/earn/transactions/{transaction_id}/",
  "POST /webhooks",
  "GET /webhooks",
];
const events = EVENT_TYPES;
const sandboxOperations = operationsOf(JSON.parse(readFileSync(path.join(root, "generated", "sandbox.json"), "utf8"))).map(
  ({ method, path: route }) => `${method.toUpperCase()} ${route}`,
);
const flows = JSON.parse(readFileSync(path.join(root, "generated", "payin.arazzo.json"), "utf8")) as {
  workflows: Array<{ workflowId: string; summary: string; steps: Array<{ stepId: string }> }>;
};
const decisionIds = readRegister(readFileSync(path.join(root, "openapi", "DECISIONS.md"), "utf8")).decisions.map((d) => d.id);

/** What a page did while the test looked at it. */
interface Visit {
  file: string;
  page: Page;
  /** Every URL the page (or its workers) asked for. */
  requests: string[];
  errors: string[];
}

let server: StaticServer;
let browser: Browser;
let context: BrowserContext;
const visits: Visit[] = [];

async function open(file: string): Promise<Visit> {
  const page = await context.newPage();
  const visit: Visit = { file, page, requests: [], errors: [] };
  visits.push(visit);
  page.on("request", (request) => visit.requests.push(request.url()));
  page.on("pageerror", (error) => visit.errors.push(`${file}: ${error.message}`));
  page.on("console", (message) => {
    if (message.type() === "error") visit.errors.push(`${file}: console: ${message.text()}`);
  });
  await page.goto(server.url + file, { waitUntil: "load" });
  return visit;
}

const PAGES = ["index.html", ...guides.map((g) => g.file), "flows.html", "openapi.html", "asyncapi.html", "decisions.html", "sandbox.html"];

/**
 * The visits of every page of the site, opening (and letting render) any that no earlier test
 * opened, so that the checks over all pages also hold when their test is run on its own.
 */
async function everyPage(): Promise<Visit[]> {
  for (const file of PAGES) if (!visits.some((v) => v.file === file)) await settled((await open(file)).page);
  expect(new Set(visits.map((v) => v.file))).toEqual(new Set(PAGES));
  return visits;
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
  return new RegExp(`\\b${method}\\s+${escaped}(?![\\w{/-])`).test(text);
};

async function screenshot(page: Page, name: string) {
  await page.screenshot({ path: path.join(screenshots, `${name}.png`), fullPage: true });
}

describe.skipIf(skip)("the docs site (npm run docs)", () => {
  beforeAll(async () => {
    // `npm run docs`, unless dist/docs is already what it makes from today's inputs (after `npm start`).
    await buildDocs({ quiet: true });
    mkdirSync(screenshots, { recursive: true });
    server = await serveStatic(site, prefix);
    browser = await launchChromium("the docs site");
    context = await browser.newContext({ viewport: { width: 1280, height: 900 } });
  }, 180_000);

  afterAll(async () => {
    await browser?.close();
    await server?.close();
  });

  it("index.html presents the service and the package, and every link on it resolves", async () => {
    const { page } = await open("index.html");
    const text = await settled(page);
    for (const words of [
      "payment_link",
      "createPayinClient",
      "verifyWebhook",
      "signWebhook",
      "payin-mock",
      "@stoplight/prism-http-server",
      ...events,
    ])
      expect(text, words).toContain(words);
    for (const operation of operations) expect(showsOperation(text, operation), operation).toBe(true);
    expect(await page.locator("svg[role=img]").count(), "the two state diagrams").toBe(2);
    await screenshot(page, "index");

    const links = [...new Set(await hrefs(page))];
    for (const target of [
      "openapi.html",
      "asyncapi.html",
      "decisions.html",
      "sandbox.html",
      "openapi.yaml",
      "openapi.json",
      "asyncapi.yaml",
      "asyncapi.json",
    ])
      expect(links, target).toContain(target);
    for (const href of links) {
      expect(href, "links are relative").not.toMatch(/^(\/|[a-z][\w+.-]*:)/i);
      const response = await context.request.get(new URL(href, page.url()).href);
      expect(response.status(), href).toBe(200);
      const anchor = href.startsWith("decisions.html#") ? href.split("#")[1]! : undefined;
      if (anchor) expect(await response.text(), href).toContain(`id="${anchor}"`);
    }
  });

  it("the API reference shows every operation and every webhook event", async () => {
    const { page } = await open("openapi.html");
    let text = await settled(page);
    await screenshot(page, "openapi");
    // Redoc shows one tag at a time: visit each from the sidebar (#/counterparties, …).
    const tags = [...new Set((await hrefs(page, 'a[href^="#/"]')).filter((href) => /^#\/[^/#]+$/.test(href)))];
    expect(tags.length, "Redoc's tag links").toBeGreaterThan(0);
    for (const tag of tags) {
      await page.locator(`a[href="${tag}"]`).first().click();
      text += `\n${await settled(page)}`;
    }
    for (const operation of operations) expect(showsOperation(text, operation), operation).toBe(true);
    for (const event of events) expect(text, event).toContain(event);
  });

  it("the flows page shows each workflow of the Arazzo document as its steps, each operation linked to its reference", async () => {
    const { page } = await open("flows.html");
    await screenshot(page, "flows");
    expect(await page.locator("nav[aria-label=Documentation] a", { hasText: "Flows" }).count()).toBe(1);
    for (const workflow of flows.workflows) {
      const section = page.locator(`section#${workflow.workflowId}`);
      expect(await section.locator("h2").innerText()).toContain(workflow.summary);
      const steps = await section.locator("ol.steps > li > strong").allInnerTexts();
      expect(steps, workflow.workflowId).toEqual(workflow.steps.map((s) => s.stepId));
    }
    const operationLinks = await hrefs(page, "ol.steps a[href*='#']");
    expect(new Set(operationLinks.filter((h) => h.startsWith("openapi.html")).map((h) => h.split("/").at(-1)))).toEqual(
      new Set(["getcounterpartyschema", "createcounterparty", "createpaymentsession", "gettransaction", "registerwebhook", "getwebhook"]),
    );
    // A step's link leads to its operation in Redoc's page: the page scrolls to it.
    const link = operationLinks.find((h) => h.endsWith("/createpaymentsession"))!;
    const reference = await context.newPage();
    await reference.goto(server.url + link);
    const top = () => reference.locator(`[id="${link.split("#")[1]}"]`).evaluate((e) => Math.round(e.getBoundingClientRect().top));
    await expect.poll(top, { timeout: 15_000 }).toBeLessThan(5);
    expect(await top()).toBeGreaterThan(-5);
    expect(await reference.evaluate(() => window.scrollY)).toBeGreaterThan(0);
    await reference.close();
    expect(await page.locator("pre").first().innerText()).toMatch(/npx payin-conformance flows --base-url \S+ --token \S+ --control/);
  });

  it("the sandbox control API page shows its operations", async () => {
    const { page } = await open("sandbox.html");
    let text = await settled(page);
    await screenshot(page, "sandbox");
    const tags = [...new Set((await hrefs(page, 'a[href^="#/"]')).filter((href) => /^#\/[^/#]+$/.test(href)))];
    for (const tag of tags) {
      await page.locator(`a[href="${tag}"]`).first().click();
      text += `\n${await settled(page)}`;
    }
    for (const operation of sandboxOperations) expect(showsOperation(text, operation), operation).toBe(true);
  });

  it("the events reference shows every event", async () => {
    const { page } = await open("asyncapi.html");
    const text = await settled(page);
    await screenshot(page, "asyncapi");
    for (const event of events) expect(text, event).toContain(event);
  });

  it.each(guides.map((g) => [g.file, g.source] as const))(
    "%s renders its guide (%s) in the site's layout, every link resolving",
    async (file, source) => {
      const markdown = readFileSync(path.join(root, "scripts", "docs", "guides", source), "utf8");
      const { page } = await open(file);
      const text = await settled(page);
      await screenshot(page, file.replace(/\.html$/, ""));
      // Every heading of the Markdown is a heading of the page, in order; code is shown as code.
      const headings = [...markdown.matchAll(/^#{1,3} (.+)$/gm)].map((m) => m[1]!.replace(/`/g, ""));
      expect(await page.$$eval("article.guide :is(h1, h2, h3)", (hs) => hs.map((h) => h.textContent))).toEqual(headings);
      expect(await page.locator("article.guide pre code").count()).toBe((markdown.match(/^```/gm) ?? []).length / 2);
      expect(await page.locator(`nav a[href="${file}"][aria-current="page"]`).count(), "the navigation marks the page").toBe(1);
      expect(text).not.toContain("](");
      for (const href of new Set(await hrefs(page, "article.guide a[href]"))) {
        expect(href, "links are relative").not.toMatch(/^(\/|[a-z][\w+.-]*:)/i);
        expect((await context.request.get(new URL(href, page.url()).href)).status(), href).toBe(200);
      }
    },
  );

  it("the decision register shows every decision of DECISIONS.md, each with its anchor", async () => {
    expect(decisionIds.length).toBeGreaterThanOrEqual(17);
    const { page } = await open("decisions.html");
    const text = await settled(page);
    await screenshot(page, "decisions");
    const anchors = await page.$$eval("section.decision[id]", (sections) => sections.map((s) => s.id));
    expect(anchors).toEqual(decisionIds.map((id) => id.toLowerCase()));
    for (const id of decisionIds) expect(text).toMatch(new RegExp(`\\b${id}\\b`));
  });

  it("decision links in both references lead to their entries", async () => {
    const anchors = new Set(decisionIds.map((id) => id.toLowerCase()));
    for (const file of ["openapi.html", "asyncapi.html"]) {
      const { page } = await open(file);
      await settled(page);
      const links = [...new Set(await hrefs(page, 'a[href^="decisions.html#"]'))];
      expect(links.length, `decision links in ${file}`).toBeGreaterThan(0);
      for (const href of links) expect(anchors.has(href.split("#")[1]!), `${file}: ${href}`).toBe(true);
      // Follow one as a reader would.
      const href = links[0]!;
      await page.locator(`a[href="${href}"]`).first().click();
      await page.waitForURL(new URL(href, page.url()).href);
      await expect.poll(() => page.locator(`#${href.split("#")[1]}`).isVisible(), { message: `${file}: ${href}` }).toBe(true);
    }
  });

  it("no link on any page leaves the site's folder for the host's root", async () => {
    // A link built from the page's own URL at run time is fine; `/counterparties` is not.
    for (const { page } of await everyPage()) {
      const origin = new URL(server.url).origin;
      const outside = (await hrefs(page))
        .map((href) => new URL(href, page.url()))
        .filter((url) => url.origin === origin && !url.href.startsWith(server.url))
        .map((url) => url.pathname);
      expect(outside, page.url()).toEqual([]);
    }
  });

  it("every relative link of every page, as served, leads to a file of the site and its anchor to an id there", () => {
    // Read from the files (site-links.ts): each href and src of the markup, and the links of the
    // documents Redoc renders in the browser; the guides' Markdown links, rewritten by the build.
    const { pages, links, problems } = siteLinkProblems(site);
    expect(new Set(pages)).toEqual(new Set(PAGES));
    expect(links, "links walked").toBeGreaterThan(100);
    expect(problems).toEqual([]);
  });

  it("no page loads anything from another host", async () => {
    const origin = new URL(server.url).origin;
    const elsewhere = (await everyPage())
      .flatMap((visit) => visit.requests)
      .filter((url) => !url.startsWith("data:") && !url.startsWith("blob:") && new URL(url).origin !== origin);
    expect(elsewhere).toEqual([]);
    expect(server.notFound, "requests the site could not answer").toEqual([]);
  });

  it("no page has a script error", async () => {
    expect((await everyPage()).flatMap((visit) => visit.errors)).toEqual([]);
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
      expect((await fetch(/^docs: (\S+)/m.exec(printed)![1]!)).status).toBe(200);
    } finally {
      process.kill(-child.pid!, "SIGINT");
    }
    expect([0, "SIGINT"]).toContain(await exited);
  }, 180_000);
});
