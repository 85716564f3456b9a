import { readdirSync, readFileSync } from "node:fs";

export interface Figure {
  name: string;
  value: number;
  unit: string;
}

/**
 * Runs each contender for short alternating rounds until `durationMs` is spent, so that both
 * see the same machine state (JIT warm-up, other load), and returns each one's median rate.
 */
export async function measureAlternating(
  durationMs: number,
  contenders: Record<string, () => unknown | Promise<unknown>>,
  roundMs = 100,
): Promise<Figure[]> {
  const names = Object.keys(contenders);
  const rates: Record<string, number[]> = Object.fromEntries(names.map((n) => [n, []]));
  // Warm up every contender before measuring.
  for (const name of names) for (let i = 0; i < 2000; i++) await contenders[name]!();
  const end = performance.now() + durationMs;
  while (performance.now() < end) {
    for (const name of names) {
      const fn = contenders[name]!;
      let count = 0;
      const start = performance.now();
      let now = start;
      while (now - start < roundMs) {
        for (let i = 0; i < 100; i++) await fn();
        count += 100;
        now = performance.now();
      }
      rates[name]!.push((count * 1000) / (now - start));
    }
  }
  return names.map((name) => ({ name, value: median(rates[name]!), unit: "ops/s" }));
}

export function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  const mid = Math.floor(sorted.length / 2);
  return sorted.length % 2 ? sorted[mid]! : (sorted[mid - 1]! + sorted[mid]!) / 2;
}

export function printFigures(figures: Figure[]) {
  // Rates as whole numbers; times (µs) with the one decimal that tells steps of a call apart.
  const format = (f: Figure) => (f.unit === "µs" ? f.value.toFixed(1) : Math.round(f.value).toLocaleString("en-US"));
  for (const f of figures) console.log(`  ${f.name.padEnd(40)} ${format(f).padStart(12)} ${f.unit}`);
}

/** CPU time of a process so far, in milliseconds (user and system, from /proc; 10 ms ticks). */
export function cpuMs(pid: number): number {
  const fields = readFileSync(`/proc/${pid}/stat`, "utf8").split(") ")[1]!.split(" ");
  return ((Number(fields[11]) + Number(fields[12])) * 1000) / 100;
}

/**
 * CPU time of a process so far, in milliseconds to the nanosecond: the time the scheduler ran each
 * of its threads (/proc/<pid>/task/<tid>/schedstat), for a figure per request of about a
 * millisecond, where cpuMs's 10 ms ticks would be most of it. A thread that ended takes its time
 * with it: Node's threads live as long as the process.
 */
export function cpuExactMs(pid: number): number {
  let ns = 0;
  for (const tid of readdirSync(`/proc/${pid}/task`))
    try {
      ns += Number(readFileSync(`/proc/${pid}/task/${tid}/schedstat`, "utf8").split(" ", 1)[0]);
    } catch {
      // ended meanwhile
    }
  return ns / 1e6;
}

/** A process's resident memory now, in MiB (from /proc). */
export const rssMiB = (pid: number) => Number(/VmRSS:\s+(\d+)/.exec(readFileSync(`/proc/${pid}/status`, "utf8"))![1]) / 1024;
