// The oldest Node.js the package runs on: the oldest line still maintained that has everything
// it uses (node:sqlite without a flag came in 22.13). `engines` in package.json says the same,
// and a test holds the two together. Entry points check it before they load anything that an
// older Node would refuse with a loader error.

export const NODE_FLOOR = "22.13.0";

/** Thrown, or printed by a bin, when this Node is older than what an entry point needs. */
export class UnsupportedNodeError extends Error {
  override name = "UnsupportedNodeError";
  readonly code = "ERR_PAYIN_UNSUPPORTED_NODE";

  /** What refused to run: `payin-sandbox`, `startSandbox()`. */
  readonly what: string;
  readonly needed: string;
  readonly found: string;

  constructor(what: string, needed: string, found: string) {
    super(
      `${what} needs Node.js ${needed} or newer, and this is Node.js ${found}: ` +
        "install a maintained Node.js (https://nodejs.org/en/about/previous-releases).",
    );
    this.what = what;
    this.needed = needed;
    this.found = found;
  }
}

const parts = (version: string) => version.replace(/^v/, "").split(".").map(Number);

/** Whether `found` is `needed` or newer, both as `22.13.0` (a leading `v` is allowed). */
export function atLeast(found: string, needed: string): boolean {
  const [a, b] = [parts(found), parts(needed)];
  for (let i = 0; i < 3; i++) if ((a[i] ?? 0) !== (b[i] ?? 0)) return (a[i] ?? 0) > (b[i] ?? 0);
  return true;
}

/** Throws UnsupportedNodeError when this Node (or `found`) is older than `needed`. */
export function requireNode(what: string, needed = NODE_FLOOR, found = process.versions.node): void {
  if (!atLeast(found, needed)) throw new UnsupportedNodeError(what, needed, found);
}
