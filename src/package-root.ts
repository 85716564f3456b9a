import { existsSync, readFileSync } from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";

/**
 * The folder of this package, found from the calling module: `src/` in the repository,
 * `dist/src/` once installed. The bundled documents live in its `generated/`.
 */
export function packageRoot(moduleUrl: string): string {
  let dir = path.dirname(fileURLToPath(moduleUrl));
  while (!existsSync(path.join(dir, "package.json")) || !existsSync(path.join(dir, "generated"))) {
    const parent = path.dirname(dir);
    if (parent === dir) throw new Error(`No package root above ${fileURLToPath(moduleUrl)}`);
    dir = parent;
  }
  return dir;
}

/**
 * A file of the package (`generated/openapi.json`, from its root), as text. Read through here, so
 * that the single executables, which have no package beside them, answer it from their own assets.
 */
export function readPackageFile(moduleUrl: string, file: string): string {
  return readFileSync(path.join(packageRoot(moduleUrl), file), "utf8");
}
