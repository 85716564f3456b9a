// src/package-root.ts as the single executables have it: no package lies beside them, so the
// package's files that the bundled code reads are the executable's own assets (the build names
// them, ASSETS in bundle.ts), never a file next to it.
import { getAsset } from "node:sea";

/** Where a package's files would be: nothing is read from it (the flows' respect, which would, is refused first). */
export function packageRoot(_moduleUrl: string): string {
  return "/nonexistent/payin-executable";
}

/** A file of the package, from the executable's assets. */
export function readPackageFile(_moduleUrl: string, file: string): string {
  return getAsset(file, "utf8");
}
