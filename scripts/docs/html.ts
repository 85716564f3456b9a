// The smallest template engine that keeps the pages readable as HTML files: `{{name}}` is
// replaced by a value that is already HTML. Values are escaped where they are made (`esc`),
// not here, because most of them are markup.
import { readFileSync } from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";

const templatesDir = fileURLToPath(new URL("./templates/", import.meta.url));

export const esc = (text: string) => text.replace(/&/g, "&amp;").replace(/</g, "&lt;").replace(/>/g, "&gt;").replace(/"/g, "&quot;");

/**
 * Fills a template from scripts/docs/templates/. A placeholder without a value, or a value
 * without a placeholder, is an error: both mean the template and the script have drifted.
 */
export function fill(templateName: string, values: Record<string, string>): string {
  const template = readFileSync(path.join(templatesDir, templateName), "utf8");
  const used = new Set<string>();
  const html = template.replace(/\{\{\s*([a-zA-Z][\w]*)\s*\}\}/g, (_, name: string) => {
    const value = values[name];
    if (value === undefined) throw new Error(`${templateName}: no value for {{${name}}}`);
    used.add(name);
    return value;
  });
  const unused = Object.keys(values).filter((name) => !used.has(name));
  if (unused.length) throw new Error(`${templateName}: no placeholder for ${unused.join(", ")}`);
  return html;
}

export interface Page {
  /** File name in the site, also how the navigation marks the current page. */
  file: string;
  title: string;
  content: string;
}

const navigation = [
  { file: "index.html", label: "Overview" },
  { file: "quickstart.html", label: "Quickstart" },
  { file: "sandbox-guide.html", label: "The sandbox" },
  { file: "testing.html", label: "Testing" },
  { file: "conformance.html", label: "Conformance" },
  { file: "flows.html", label: "Flows" },
  { file: "openapi.html", label: "API reference" },
  { file: "asyncapi.html", label: "Events reference" },
  { file: "decisions.html", label: "Decisions" },
  { file: "sandbox.html", label: "Sandbox API" },
];

/** A page of our own (not the two generated references) in the shared layout. */
export function page({ file, title, content }: Page, version: string): string {
  const nav = navigation
    .map(({ file: href, label }) => `<a href="${href}"${href === file ? ' aria-current="page"' : ""}>${label}</a>`)
    .join("\n        ");
  return fill("page.html", { title: esc(title), nav, content, version: esc(version) });
}
