// The single executable of payin-sandbox (scripts/executables/), built afresh as `npm run package`
// builds it, against the bin compiled from the same tree (dist/, as npx runs it) on Node 24: the
// time from start to first answer (GET /_sandbox/health), each start a first one, as a CI job's
// is: an empty TMPDIR and HOME of its own, and no Node or npm on PATH for the executable. The
// goal: under 300 ms, the median of three.
import { execFileSync, spawn } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { buildExecutables } from "../executables/build.ts";
import { root } from "../lib/paths.ts";
import { median } from "./measure.ts";

export interface ExecutableStart {
  name: string;
  /** Each start's time to its first answer, then to the line saying where it listens, in ms. */
  answeredMs: number[];
  listeningMs: number[];
}

export interface ExecutableFigures {
  bytes: number;
  buildMs: number;
  starts: ExecutableStart[];
}

/** Starts `command` with `--port 0` in an empty TMPDIR and HOME; resolves to its times, once stopped. */
async function firstStart(command: string, args: string[], searchPath: string): Promise<{ answered: number; listening: number }> {
  const empty = mkdtempSync(path.join(tmpdir(), "payin-first-start-"));
  const started = performance.now();
  const child = spawn(command, [...args, "--port", "0"], {
    env: { PATH: searchPath, HOME: empty, TMPDIR: empty },
    stdio: ["ignore", "pipe", "inherit"],
  });
  try {
    const url = await new Promise<string>((resolve, reject) => {
      let out = "";
      child.stdout!.on("data", (chunk: Buffer) => {
        out += chunk;
        const found = out.match(/listening on (http:\/\/\S+)/)?.[1];
        if (found) resolve(found);
      });
      child.once("exit", (code) => reject(new Error(`${command} exited with ${code}`)));
    });
    const listening = performance.now() - started;
    const res = await fetch(`${url}/_sandbox/health`);
    await res.arrayBuffer();
    if (res.status !== 200) throw new Error(`${command}: GET /_sandbox/health answered ${res.status}`);
    return { answered: performance.now() - started, listening };
  } finally {
    const exited = new Promise((resolve) => child.once("exit", resolve));
    child.kill("SIGTERM");
    await exited;
    rmSync(empty, { recursive: true, force: true });
  }
}

/** Builds the executable in a folder of its own, and dist/, then times `starts` first starts of it and of the bin, alternately. */
export async function benchExecutables(starts = 3): Promise<ExecutableFigures> {
  const out = mkdtempSync(path.join(tmpdir(), "payin-bench-executables-"));
  try {
    const built = await buildExecutables(out);
    execFileSync(process.execPath, [path.join(root, "scripts", "build-package.ts")], { stdio: "ignore" });
    const contenders = [
      { name: path.basename(built.files.sandbox), command: built.files.sandbox, args: [], path: "/nonexistent" },
      {
        name: "npx payin-sandbox (compiled bin, Node 24)",
        command: process.execPath,
        args: [path.join(root, "dist", "src", "sandbox", "cli.js")],
        path: path.dirname(process.execPath),
      },
    ];
    const figures = contenders.map((c): ExecutableStart => ({ name: c.name, answeredMs: [], listeningMs: [] }));
    for (let i = 0; i < starts; i++)
      for (const [n, contender] of contenders.entries()) {
        const { answered, listening } = await firstStart(contender.command, contender.args, contender.path);
        figures[n]!.answeredMs.push(answered);
        figures[n]!.listeningMs.push(listening);
      }
    return { bytes: built.bytes, buildMs: built.ms, starts: figures };
  } finally {
    rmSync(out, { recursive: true, force: true });
  }
}

export function printExecutables({ bytes, buildMs, starts }: ExecutableFigures) {
  console.log(
    `executables: payin-sandbox's start to first answer (GET /_sandbox/health), median of ${starts[0]!.answeredMs.length} first starts, ` +
      "each with an empty TMPDIR and HOME:",
  );
  console.log(`  ${"".padEnd(44)} ${"answered".padStart(10)} ${"listening".padStart(10)}   each start`);
  for (const s of starts)
    console.log(
      `  ${s.name.padEnd(44)} ${`${Math.round(median(s.answeredMs))} ms`.padStart(10)} ` +
        `${`${Math.round(median(s.listeningMs))} ms`.padStart(10)}   ${s.answeredMs.map((ms) => Math.round(ms)).join(", ")} ms`,
    );
  console.log(
    `  the executable: ${(bytes / 2 ** 20).toFixed(1)} MiB, built in ${(buildMs / 1000).toFixed(1)} s; goal: answered under 300 ms`,
  );
}
