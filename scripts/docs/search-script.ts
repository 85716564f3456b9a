// The site's search script: the package's own search module (src/lib/docs-search.ts, its ranking
// in docs-ranking.ts), bundled for the browser, so that the site ranks the sections as payin-mcp does.
import { rolldown } from "rolldown";
import { root } from "../lib/paths.ts";

/** search.js: `PayinSearch.createDocsSearch(sections)` and `PayinSearch.snippet(…)` (a passage as text) on the page. */
export async function searchScript(): Promise<string> {
  const bundle = await rolldown({ input: "src/lib/docs-search.ts", cwd: root, platform: "browser", logLevel: "silent" });
  const { output } = await bundle.generate({ format: "iife", name: "PayinSearch", minify: true });
  await bundle.close();
  return output[0].code;
}
