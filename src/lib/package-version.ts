// The package's version, for the bins' `--version`: read from the package.json above this module
// (the repository's, or the installed package's), only when asked, so that no start pays for it.
// The single executables have no package.json beside them: their build answers this module with
// the version they were built at (scripts/executables/bundle.ts).
import { readFileSync } from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";

export function packageVersion(): string {
  for (let dir = path.dirname(fileURLToPath(import.meta.url)); ; dir = path.dirname(dir)) {
    let manifest: { name?: string; version?: string } | undefined;
    try {
      manifest = JSON.parse(readFileSync(path.join(dir, "package.json"), "utf8"));
    } catch {
      // No package.json in this folder (or not one to read): the one above, then.
    }
    if (manifest?.name === "payin-acceptance-contract" && manifest.version) return manifest.version;
    if (path.dirname(dir) === dir) throw new Error(`no package.json of payin-acceptance-contract above ${fileURLToPath(import.meta.url)}`);
  }
}
