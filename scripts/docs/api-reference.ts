// The two API references (the service's operations and events, and the sandbox's control API):
// Scalar's reference, in the site's layout. Scalar is chosen for its "Test Request" client,
// which sends an operation's request, prefilled from the contract's examples, to a server the
// reader picks; reference.js makes the sandbox that `npm start` serves beside the docs the
// first of them (try-it.json). Its standalone script is copied into the site once, with every
// call home off (fonts, telemetry, the request proxy, the AI agent and MCP).
import { readFileSync } from "node:fs";
import path from "node:path";
import type { Json } from "../../src/lib/json.ts";
import { isHttpMethod } from "../lib/openapi.ts";
import { root } from "../lib/paths.ts";
import { esc, page } from "./html.ts";

/** Where the site keeps Scalar's script, which the two references load. */
export const SCALAR_FILE = "scalar.js";

/**
 * Scalar's standalone script, as the site serves it. Its default fonts are off (withDefaultFonts),
 * and their URLs become empty data: ones, so that a font face it still declared fails without a
 * request; what this misses, the offline check of the whole site reports.
 */
export const scalarScript = () =>
  readFileSync(path.join(root, "node_modules", "@scalar/api-reference/dist/browser/standalone.js"), "utf8").replace(
    /https:\/\/fonts\.scalar\.com\/[\w.-]+/g,
    "data:,",
  );

const slug = (text: string) => text.toLowerCase().replace(/[^a-z0-9]+/g, "-");

/**
 * Where Scalar puts an operation on its page: `#tag/<slug of its first tag>/<METHOD><path>`
 * (`#tag/payment-sessions/POST/api/v1/earn/payment-sessions/`).
 */
export const operationAnchor = (operation: { tags?: string[] }, method: string, path: string) =>
  `tag/${slug(operation.tags?.[0] ?? "")}/${method.toUpperCase()}${path}`;

/** What Scalar is told; reference.js adds the try-it server. */
function scalarConfiguration(document: Json) {
  const scheme = Object.keys(document.components?.securitySchemes ?? {})[0];
  return {
    content: document,
    layout: "modern",
    // Six operations and seven events: all open, so that the page reads (and searches) as a whole.
    defaultOpenAllTags: true,
    theme: "default",
    forceDarkModeState: "light",
    hideDarkModeToggle: true,
    // The document as the page shows it (the contract, with the site's code samples and links).
    documentDownloadType: "both",
    // Calls home, each off: the fonts (system fonts instead), the usage telemetry, the request
    // proxy (the sandbox answers CORS itself), the AI agent and the MCP integration.
    withDefaultFonts: false,
    telemetry: false,
    proxyUrl: "",
    agent: { disabled: true },
    mcp: { disabled: true },
    showDeveloperTools: "never",
    // One search on the page: the site's, over every page.
    hideSearch: true,
    // Any bearer token is an account of the sandbox: the reader's requests start in their own.
    ...(scheme && {
      authentication: { preferredSecurityScheme: scheme, securitySchemes: { [scheme]: { token: "docs-try-it" } } },
    }),
    // Its sidebar sits below the site's header. In the narrow column beside an operation,
    // "Required" after "Authentication" is cut by the auth type's menu: every operation needs the
    // token, which the panel's text says, so the badge goes. Its bar of a narrow window, with a
    // menu of its sections, goes too: the site's menu has them (referenceSections), one menu, not
    // two stacked. Try-it's close button is in its own top bar, as Scalar puts it on a small
    // screen, rather than above it, where it would sit on the site header's search box.
    customCss:
      ".scalar-app { --scalar-custom-header-height: var(--site-header-height); } " +
      '.scalar-app [data-testid="auth-indicator"] { display: none; } ' +
      ".scalar-app .t-doc__header { display: none; } " +
      ".scalar-app .scalar-app-layout .app-exit-button { position: static; padding: 4px; color: var(--scalar-color-2); }",
  };
}

/**
 * The reference's sections for the site's menu in a window too narrow for Scalar's sidebar: each
 * tag, with its operations and webhooks, then the models, at Scalar's anchors.
 */
export function referenceSections(document: Json): Array<{ label: string; href: string; items: Array<{ label: string; href: string }> }> {
  /** Each operation and webhook in the document's order, as Scalar's sidebar lists them: its tag, label and anchor. */
  const entries: Array<{ tag: string; label: string; href: string }> = [
    ...Object.entries<Json>(document.paths ?? {}).flatMap(([path, item]) =>
      Object.keys(item)
        .filter(isHttpMethod)
        .map((method) => ({
          tag: item[method].tags?.[0],
          label: item[method].summary ?? item[method].operationId,
          href: `#${operationAnchor(item[method], method, path)}`,
        })),
    ),
    ...Object.entries<Json>(document.webhooks ?? {}).flatMap(([name, item]) =>
      Object.entries<Json>(item).map(([method, operation]) => ({
        tag: operation.tags?.[0],
        label: name,
        href: `#tag/${slug(operation.tags?.[0] ?? "")}/webhook/${method.toUpperCase()}/${name}`,
      })),
    ),
  ];
  const sections = ((document.tags ?? []) as Json[]).map((tag) => ({
    label: tag.name as string,
    href: `#tag/${slug(tag.name)}`,
    items: entries.filter((entry) => entry.tag === tag.name).map(({ label, href }) => ({ label, href })),
  }));
  return Object.keys(document.components?.schemas ?? {}).length ? [...sections, { label: "Models", href: "#models", items: [] }] : sections;
}

const sectionsNav = (document: Json) =>
  `<nav class="sections" aria-label="Sections of this reference">\n      <ul>${referenceSections(document)
    .map(
      ({ label, href, items }) =>
        `<li><a href="${esc(href)}">${esc(label)}</a>` +
        (items.length ? `<ul>${items.map((item) => `<li><a href="${esc(item.href)}">${esc(item.label)}</a></li>`).join("")}</ul>` : "") +
        "</li>",
    )
    .join("\n      ")}</ul>\n    </nav>`;

/** The page of an API reference: the header of every page, then Scalar's reference. */
export function apiReferencePage(file: string, title: string, document: Json, version: string): string {
  // In a <script> element only `</` can end it early: `<\/` keeps the JSON as it is.
  const configuration = JSON.stringify(scalarConfiguration(document)).replace(/<\//g, "<\\/");
  const content = [
    `    <h1 class="visually-hidden">${esc(title)}</h1>`,
    `    <div id="reference"></div>`,
    `    <script type="application/json" id="reference-configuration">${configuration}</script>`,
    `    <script src="${SCALAR_FILE}" defer></script>`,
    `    <script src="reference.js" defer></script>`,
  ].join("\n");
  return page({ file, title, content, layout: "reference", sections: sectionsNav(document) }, version);
}
