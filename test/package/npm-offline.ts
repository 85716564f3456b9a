// npm as the package tests run it: in an environment of its own (of this machine's npm config only
// where the cache is, and the registry its entries are filed under), installing from npm's cache
// only, which npm ci filled: a test never reaches the registry, and what npm prints is npm's own
// and the package's, never a warning about a setting of this machine (`nodedir` here).
import { execFile } from "node:child_process";
import { writeFileSync } from "node:fs";
import path from "node:path";
import { promisify } from "node:util";
import { TOOL_ENV, toolEnv } from "../../scripts/lib/tool-env.ts";

const exec = promisify(execFile);

/** The environment npm runs in, with an empty user config written into `work`. */
export async function isolatedNpmEnv(work: string): Promise<NodeJS.ProcessEnv> {
  const { stdout } = await exec("npm", ["config", "get", "cache", "registry"], { env: toolEnv() });
  const machine = Object.fromEntries(
    stdout
      .trim()
      .split("\n")
      .map((line) => line.split(/=(.*)/s).slice(0, 2)),
  );
  const emptyConfig = path.join(work, "empty-npmrc");
  writeFileSync(emptyConfig, "");
  // npm hands its config to the scripts it runs as npm_config_* variables (`npm test` to Vitest too): none of them either.
  const outsideNpm = Object.entries(process.env).filter(([name]) => !/^npm_config_/i.test(name));
  return {
    ...Object.fromEntries(outsideNpm),
    ...TOOL_ENV,
    npm_config_userconfig: emptyConfig,
    npm_config_cache: machine.cache,
    npm_config_registry: machine.registry,
  };
}

/** `npm install [args]` from npm's cache only. Resolves to what it printed. */
export async function installOffline(cwd: string, env: NodeJS.ProcessEnv, args: string[] = []) {
  return exec("npm", ["install", "--offline", "--no-audit", "--no-fund", ...args], { cwd, env }).catch((error: { stderr: string }) => {
    const missing = /ENOTCACHED[^\n]*?request to \S+\/([^/\s]+) failed/.exec(error.stderr)?.[1];
    throw new Error(
      missing
        ? `installing offline from npm's cache failed: ${decodeURIComponent(missing)} is not in it ` +
            "(npm ci fills the cache with every package of the lockfile; run it)"
        : `npm install --offline failed in ${cwd}: ${error.stderr}`,
    );
  });
}
