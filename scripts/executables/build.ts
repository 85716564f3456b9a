// The single executables of payin-sandbox, payin-conformance and payin-listen: the project's own
// Node 24 (node_modules/node/bin/node, the node devDependency) with the bundled bins injected as a
// single executable application (Node's SEA: a blob made by --experimental-sea-config, put into a
// copy of the runtime by postject). One file, with the other two names as hard links to it
// (entry.ts chooses by name). Only for this machine's platform: the build downloads nothing, so
// it has no other platform's Node to inject into.
import { execFile } from "node:child_process";
import { chmodSync, copyFileSync, linkSync, mkdirSync, mkdtempSync, rmSync, statSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { promisify } from "node:util";
import { root } from "../lib/paths.ts";
import { ASSETS, bundleExecutable } from "./bundle.ts";

const exec = promisify(execFile);

/** The Node the executables run on, and the one that makes their blob: the code cache in it is this V8's. */
export const RUNTIME = path.join(root, "node_modules", "node", "bin", "node");
/** The platform the executables are for, in their names: this machine's. */
export const TARGET = `${process.platform}-${process.arch}`;
export const COMMANDS = ["sandbox", "conformance", "listen"] as const;
export type CommandName = (typeof COMMANDS)[number];
/** The file name of a command's executable: payin-sandbox-linux-x64. */
export const executableName = (command: CommandName) => `payin-${command}-${TARGET}`;

/** Where Node looks for the blob: the fuse postject flips in the copy, so that the runtime runs the blob rather than its own CLI. */
const SEA_FUSE = "NODE_SEA_FUSE_fce680ab2cc467b6e072b8b5df1996b2";

export interface Executables {
  /** Each command's file; the three are one file under three names. */
  files: Record<CommandName, string>;
  bytes: number;
  /** How long the build took, and how long of it the bundle. */
  ms: number;
  bundleMs: number;
}

/** Whether a program is on PATH. */
const has = (program: string) =>
  exec(program, ["--version"]).then(
    () => true,
    () => false,
  );

/** Builds the executables into `out`, replacing any there. */
export async function buildExecutables(out: string): Promise<Executables> {
  const started = performance.now();
  const work = mkdtempSync(path.join(tmpdir(), "payin-executables-"));
  try {
    const main = path.join(work, "executable.cjs");
    await bundleExecutable({ file: main, work });
    const bundleMs = performance.now() - started;
    const blob = path.join(work, "executable.blob");
    const config = path.join(work, "sea-config.json");
    writeFileSync(
      config,
      JSON.stringify({
        main,
        output: blob,
        disableExperimentalSEAWarning: true,
        // V8's code for the bundle's top level, made at build time: a start compiles less of its 1.2 MB (a tenth of a start's time).
        useCodeCache: true,
        assets: Object.fromEntries(ASSETS.map((file) => [file, path.join(root, file)])),
      }),
    );
    await exec(RUNTIME, ["--experimental-sea-config", config], { cwd: work });

    mkdirSync(out, { recursive: true });
    const files = Object.fromEntries(COMMANDS.map((command) => [command, path.join(out, executableName(command))])) as Executables["files"];
    for (const file of Object.values(files)) rmSync(file, { force: true });
    // The runtime's debug symbols are a sixth of it (18 MiB), and no one debugs the executable with them.
    if (await has("strip")) await exec("strip", ["-o", files.sandbox, RUNTIME]);
    else copyFileSync(RUNTIME, files.sandbox);
    chmodSync(files.sandbox, 0o755);
    const postject = path.join(root, "node_modules", "postject", "dist", "cli.js");
    await exec(process.execPath, [postject, files.sandbox, "NODE_SEA_BLOB", blob, "--sentinel-fuse", SEA_FUSE]);
    linkSync(files.sandbox, files.conformance);
    linkSync(files.sandbox, files.listen);
    return { files, bytes: statSync(files.sandbox).size, ms: performance.now() - started, bundleMs };
  } finally {
    rmSync(work, { recursive: true, force: true });
  }
}
