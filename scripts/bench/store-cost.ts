// What a paid flow costs the store, against the tree before the work that makes PostgreSQL do less
// per flow (BEFORE_STORE), in one run: the cost section's rounds (cost.ts) with the working tree and
// that commit each on PostgreSQL and on a SQLite file, all four from their TypeScript source (the
// earlier one checked out beside the repository), so that the two trees run alike; and the file
// section's create rate on a SQLite file (file.ts) against the same commit.
import { benchCost, met, type EngineCost } from "./cost.ts";
import { sandboxCli, withEarlierSandbox } from "./earlier.ts";
import { FILE_GOAL, type FileFigures } from "./file.ts";

/** The tree before this work on the store. */
export const BEFORE_STORE = "155cb81";

export const STORE_COST_GOALS = {
  /** PostgreSQL's own CPU per paid flow, now / before, at most. */
  databaseCpuRatio: 0.5,
  /** The sandbox's CPU per paid flow on PostgreSQL / on a SQLite file (the working tree), at most. */
  sandboxCpuRatio: 1.5,
  /** Statements per paid flow on PostgreSQL, BEGIN and COMMIT counted, at most. */
  statementsPerFlow: 20,
  /** The create rate on a SQLite file, now / before, at least. */
  fileRate: FILE_GOAL,
};

/** The working tree and `before`, each on a SQLite file and on PostgreSQL, in the cost section's alternating rounds. */
export function benchStoreCost(before = BEFORE_STORE): Promise<EngineCost[]> {
  return withEarlierSandbox(before, (earlier) =>
    benchCost([
      { name: "SQLite file, now", engine: "file", cli: sandboxCli() },
      { name: "PostgreSQL, now", engine: "postgres", cli: sandboxCli() },
      { name: `PostgreSQL, ${before}`, engine: "postgres", cli: earlier.cli, before: true },
      { name: `SQLite file, ${before}`, engine: "file", cli: earlier.cli, before: true },
    ]),
  );
}

/** The four goals, each figure with its reference from the same run, the ratio, and met or not. */
export function printStoreCostGoals(engines: EngineCost[], file: { figures: FileFigures[] }, before = BEFORE_STORE) {
  const find = (engine: EngineCost["engine"], earlier: boolean) => engines.find((e) => e.engine === engine && e.before === earlier)!;
  const [pgNow, pgBefore, fileNow, fileBefore] = [find("postgres", false), find("postgres", true), find("file", false), find("file", true)];
  const ms = (v: number) => `${v.toFixed(2)} ms`;
  const g = STORE_COST_GOALS;
  console.log(`\nstore cost per paid flow against ${before}, the tree before this work (the figures above, one run):`);
  const database = pgNow.perFlow.databaseCpuMs / pgBefore.perFlow.databaseCpuMs;
  console.log(
    `  1. PostgreSQL's own CPU per flow: ${ms(pgNow.perFlow.databaseCpuMs)} now, ${ms(pgBefore.perFlow.databaseCpuMs)} before: ` +
      `${database.toFixed(2)}x (goal: at most ${g.databaseCpuRatio}x): ${met(database <= g.databaseCpuRatio)}`,
  );
  const sandbox = pgNow.perFlow.sandboxCpuMs / fileNow.perFlow.sandboxCpuMs;
  const sandboxBefore = pgBefore.perFlow.sandboxCpuMs / fileBefore.perFlow.sandboxCpuMs;
  console.log(
    `  2. sandbox CPU per flow on PostgreSQL ${ms(pgNow.perFlow.sandboxCpuMs)}, on a SQLite file ${ms(fileNow.perFlow.sandboxCpuMs)}: ` +
      `${sandbox.toFixed(2)}x (goal: at most ${g.sandboxCpuRatio}x): ${met(sandbox <= g.sandboxCpuRatio)}; ` +
      `before ${sandboxBefore.toFixed(2)}x (${ms(pgBefore.perFlow.sandboxCpuMs)} against ${ms(fileBefore.perFlow.sandboxCpuMs)})`,
  );
  const statements = pgNow.perFlow.statements;
  console.log(
    `  3. statements per flow on PostgreSQL, BEGIN and COMMIT counted: ${statements.toFixed(1)} now ` +
      `(${pgNow.perFlow.transactions.toFixed(1)} transactions), ${pgBefore.perFlow.statements.toFixed(1)} before ` +
      `(${pgBefore.perFlow.transactions.toFixed(1)}): ${(statements / pgBefore.perFlow.statements).toFixed(2)}x ` +
      `(goal: at most ${g.statementsPerFlow}): ${met(statements <= g.statementsPerFlow)}`,
  );
  const [earlier, again, now] = file.figures;
  const rate = now!.rateRatio;
  console.log(
    `  4. create rate on a SQLite file: ${Math.round(now!.rate)} req/s now, ${Math.round(earlier!.rate)} before: ` +
      `${rate.median.toFixed(2)}x (the median of the rounds' ratios, quartiles ${rate.low.toFixed(2)}-${rate.high.toFixed(2)}; ` +
      `goal: at least ${g.fileRate}x): ${met(rate.median >= g.fileRate)}; the second process of ${before} ` +
      `${again!.rateRatio.median.toFixed(2)}x (the noise)`,
  );
}
