// The steps of a long command, each printed with its time as it ends, and steps that are
// skipped when what they would make from their inputs is already there.
import { mkdirSync, readFileSync, writeFileSync } from "node:fs";
import path from "node:path";
import { contentHash } from "./content-hash.ts";

const seconds = (since: number) => `${((performance.now() - since) / 1000).toFixed(1)} s`;

/** Runs `work`, printing `name` first and its time when done (or when it fails). */
export async function step<T>(name: string, work: () => T | Promise<T>, done: (result: T) => string = () => "done"): Promise<T> {
  const started = performance.now();
  console.log(`▸ ${name}…`);
  try {
    const result = await work();
    console.log(`✓ ${name}: ${done(result)} (${seconds(started)})`);
    return result;
  } catch (error) {
    console.log(`✗ ${name}: failed after ${seconds(started)}`);
    throw error;
  }
}

export interface CachedStep {
  name: string;
  /** Files and folders (relative to `root`) whose content decides what the step makes. */
  inputs: readonly string[];
  /** What the step makes; the step runs again if any of it changed or went missing. */
  outputs: readonly string[];
  run(): void | Promise<void>;
}

/**
 * Runs a step unless its inputs and outputs hash to what they were after its last successful
 * run, as recorded in `stampDir`. The stamp is written only after success, so a failed or
 * interrupted step runs again next time.
 */
export async function cachedStep(root: string, stampDir: string, { name, inputs, outputs, run }: CachedStep): Promise<void> {
  const stampFile = path.join(stampDir, `${name.replace(/[^a-z0-9]+/gi, "-")}.json`);
  const stamp = () => ({ inputs: contentHash(root, inputs), outputs: contentHash(root, outputs) });
  const started = performance.now();
  const now = stamp();
  let last: { inputs?: string; outputs?: string } = {};
  try {
    last = JSON.parse(readFileSync(stampFile, "utf8"));
  } catch {
    // Never ran here: run it.
  }
  if (last.inputs === now.inputs && last.outputs === now.outputs) {
    console.log(`✓ ${name}: inputs unchanged, skipped (${seconds(started)})`);
    return;
  }
  await step(name, run);
  mkdirSync(stampDir, { recursive: true });
  // The inputs as they were when the step began: an edit made while it ran is not built yet.
  writeFileSync(stampFile, `${JSON.stringify({ inputs: now.inputs, outputs: contentHash(root, outputs) })}\n`);
}
