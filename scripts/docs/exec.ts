// Runs the documentation CLIs from node_modules. Their chatter is kept and shown only when
// one fails, so that a successful build prints one line per page.
import { spawn } from "node:child_process";
import { bin, root } from "../lib/paths.ts";
import { toolEnv } from "../lib/tool-env.ts";

export function run(cli: string, args: string[], env: Record<string, string> = {}, cwd = root): Promise<void> {
  return new Promise((resolve, reject) => {
    const child = spawn(bin(cli), args, {
      cwd,
      // The CLIs phone home unless told not to, and this build must work with no network.
      env: toolEnv(env),
      stdio: ["ignore", "pipe", "pipe"],
    });
    let output = "";
    child.stdout.on("data", (chunk: Buffer) => (output += chunk));
    child.stderr.on("data", (chunk: Buffer) => (output += chunk));
    child.on("error", reject);
    child.on("close", (code, signal) => {
      if (code === 0) return resolve();
      reject(
        new Error(`${cli} ${args.join(" ")} failed (${signal ?? `exit ${code}`}):\n${output.trim().split("\n").slice(-40).join("\n")}`),
      );
    });
  });
}
