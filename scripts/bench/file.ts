// The sandbox on a SQLite file (`--db`), where a developer who keeps state runs it, against the
// same on an earlier commit: the create payment session rate of the working tree and of the
// commit, both from their TypeScript source (the earlier one checked out beside the repository),
// each on a file of its own, with a second process of the earlier sandbox to show the noise, in
// rounds (autocannon, 10 connections) whose order turns at each round. A 5 % goal needs more
// than medians of a few rounds on a shared machine, whose load moves a round's rate by 10 %:
// each round's ratio to the earlier sandbox's rate in the same round is taken, and their median,
// with the sandbox's CPU per request (from /proc), which the machine's load moves less.
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import autocannon from "autocannon";
import { sandboxCli, withEarlierSandbox } from "./earlier.ts";
import { cpuExactMs, median } from "./measure.ts";
import { newCounterparty, printsItsUrl, sessionBody, TOKEN } from "./sandbox.ts";

/** The commit the create rate on a file is held to. */
export const BEFORE_FILE = "11a06f2";
/** The share of its rate the working tree must keep. */
export const FILE_GOAL = 0.95;
const ROUND_SECONDS = 3;
const MIN_ROUNDS = 12;

export interface FileFigures {
  name: string;
  /** Medians over the rounds. */
  rate: number;
  cpuPerRequestMs: number;
  /** Medians of each round's ratio to the earlier sandbox's in that round, with the quartiles of the ratios. */
  rateRatio: { median: number; low: number; high: number };
  cpuRatio: number;
}

const quartiles = (values: number[]) => {
  const sorted = [...values].sort((a, b) => a - b);
  const at = (p: number) => sorted[Math.min(sorted.length - 1, Math.floor(p * sorted.length))]!;
  return { median: median(values), low: at(0.25), high: at(0.75) };
};

/** The earlier sandbox, its second process and the working tree's, each on a file; `seconds` per contender, at least 12 rounds of 3 s. */
export async function benchFile(seconds: number, before = BEFORE_FILE): Promise<{ figures: FileFigures[]; rounds: number }> {
  const folder = mkdtempSync(path.join(tmpdir(), "payin-bench-file-"));
  const running: Array<{ name: string; child: { pid?: number; kill(): boolean }; url: string; body: string }> = [];
  try {
    return await withEarlierSandbox(before, async (earlier) => {
      const contenders = [
        { name: `before (${before})`, cli: earlier.cli },
        // The same code in another process: how far apart two runs of one server land, the noise.
        { name: "before, a second process", cli: earlier.cli },
        { name: "now (working tree)", cli: sandboxCli() },
      ];
      for (const [i, { name, cli }] of contenders.entries()) {
        const { child, url } = await printsItsUrl(process.execPath, [cli, "--port", "0", "--db", path.join(folder, `${i}.db`)]);
        running.push({ name, child, url, body: sessionBody(await newCounterparty(url)) });
      }
      const load = async (r: (typeof running)[number], duration: number) => {
        const cpuBefore = cpuExactMs(r.child.pid!);
        const result = await autocannon({
          url: `${r.url}/api/v1/earn/payment-sessions/`,
          method: "POST",
          headers: { "Content-Type": "application/json", Authorization: `Bearer ${TOKEN}` },
          body: r.body,
          connections: 10,
          duration,
        });
        if (result.non2xx > 0) throw new Error(`${r.name} answered ${result.non2xx} creates with an error`);
        return { rate: result.requests.average, cpu: (cpuExactMs(r.child.pid!) - cpuBefore) / result.requests.total };
      };
      for (const r of running) await load(r, 1); // unmeasured: compiled, prepared, the file made
      const rounds = Math.max(MIN_ROUNDS, Math.round(seconds / ROUND_SECONDS));
      const samples = running.map(() => ({ rates: [] as number[], cpus: [] as number[] }));
      for (let round = 0; round < rounds; round++)
        for (let k = 0; k < running.length; k++) {
          // Each contender goes first, second and last in turn.
          const i = (round + k) % running.length;
          const { rate, cpu } = await load(running[i]!, ROUND_SECONDS);
          samples[i]!.rates.push(rate);
          samples[i]!.cpus.push(cpu);
        }
      const [base] = samples;
      const figures = running.map(({ name }, i): FileFigures => {
        const { rates, cpus } = samples[i]!;
        return {
          name,
          rate: median(rates),
          cpuPerRequestMs: median(cpus),
          rateRatio: quartiles(rates.map((r, round) => r / base!.rates[round]!)),
          cpuRatio: median(cpus.map((c, round) => c / base!.cpus[round]!)),
        };
      });
      return { figures, rounds };
    });
  } finally {
    for (const { child } of running) child.kill();
    rmSync(folder, { recursive: true, force: true });
  }
}

export function printFile({ figures, rounds }: { figures: FileFigures[]; rounds: number }, before = BEFORE_FILE) {
  console.log(
    `\nsandbox on a SQLite file (--db) against ${before}, create payment session (TypeScript source, autocannon, 10 connections, ` +
      `${rounds} rounds of ${ROUND_SECONDS} s each, the order turning; medians, and of each round's ratio to ${before} in it):`,
  );
  const heads = ["req/s".padStart(7), "CPU/request".padStart(12), `  ${"rate ratio [quartiles]".padStart(24)}`, "CPU ratio".padStart(10)];
  console.log(`  ${"".padEnd(28)} ${heads.join(" ")}`);
  for (const f of figures)
    console.log(
      `  ${f.name.padEnd(28)} ${Math.round(f.rate).toString().padStart(7)} ${`${f.cpuPerRequestMs.toFixed(3)} ms`.padStart(12)}   ` +
        `${`${f.rateRatio.median.toFixed(2)}x [${f.rateRatio.low.toFixed(2)}-${f.rateRatio.high.toFixed(2)}]`.padStart(24)} ` +
        `${`${f.cpuRatio.toFixed(2)}x`.padStart(10)}`,
    );
  const [, again, now] = figures;
  const ratio = now!.rateRatio.median;
  console.log(
    `  now / before: ${ratio.toFixed(2)}x the create rate (goal: at least ${FILE_GOAL}x): ${ratio >= FILE_GOAL ? "met" : "NOT MET"}; ` +
      `the second process of ${before}: ${again!.rateRatio.median.toFixed(2)}x (the noise); CPU per create ${now!.cpuRatio.toFixed(2)}x`,
  );
}
