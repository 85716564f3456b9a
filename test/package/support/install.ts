// Once for every file of the package's tests: the package packed as `npm run package` packs it,
// and installed from what is on disk (npm's cache, which npm ci filled) into a fresh consumer
// project, with the fixtures its tests run. A copy of it beside, with the optional peers a company
// that hosts a shared sandbox or an agent's project installs (pg, prom-client, the MCP SDK), so
// that a test of what the package says without them is not changed by one that has them. And the
// single executables with their image's files, built as `npm run package` builds them, once: the
// build takes seconds, and two test files use them.
import { execFile } from "node:child_process";
import { copyFileSync, cpSync, mkdirSync, mkdtempSync, readdirSync, rmSync, symlinkSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { promisify } from "node:util";
import type { TestProject } from "vitest/node";
import { buildExecutables, type Executables } from "../../../scripts/executables/build.ts";
import { stageImage } from "../../../scripts/executables/image-root.ts";
import { packPackage } from "../../../scripts/lib/pack.ts";
import { root } from "../../../scripts/lib/paths.ts";
import { TOOL_ENV, toolEnv } from "../../../scripts/lib/tool-env.ts";

declare module "vitest" {
  export interface ProvidedContext {
    consumer: {
      /** A folder of the run's own, removed after it. */
      work: string;
      /** The fresh project the tarball is installed into. */
      project: string;
      /** The same, with the optional peer dependencies installed beside the package. */
      withPeers: string;
      tarball: string;
      /** The files in the tarball. */
      files: string[];
      /** What `npm install` of the tarball printed. */
      installed: { stdout: string; stderr: string };
      /** The environment npm runs in for these tests. */
      npmEnv: Record<string, string>;
    };
    executables: Pick<Executables, "files" | "bytes"> & {
      /** Where they are, as dist/ holds them after `npm run package`: with image-root/ and image-data/, the Containerfile's context. */
      dist: string;
    };
  }
}

const exec = promisify(execFile);
const fixtures = path.join(root, "test", "package", "support", "fixtures");

/**
 * The environment npm runs in here: of this machine's npm config only where the cache is (and
 * the registry its entries are filed under), so that what an install prints is npm's own and
 * the package's, never a warning about a setting of this machine (`nodedir` here).
 */
async function isolatedNpmEnv(work: string): Promise<Record<string, string>> {
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
  const outsideNpm = Object.entries(process.env).filter(([name, value]) => !/^npm_config_/i.test(name) && value !== undefined);
  return {
    ...(Object.fromEntries(outsideNpm) as Record<string, string>),
    ...TOOL_ENV,
    npm_config_userconfig: emptyConfig,
    npm_config_cache: machine.cache,
    npm_config_registry: machine.registry,
  };
}

/** `npm install [args]` from npm's cache only: a test never reaches the registry. Resolves to what it printed. */
export async function installOffline(cwd: string, env: Record<string, string>, args: string[] = []) {
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

const linkFromRoot = (project: string, name: string) =>
  symlinkSync(path.join(root, "node_modules", name), path.join(project, "node_modules", name));

export default async function setup(project: TestProject) {
  const work = mkdtempSync(path.join(tmpdir(), "payin-consumer-"));
  // Staged in this run's folder, not dist/package/: a maintainer's `npm run package` meanwhile stays theirs.
  // The executables are bundled from src/ and not from dist/src/, which the pack compiles meanwhile.
  const executablesDist = path.join(work, "dist");
  const [{ tarball, files }, npmEnv, executables] = await Promise.all([
    packPackage({ stage: path.join(work, "package"), destination: work }),
    isolatedNpmEnv(work),
    buildExecutables(executablesDist).then(async (built) => {
      await stageImage(built.files.sandbox, executablesDist);
      return built;
    }),
  ]);
  const consumer = path.join(work, "project");
  mkdirSync(consumer);
  writeFileSync(
    path.join(consumer, "package.json"),
    JSON.stringify({ name: "consumer", private: true, type: "module", dependencies: { "payin-acceptance-contract": `file:${tarball}` } }),
  );
  const installed = await installOffline(consumer, npmEnv);
  // What a consumer would have as devDependencies for these checks: Node's types, Prism, and Redocly's CLI (for the flows).
  for (const scope of ["@types", "@stoplight", "@redocly"]) linkFromRoot(consumer, scope);
  for (const file of readdirSync(fixtures)) copyFileSync(path.join(fixtures, file), path.join(consumer, file));
  const withPeers = path.join(work, "with-peers");
  cpSync(consumer, withPeers, { recursive: true, verbatimSymlinks: true });
  for (const peer of ["pg", "prom-client", "@modelcontextprotocol"]) linkFromRoot(withPeers, peer);

  project.provide("consumer", {
    work,
    project: consumer,
    withPeers,
    tarball,
    files: files.map((f) => f.path),
    installed: { stdout: installed.stdout, stderr: installed.stderr },
    npmEnv,
  });
  project.provide("executables", { dist: executablesDist, files: executables.files, bytes: executables.bytes });
  return () => rmSync(work, { recursive: true, force: true });
}
