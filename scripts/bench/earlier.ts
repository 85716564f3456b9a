// The sandbox of an earlier commit, checked out beside the repository: a detached `git worktree`
// in a temporary folder whose node_modules is a link to ours, so that its TypeScript source runs
// as the working tree's does (`node src/sandbox/cli.ts`). The benches that compare the sandbox
// now with the sandbox before a change (faults, layers) take it from here.
import { execFileSync } from "node:child_process";
import { existsSync, mkdtempSync, rmSync, symlinkSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { root } from "../lib/paths.ts";

/** The sandbox's entry point in a checkout (the working tree by default), looked up when asked. */
export function sandboxCli(checkout = root): string {
  const cli = path.join(checkout, "src/sandbox/cli.ts");
  if (!existsSync(cli)) throw new Error(`${cli} is missing: the sandbox's entry point moved, and the bench needs to be told where`);
  return cli;
}

export interface EarlierSandbox {
  commit: string;
  /** The checkout's folder. */
  folder: string;
  /** Its src/sandbox/cli.ts, to start with `node <cli> --port 0`. */
  cli: string;
}

/** Checks `commit` out beside the repository, hands it to `use`, and removes it after. */
export async function withEarlierSandbox<T>(commit: string, use: (sandbox: EarlierSandbox) => Promise<T>): Promise<T> {
  const work = mkdtempSync(path.join(tmpdir(), `payin-${commit}-`));
  const folder = path.join(work, "sandbox");
  try {
    execFileSync("git", ["worktree", "add", "--detach", folder, commit], { cwd: root, stdio: "ignore" });
    try {
      symlinkSync(path.join(root, "node_modules"), path.join(folder, "node_modules"));
      return await use({ commit, folder, cli: sandboxCli(folder) });
    } finally {
      execFileSync("git", ["worktree", "remove", "--force", folder], { cwd: root, stdio: "ignore" });
    }
  } finally {
    rmSync(work, { recursive: true, force: true });
  }
}
