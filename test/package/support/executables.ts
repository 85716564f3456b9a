// What the tests of the single executables and of the image share: the executables the global
// setup built (support/install.ts), a way to run one to its end or to start one that serves, and
// the CI guide's recipes as the guide writes them.
import { execFile, spawn, type ChildProcess } from "node:child_process";
import { readFileSync } from "node:fs";
import { createServer } from "node:net";
import path from "node:path";
import { inject } from "vitest";
import { guidesDir } from "../../../scripts/docs/pages.ts";
import { root } from "../../../scripts/lib/paths.ts";

export const executables = inject("executables");

export interface Ran {
  code: number | null;
  stdout: string;
  stderr: string;
}

/** Runs `file args` to its end; resolves to its exit code and output, whatever the code. */
export function runFile(
  file: string,
  args: string[],
  options: { cwd?: string; env?: NodeJS.ProcessEnv; timeoutMs?: number } = {},
): Promise<Ran> {
  return new Promise((resolve) => {
    execFile(
      file,
      args,
      { cwd: options.cwd, env: options.env ?? process.env, timeout: options.timeoutMs ?? 30_000 },
      (error, stdout, stderr) => resolve({ code: error ? ((error as { code?: number }).code ?? null) : 0, stdout, stderr }),
    );
  });
}

export async function freePort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as { port: number };
  await new Promise((resolve) => server.close(resolve));
  return port;
}

export interface Started {
  child: ChildProcess;
  /** What it printed so far, both streams. */
  output: () => string;
  /** Resolves to the first match of `pattern` in its standard output; rejects if it exits first. */
  printed: (pattern: RegExp) => Promise<RegExpMatchArray>;
  stop: () => Promise<void>;
}

/** Starts `command args`, in a process group of its own (a script and what it starts stop together). */
export function start(command: string, args: string[], options: { cwd?: string; env?: NodeJS.ProcessEnv } = {}): Started {
  const child = spawn(command, args, {
    cwd: options.cwd,
    env: options.env ?? process.env,
    stdio: ["ignore", "pipe", "pipe"],
    detached: true,
  });
  let stdout = "";
  let stderr = "";
  child.stdout!.on("data", (chunk: Buffer) => void (stdout += chunk));
  child.stderr!.on("data", (chunk: Buffer) => void (stderr += chunk));
  const output = () => `${command} ${args.join(" ")}\nstdout:\n${stdout}\nstderr:\n${stderr}`;
  // A command that cannot be started (ENOENT) ends as one that exited: what waits for it is told.
  child.once("error", (error) => void (stderr += `${error.message}\n`));
  const exited = new Promise<void>((resolve) => {
    child.once("exit", () => resolve());
    child.once("error", () => resolve());
  });
  return {
    child,
    output,
    printed: (pattern) =>
      new Promise((resolve, reject) => {
        const look = () => {
          const found = stdout.match(pattern);
          if (found) resolve(found);
          return found;
        };
        if (look()) return;
        child.stdout!.on("data", look);
        void exited.then(
          () => look() ?? reject(new Error(`exited (${child.exitCode ?? child.signalCode}) before printing ${pattern}\n${output()}`)),
        );
      }),
    stop: async () => {
      if (child.exitCode !== null || child.signalCode !== null) return;
      try {
        process.kill(-child.pid!, "SIGTERM");
      } catch {
        return; // its group has ended already
      }
      await exited;
    },
  };
}

/** Starts a sandbox from `file` (an executable, or what runs one) on a free port; resolves once it listens. */
export async function startSandbox(file: string, args: string[] = [], env: NodeJS.ProcessEnv = process.env) {
  const started = start(file, ["--port", "0", ...args], { env });
  const [, url] = await started.printed(/listening on (http:\/\/\S+)/);
  return { ...started, url: url! };
}

/** The CI guide, as written. */
export const ciGuide = readFileSync(path.join(root, guidesDir, "ci.md"), "utf8");

/** The first code block of the guide's section `heading` in `language`, as written. */
export function guideBlock(heading: string, language: string): string {
  const section = ciGuide.split(/^#{2,3} /m).find((part) => part.startsWith(`${heading}\n`));
  if (!section) throw new Error(`the CI guide has no section "${heading}"`);
  const block = new RegExp(`^\`\`\`${language}\\n([\\s\\S]*?)^\`\`\`$`, "m").exec(section)?.[1];
  if (!block) throw new Error(`the CI guide's section "${heading}" has no ${language} block`);
  return block;
}
