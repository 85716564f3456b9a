// Vitest global setup of every run: the loopback guard in every process the suite starts. It
// preloads test/support/loopback-guard.mjs through NODE_OPTIONS, which every worker and every
// child they start (the CLIs, npm, tsc, the package's bins) inherits, and names the log each of
// them appends its refusals to (PAYIN_LOOPBACK_LOG). At the end of the run, any refusal no test
// acknowledged fails the run, naming the process and the host. (A child started with an
// environment that leaves out process.env is not guarded: pass `{ ...process.env, … }`.)
import { closeSync, mkdtempSync, openSync, readFileSync, rmSync, statSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { describeLoopbackLog, installLoopbackGuard, LOG_VARIABLE, readLoopbackLog } from "./loopback-guard.mjs";

/** The guard as Node's `--import` takes it: a file URL, which no space in the path can split. */
export const LOOPBACK_GUARD = new URL("./loopback-guard.mjs", import.meta.url).href;

/** NODE_OPTIONS with the guard preloaded, added to what they already say (once). */
export function withLoopbackPreload(nodeOptions: string | undefined): string {
  const preload = `--import=${LOOPBACK_GUARD}`;
  if (nodeOptions?.split(/\s+/).includes(preload)) return nodeOptions;
  return nodeOptions?.trim() ? `${nodeOptions.trim()} ${preload}` : preload;
}

export default function setup() {
  // This process (it runs the other global setups and starts the workers) is guarded too.
  installLoopbackGuard();
  const before = { log: process.env[LOG_VARIABLE], nodeOptions: process.env.NODE_OPTIONS };
  // A log someone named is kept (and read from where it ended); otherwise one for this run.
  const own = before.log ? undefined : mkdtempSync(path.join(tmpdir(), "payin-loopback-"));
  const log = before.log ?? path.join(own!, "loopback.log");
  closeSync(openSync(log, "a"));
  const start = statSync(log).size;
  process.env[LOG_VARIABLE] = log;
  process.env.NODE_OPTIONS = withLoopbackPreload(before.nodeOptions);

  return () => {
    const refusals = readLoopbackLog(readFileSync(log).subarray(start).toString("utf8"));
    for (const [name, value] of [
      [LOG_VARIABLE, before.log],
      ["NODE_OPTIONS", before.nodeOptions],
    ] as const)
      if (value === undefined) delete process.env[name];
      else process.env[name] = value;
    if (own) rmSync(own, { recursive: true, force: true });
    if (refusals.length === 0) return;
    const report =
      `The loopback guard refused ${refusals.length} look-up(s) or connection(s) outside loopback during the run:\n` +
      describeLoopbackLog(refusals);
    // Under StrykerJS a mutant may well reach out (the test file that saw it has failed, killing
    // it): there, the refusals are reported, and the mutation run goes on.
    if (process.env.STRYKER_MUTATOR_WORKER !== undefined) return void console.warn(report);
    throw new Error(report);
  };
}
