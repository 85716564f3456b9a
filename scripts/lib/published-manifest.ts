// The package.json a consumer installs. The repository's own carries what only its
// developers use (scripts, dev tools, npm's install-script approvals): published as it is, it
// makes npm warn at every install about a prepare script a consumer never runs.

/** What a consumer's npm, Node, bundler, type checker or registry page reads, in this order. */
export const PUBLISHED_FIELDS = [
  "name",
  "version",
  "description",
  "license",
  "keywords",
  "type",
  "homepage",
  "repository",
  "bugs",
  "engines",
  "sideEffects",
  "exports",
  "bin",
  "dependencies",
  "peerDependencies",
  "peerDependenciesMeta",
] as const;

/** The repository's own: the staged folder is the package, so `files` and `private` have nothing left to do there. */
export const REPOSITORY_FIELDS = ["private", "files", "scripts", "devDependencies", "allowScripts", "scarfSettings"] as const;

const known = new Set<string>([...PUBLISHED_FIELDS, ...REPOSITORY_FIELDS]);

/**
 * The published manifest made from the repository's. A field in neither list fails, so that a
 * new one (`types`, `optionalDependencies`) is decided once rather than dropped without a word.
 */
export function publishedManifest(manifest: Readonly<Record<string, unknown>>): Record<string, unknown> {
  const undecided = Object.keys(manifest).filter((field) => !known.has(field));
  if (undecided.length > 0)
    throw new Error(
      `package.json has ${undecided.join(", ")}, which the published manifest neither keeps nor leaves out: ` +
        "add each to PUBLISHED_FIELDS or REPOSITORY_FIELDS in scripts/lib/published-manifest.ts",
    );
  return Object.fromEntries(PUBLISHED_FIELDS.filter((field) => field in manifest).map((field) => [field, manifest[field]]));
}
