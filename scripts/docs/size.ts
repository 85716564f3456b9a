// The site's size: a host serves it as it is, and a reader on a slow line waits for it. Scalar's
// script (the two references' renderer and try-it) is most of the bytes, fetched by those two
// pages only, and grows with Scalar rather than with what we write: it has a limit of its own, so
// that the growth of our pages is seen, not hidden under it.
import { readdirSync, statSync } from "node:fs";
import path from "node:path";
import { SCALAR_FILE } from "./api-reference.ts";

const MIB = 2 ** 20;
// The rest from 1 MiB when the code groups came (1.03 MiB): the Quickstart's checkout and handler
// and the webhook verifier in each of the five samples' languages, each page's Markdown twin
// holding them too, and the webhook guide (0.15 MiB in all).
export const SIZE_LIMITS = { scalar: 4.5 * MIB, rest: 1.25 * MIB };

/** The bytes of Scalar's script and of every other file of the site in `folder`. */
export function siteSizes(folder: string): { scalar: number; rest: number } {
  const sizes = { scalar: 0, rest: 0 };
  for (const name of readdirSync(folder, { recursive: true, encoding: "utf8" })) {
    const stat = statSync(path.join(folder, name));
    if (stat.isFile()) sizes[name === SCALAR_FILE ? "scalar" : "rest"] += stat.size;
  }
  return sizes;
}

const NAMES = { scalar: "Scalar's script", rest: "the site but Scalar's script" };

/** Each limit the sizes pass, said with both figures. */
export function sizeProblems(sizes: { scalar: number; rest: number }): string[] {
  const mib = (bytes: number) => `${(bytes / MIB).toFixed(2)} MiB`;
  return (["scalar", "rest"] as const)
    .filter((part) => sizes[part] > SIZE_LIMITS[part])
    .map((part) => `${NAMES[part]} is ${mib(sizes[part])}, over its ${mib(SIZE_LIMITS[part])}`);
}
