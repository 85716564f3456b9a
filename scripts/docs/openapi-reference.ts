// The API reference: `redocly build-docs` (Redoc 3) with the Redoc script inlined, then the
// fixes that make the page self-contained and portable.
import { readFileSync, writeFileSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { run } from "./exec.ts";

const template = fileURLToPath(new URL("./templates/redoc.hbs", import.meta.url));

// Redoc 3 fetches images from two CDNs at run time: its logo from cdn.redoc.ly, and the icons
// it draws as CSS masks from cdn.redocly.com. A local wordmark keeps the attribution; icons
// get an empty data: base, so that an icon fails (and is masked out) without a request.
const wordmark = `data:image/svg+xml,${encodeURIComponent(
  `<svg xmlns="http://www.w3.org/2000/svg" width="56" height="16" viewBox="0 0 56 16">` +
    `<text x="0" y="12.5" font-family="system-ui, sans-serif" font-size="13" font-weight="700" fill="#0044D4">Redocly</text></svg>`,
)}`;
const rewrites: [RegExp, string][] = [
  [/https:\/\/cdn\.redoc\.ly\/redoc\/logo-mini(?:-full)?\.svg/g, wordmark],
  [/https:\/\/cdn\.redocly\.com\/icons\/[\w.-]+\/[\w.-]+/g, "data:,"],
];

/**
 * Where Redoc 3 puts an operation on its page: the slug of its first tag, then its operationId
 * in lower case (`#payment-sessions/createpaymentsession`). The docs test follows one in Chromium.
 */
export const redocOperationAnchor = (operation: { operationId: string; tags?: string[] }) =>
  `${(operation.tags?.[0] ?? "").toLowerCase().replace(/[^a-z0-9]+/g, "-")}/${operation.operationId.toLowerCase()}`;

export async function buildOpenapiReference(bundle: string, output: string, title: string): Promise<void> {
  await run("redocly", [
    "build-docs",
    bundle,
    "--output",
    output,
    "--template",
    template,
    "--title",
    title,
    // Without it the page imports Redoc from cdn.redocly.com.
    "--inlineBundle",
    "--lint-config",
    "off",
  ]);
  let html = readFileSync(output, "utf8");

  if (!html.includes('"disableTelemetry":true'))
    throw new Error(`${output}: Redoc's telemetry is not disabled (REDOCLY_TELEMETRY=off no longer works?)`);

  // What these miss, the offline check of the whole site reports.
  for (const [pattern, replacement] of rewrites) html = html.replace(pattern, replacement);

  writeFileSync(output, clientRendered(html, output));
}

/**
 * Empties the server-rendered markup and lets Redoc render in the browser. The prerender's
 * links are root paths (`/counterparties`) that React keeps when it hydrates, so they point
 * off the site when it is served under a sub-path; rendered in the browser, Redoc routes with
 * the URL hash (`#/counterparties`), which works anywhere.
 */
function clientRendered(html: string, name: string): string {
  const open = '<div id="redoc">';
  const start = html.indexOf(open);
  const script = html.indexOf('<script type="module">', start);
  const end = html.lastIndexOf("</div>", script);
  if (start < 0 || script < 0 || end < start)
    throw new Error(`${name}: Redoc's page layout has changed; cannot find its prerendered markup`);
  return html.slice(0, start + open.length) + html.slice(end);
}
