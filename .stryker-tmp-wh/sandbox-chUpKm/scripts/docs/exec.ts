// @ts-nocheck
// Runs the documentation CLIs from node_modules. Their chatter is kept and shown only when
// one fails, so that a successful build prints one line per page.
import { spawn } from "node:child_process";
import { bin, root } from "../lib/paths.ts";

// Both CLIs phone home unless told not to, and this build must work with no network:
// REDOCLY_TELEMETRY covers the Redocly CLI (and the pages it renders), CI=true the AsyncAPI
// CLI's metrics, and the update check of each is switched off.
const offline = {
  CI: "true",
  REDOCLY_TELEMETRY: "off",
  REDOCLY_SUPPRESS_UPDATE_NOTICE: "true",
  SUPPRESS_NO_CONFIG_WARNING: "1",
  NO_UPDATE_NOTIFIER: "1",
};

export function run(cli: string, args: string[], env: Record<string, string> = {}): Promise<void> {
  return new Promise((resolve, reject) => {
    const child = spawn(bin(cli), args, {
      cwd: root,
      env: { ...process.env, ...offline, ...env },
      stdio: ["ignore", "pipe", "pipe"],
    });
    let output = "";
    child.stdout.on("data", (chunk: Buffer) => (output += chunk));
    child.stderr.on("data", (chunk: Buffer) => (output += chunk));
    child.on("error", reject);
    child.on("close", (code, signal) => {
      if (code === 0) return resolve();
      reject(new Error(`${cli} ${args.join(" ")} failed (${signal ?? `exit ${code}`}):\n${output.trim().split("\n").slice(-40).join("\n")}`));
    });
  });
}
