// The events reference: the AsyncAPI HTML template, as one self-contained file (scripts and
// styles inlined), from the installed template's folder rather than its name, which the
// generator might try to fetch.
import { mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { createRequire } from "node:module";
import path from "node:path";
import { run } from "./exec.ts";

const templateDir = path.dirname(createRequire(import.meta.url).resolve("@asyncapi/html-template/package.json"));

// The template's typography wraps inline code in literal backticks, which reads as markdown
// that failed to render.
const styleFixes = `<style>
  .aui-root .prose code::before, .aui-root .prose code::after { content: none; }
</style>`;

export async function buildAsyncapiReference(bundle: string, output: string, workDir: string): Promise<void> {
  const generated = path.join(workDir, "asyncapi-html");
  mkdirSync(generated, { recursive: true });
  // The CLI's usage metrics: off, and kept here rather than in the user's home.
  const metricsConfig = path.join(workDir, "asyncapi-analytics.json");
  writeFileSync(metricsConfig, JSON.stringify({ analyticsEnabled: "false", infoMessageShown: "true", userID: "docs-build" }));
  await run(
    "asyncapi",
    // An empty --registry-url: by default the CLI first asks registry.npmjs.org whether it
    // answers, which fails the build offline (and under the tests' loopback guard).
    [
      "generate",
      "fromTemplate",
      bundle,
      templateDir,
      "--output",
      generated,
      "--force-write",
      "--no-interactive",
      "--param",
      "singleFile=true",
      "--registry-url=",
    ],
    { ASYNCAPI_METRICS_CONFIG_PATH: metricsConfig },
  );
  const html = readFileSync(path.join(generated, "index.html"), "utf8");
  if (!html.includes("</head>")) throw new Error(`${output}: the AsyncAPI template's page has no </head>`);
  writeFileSync(output, html.replace("</head>", `${styleFixes}\n</head>`));
}
