// The sandbox on a SQLite file (`--db`), where a developer who keeps state runs it, against the
// same on an earlier commit: the create payment session rate of the working tree and of the
// commit, both from their TypeScript source (the earlier one checked out beside the repository),
// each on a file of its own, with a second process of the earlier sandbox to show the noise, in
// alternating rounds (autocannon, 10 connections). In memory a commit is not synced to disk and
// costs less; what the hosted sandbox added (rate limits, metrics, the last request's time, the
// deliveries' guard, token hashes) must not cost a local run either way.
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { sandboxCli, withEarlierSandbox } from "./earlier.ts";
import { benchSandbox, newCounterparty, printsItsUrl, sessionBody, type Contender, type ServerFigures } from "./sandbox.ts";

/** The commit the create rate on a file is held to: the last before the hosted sandbox's additions. */
export const BEFORE_FILE = "11a06f2";
/** The share of its rate the working tree must keep. */
export const FILE_GOAL = 0.95;
const ROUND_SECONDS = 6;
const ROUNDS = 5;

/** The earlier sandbox, its second process and the working tree's, each on a file; `seconds` per contender, at least five 6 s rounds. */
export async function benchFile(seconds: number, before = BEFORE_FILE): Promise<ServerFigures[]> {
  const folder = mkdtempSync(path.join(tmpdir(), "payin-bench-file-"));
  try {
    return await withEarlierSandbox(before, async (earlier) => {
      let files = 0;
      const onFile = (name: string, cli: string): Contender => ({
        name,
        start: () => printsItsUrl(process.execPath, [cli, "--port", "0", "--db", path.join(folder, `${++files}.db`)]),
        prepare: async (url) => sessionBody(await newCounterparty(url)),
      });
      const contenders = [
        onFile(`before (${before})`, earlier.cli),
        // The same code in another process: how far apart two runs of one server land, the noise.
        onFile("before, a second process", earlier.cli),
        onFile("now (working tree)", sandboxCli()),
      ];
      const duration = Math.max(seconds, ROUNDS * ROUND_SECONDS);
      return benchSandbox(duration, { contenders, startups: 1, roundSeconds: ROUND_SECONDS, build: false });
    });
  } finally {
    rmSync(folder, { recursive: true, force: true });
  }
}

export function printFile(figures: ServerFigures[], seconds: number, before = BEFORE_FILE) {
  console.log(
    `\nsandbox on a SQLite file (--db) against ${before}, create payment session (TypeScript source, autocannon, 10 connections, ` +
      `${Math.max(seconds, ROUNDS * ROUND_SECONDS)} s each in alternating ${ROUND_SECONDS} s rounds, medians):`,
  );
  for (const m of figures)
    console.log(
      `  ${m.name.padEnd(40)} ${Math.round(m.requestsPerSecond).toString().padStart(8)} req/s  ` +
        `p50 ${m.latencyP50Ms} ms  p99 ${m.latencyP99Ms} ms  non-2xx ${m.non2xx}`,
    );
  const [earlier, again, now] = figures;
  const ratio = now!.requestsPerSecond / earlier!.requestsPerSecond;
  console.log(
    `  now / before: ${ratio.toFixed(2)}x the create rate (goal: at least ${FILE_GOAL}x): ${ratio >= FILE_GOAL ? "met" : "NOT MET"}; ` +
      `before / its second process: ${(earlier!.requestsPerSecond / again!.requestsPerSecond).toFixed(2)}x (the noise)`,
  );
}
