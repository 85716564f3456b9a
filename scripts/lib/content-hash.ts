// A digest of what a set of files and folders holds, to tell whether a step's inputs or
// outputs changed since it last ran. Content, not timestamps: a checkout, a copy or an
// editor's save without change leaves it as it was.
import { createHash } from "node:crypto";
import { existsSync, readdirSync, readFileSync, statSync } from "node:fs";
import path from "node:path";

/**
 * SHA-256 over the relative path and bytes of every file under `entries` (files or folders,
 * relative to `root`), in a fixed order. A missing entry counts as its own state, so that
 * deleting an output changes the digest.
 */
export function contentHash(root: string, entries: readonly string[]): string {
  const hash = createHash("sha256");
  for (const entry of [...entries].sort()) {
    const full = path.join(root, entry);
    if (!existsSync(full)) {
      hash.update(`missing\0${entry}\0`);
      continue;
    }
    for (const file of filesUnder(full)) {
      hash.update(`${path.relative(root, file).split(path.sep).join("/")}\0`);
      hash.update(readFileSync(file));
      hash.update("\0");
    }
  }
  return hash.digest("hex");
}

function filesUnder(entry: string): string[] {
  if (!statSync(entry).isDirectory()) return [entry];
  return readdirSync(entry, { recursive: true, withFileTypes: true })
    .filter((dirent) => dirent.isFile())
    .map((dirent) => path.join(dirent.parentPath, dirent.name))
    .sort();
}
