// What the package's tests share: the consumer project the global setup installed the package
// into (support/install.ts), its installed bins, and the Nodes they run on.
import { execFile, spawn, type ChildProcess } from "node:child_process";
import path from "node:path";
import { promisify } from "node:util";
import { inject } from "vitest";
import { floorNode } from "../../../scripts/lib/paths.ts";
import { NODE_FLOOR } from "../../../src/lib/node-floor.ts";
import { installOffline as install } from "./install.ts";

export const exec = promisify(execFile);
export const consumer = inject("consumer");
export const { project, withPeers, work, tarball } = consumer;

/** Debian's Node (20 here), older than the floor: what each entry point says there is tested. */
export const OLD_NODE = "/usr/bin/node";
/** The Nodes the package runs on, oldest first: the floor (test/package/node-floor/, installed by npm ci's prepare) and this run's. */
export const NODES = { [`Node ${NODE_FLOOR}`]: floorNode, [`Node ${process.versions.node}`]: process.execPath };

/** The installed bin's file, run with a chosen Node (npx would take the first on PATH). */
export const cli = (name: string) => path.join("node_modules", "payin-acceptance-contract", "dist", "src", name, "cli.js");

/** `npm install [args]` in `cwd` from npm's cache only, in the tests' npm environment. */
export const installOffline = (cwd: string, args: string[] = []) => install(cwd, consumer.npmEnv, args);

/** Runs `node file args`; resolves to its exit code and output, whatever the code. */
export const run = (node: string, args: string[], cwd = project) =>
  exec(node, args, { cwd }).then(
    ({ stdout, stderr }) => ({ code: 0, stdout, stderr }),
    (error: { code: number; stdout: string; stderr: string }) => ({ code: error.code, stdout: error.stdout, stderr: error.stderr }),
  );

/** Starts an installed bin with `--port 0` on `node` and resolves to the URL it says it listens on. */
export function startBin(
  name: string,
  node: string,
  cwd = project,
  args: string[] = [],
): { child: ChildProcess; url: Promise<string>; stderr: () => string } {
  const file = path.join(cwd, cli(name.replace("payin-", "")));
  const child = spawn(node, [file, "--port", "0", ...args], { cwd, stdio: ["ignore", "pipe", "pipe"] });
  let stderr = "";
  child.stderr!.on("data", (chunk: Buffer) => void (stderr += chunk));
  const url = new Promise<string>((resolve, reject) => {
    child.stdout!.on("data", (chunk: Buffer) => {
      const found = chunk.toString().match(/listening on (http:\/\/\S+)/)?.[1];
      if (found) resolve(found);
    });
    child.once("exit", (code) => reject(new Error(`${name} exited with ${code}: ${stderr}`)));
  });
  return { child, url, stderr: () => stderr };
}
