// Which repository file becomes which page of the docs site. The guides' Markdown links to the
// files as they sit in the repository (and in the installed package); the site's build turns
// each such link into a link to the page the file becomes (scripts/docs/links.ts).

export interface Guide {
  /** The Markdown file in scripts/docs/guides/. */
  source: string;
  /** The page it becomes. */
  file: string;
}

export const guides: readonly Guide[] = [
  { source: "quickstart.md", file: "quickstart.html" },
  { source: "verify-webhooks.md", file: "verify-webhooks.html" },
  { source: "sandbox.md", file: "sandbox-guide.html" },
  { source: "testing.md", file: "testing.html" },
  { source: "ci.md", file: "ci.html" },
  { source: "conformance.md", file: "conformance.html" },
  { source: "hosting.md", file: "hosting.html" },
];

export const guidesDir = "scripts/docs/guides";

/**
 * Repository path (from the root, with `/`) → the site page a link to it becomes. A document's
 * source and its bundles are one page: the reference that renders it.
 */
export const sitePages: ReadonlyMap<string, string> = new Map([
  ...guides.map(({ source, file }) => [`${guidesDir}/${source}`, file] as const),
  ["README.md", "index.html"],
  ["openapi/DECISIONS.md", "decisions.html"],
  ...["openapi/openapi.yaml", "generated/openapi.yaml", "generated/openapi.json"].map((source) => [source, "openapi.html"] as const),
  ...["asyncapi/asyncapi.yaml", "generated/asyncapi.yaml", "generated/asyncapi.json"].map((source) => [source, "asyncapi.html"] as const),
  ...["openapi/sandbox.yaml", "generated/sandbox.yaml", "generated/sandbox.json"].map((source) => [source, "sandbox.html"] as const),
  ...["arazzo/payin.arazzo.yaml", "generated/payin.arazzo.yaml", "generated/payin.arazzo.json"].map(
    (source) => [source, "flows.html"] as const,
  ),
]);
