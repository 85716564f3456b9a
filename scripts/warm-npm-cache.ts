// `prepare`, after the Node floor: puts in npm's cache the registry metadata and tarballs of the
// package's runtime dependencies (openapi-fetch and what it needs, at their locked versions).
// The consumer test installs the packed package into a fresh project with `npm install
// --offline`, which needs both; `npm ci` caches the tarballs only. Asks the registry only for
// what the cache lacks: every `npm install` here runs prepare again.
import { execFileSync } from "node:child_process";
import { readFileSync } from "node:fs";
import path from "node:path";
import { root } from "./lib/paths.ts";

interface Locked {
  version: string;
  dependencies?: Record<string, string>;
}
const lock = JSON.parse(readFileSync(path.join(root, "package-lock.json"), "utf8")) as { packages: Record<string, Locked> };

/** The runtime dependencies, and theirs, as `name@version` from the lockfile. */
function closure(names: string[], seen = new Set<string>()): Set<string> {
  for (const name of names) {
    const locked = lock.packages[`node_modules/${name}`];
    if (!locked) throw new Error(`package-lock.json has no node_modules/${name}: run npm install`);
    const spec = `${name}@${locked.version}`;
    if (seen.has(spec)) continue;
    seen.add(spec);
    closure(Object.keys(locked.dependencies ?? {}), seen);
  }
  return seen;
}

const cached = (spec: string) => {
  try {
    execFileSync("npm", ["view", "--offline", spec, "version"], { stdio: "ignore" });
    return true;
  } catch {
    return false;
  }
};

const missing = [...closure(Object.keys(lock.packages[""]!.dependencies ?? {}))].filter((spec) => !cached(spec));
if (missing.length > 0) execFileSync("npm", ["cache", "add", ...missing, "--loglevel=error"], { stdio: "inherit" });
