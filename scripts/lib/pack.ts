// Packs the package from a staged folder: the files npm would pack from the repository (its
// `files`), beside a package.json holding only what a consumer needs (published-manifest.ts).
// Staging a copy leaves the repository's package.json alone: tests read it while another packs.
import { execFile } from "node:child_process";
import { copyFileSync, mkdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import path from "node:path";
import { promisify } from "node:util";
import { root } from "./paths.ts";
import { publishedManifest } from "./published-manifest.ts";
import { toolEnv } from "./tool-env.ts";

const exec = promisify(execFile);

/** What `npm pack --json` says of one package. */
export interface Packed {
  filename: string;
  size: number;
  files: Array<{ path: string }>;
}

const npmPack = async (args: string[]): Promise<Packed> => {
  const { stdout } = await exec("npm", ["pack", "--json", ...args], { cwd: root, env: toolEnv(), maxBuffer: 1 << 24 });
  return JSON.parse(stdout.slice(stdout.indexOf("[")))[0];
};

const paths = (packed: Packed) => packed.files.map((file) => file.path).sort();

/**
 * Compiles dist/, stages the package in `stage` (emptied first) and packs it into
 * `destination`. Resolves to what npm packed and where the tarball is.
 */
export async function packPackage({ stage, destination }: { stage: string; destination: string }): Promise<Packed & { tarball: string }> {
  await exec(process.execPath, [path.join(root, "scripts", "build-package.ts")], { cwd: root });
  // Without scripts, here and for the staged folder: the repository's prepare installs the test
  // Node and warms npm's cache, nothing a pack needs, and the staged folder has none of its own.
  const listed = await npmPack(["--dry-run", "--ignore-scripts"]);
  rmSync(stage, { recursive: true, force: true });
  for (const file of paths(listed)) {
    mkdirSync(path.dirname(path.join(stage, file)), { recursive: true });
    if (file !== "package.json") copyFileSync(path.join(root, file), path.join(stage, file));
  }
  const manifest = publishedManifest(JSON.parse(readFileSync(path.join(root, "package.json"), "utf8")));
  writeFileSync(path.join(stage, "package.json"), `${JSON.stringify(manifest, null, 2)}\n`);

  mkdirSync(destination, { recursive: true });
  const packed = await npmPack([stage, "--ignore-scripts", "--pack-destination", destination]);
  // The staged folder has no `files`: npm packs what is there, so a stray file would ship unseen.
  const [expected, shipped] = [paths(listed), paths(packed)];
  if (shipped.join("\n") !== expected.join("\n"))
    throw new Error(
      `npm packed ${stage} with other files than the repository lists: ` +
        `added ${shipped.filter((f) => !expected.includes(f)).join(", ") || "none"}, ` +
        `missing ${expected.filter((f) => !shipped.includes(f)).join(", ") || "none"}`,
    );
  return { ...packed, tarball: path.join(destination, packed.filename) };
}
