// @ts-nocheck
// The site must load nothing from another host: it is hosted anywhere, read offline, and a
// third-party font or CDN script would leak readers' visits. This static check fails the
// build on what can be seen in the files; the browser test (test/docs/) watches the requests.

/** Markup and CSS that make a browser fetch: <link href>, <script src>, <img src>, @import, url(). */
const loaders = [
  /<(?:link|script|img|iframe|source|video|audio|embed)\b[^>]*?\s(?:href|src|srcset)\s*=\s*["']?\s*((?:https?:)?\/\/[^"'\s>]+)/gi,
  /@import\s+(?:url\()?\s*["']?\s*((?:https?:)?\/\/[^"')\s;]+)/gi,
  /url\(\s*["']?\s*((?:https?:)?\/\/[^"')\s]+)/gi,
];

/**
 * Hosts that serve fonts, styles or scripts to pages at run time. Their names inside a
 * bundled script mean the script may fetch from them once it runs, which markup checks miss.
 */
const assetHosts = [
  "fonts.googleapis.com",
  "fonts.gstatic.com",
  "cdn.jsdelivr.net",
  "unpkg.com",
  "cdnjs.cloudflare.com",
  "cdn.redoc.ly",
  "cdn.redocly.com",
  "esm.sh",
];

export function externalLoads(text: string): string[] {
  const found = new Set<string>();
  for (const pattern of loaders) for (const match of text.matchAll(pattern)) found.add(match[1]!);
  for (const host of assetHosts) if (text.includes(host)) found.add(host);
  return [...found];
}

export function assertOffline(files: Record<string, string>): void {
  const problems = Object.entries(files).flatMap(([name, text]) => externalLoads(text).map((url) => `${name}: ${url}`));
  if (problems.length) throw new Error(`the site would load from other hosts:\n  ${problems.join("\n  ")}`);
}
