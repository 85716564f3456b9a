// Fair shares of a hosted sandbox: each attack of the review at its own size, one tenant inside
// its rate limit against a victim tenant at 20 requests a second, 300 alone and 300 attacked,
// on two compiled payin-sandbox processes on a throwaway PostgreSQL made anew for each attack (so
// that no attack's leftovers reach the next). The harness is hosted-attacks.ts, which the test
// (test/sandbox/fair-shares.test.ts) runs at a few seconds an attack; here the deliveries are
// measured in every window, on the contract's own retry schedule (the first retry 5 s after).
import path from "node:path";
import { root } from "../lib/paths.ts";
import {
  ATTACKS,
  GOALS,
  HOSTED_FLAGS,
  p99Bound,
  runAttack,
  startHostedSandbox,
  VICTIM_PER_SECOND,
  VICTIM_TIMEOUT_MS,
  type AttackFigures,
  type AttackName,
  type Sizes,
  type VictimFigures,
} from "./hosted-attacks.ts";

export const FAIR_SHARES_SIZES: Sizes = {
  alone: 300,
  attacked: 300,
  backlogEvents: 20_000,
  logAttempts: 160_000,
  commitWindowMs: 10_000,
  everyLateness: true,
};

/** Every attack, each on a sandbox of its own, the compiled bin's; `each` is handed each attack's figures as they come (a minute apart). */
export async function benchFairShares(
  sizes: Sizes = FAIR_SHARES_SIZES,
  each: (f: AttackFigures) => void = () => {},
): Promise<AttackFigures[]> {
  const figures: AttackFigures[] = [];
  let round = 0;
  for (const name of Object.keys(ATTACKS) as AttackName[]) {
    const sandbox = await startHostedSandbox({ cli: path.join(root, "dist/src/sandbox/cli.js"), settings: "sandbox" });
    try {
      figures.push(await runAttack(sandbox, name, sizes, ++round));
      each(figures.at(-1)!);
    } finally {
      await sandbox.stop();
    }
  }
  return figures;
}

/** Each part of the goal, held or not, for one attack; undefined where it was not measured. */
function goals(f: AttackFigures): Array<[string, boolean | undefined]> {
  const { attacked } = f;
  return [
    ["no 5xx", attacked.serverErrors === 0],
    ["no 429", attacked.tooMany === 0],
    ["no timeout", attacked.timeouts === 0],
    ["no other failure", attacked.otherFailures === 0],
    ["p99 within bound", attacked.p99Ms <= p99Bound(f.alone)],
    [`deliveries within ${GOALS.latenessMs / 1000} s of due`, attacked.lateness && attacked.lateness.late === 0],
    [
      `at most ${GOALS.commitsPerSecond} commits a second per process added`,
      f.commits && f.commits.addedPerSecond <= GOALS.commitsPerSecond,
    ],
  ];
}

const ms = (value: number) => `${value.toFixed(1)} ms`;
const statuses = (s: Record<string, number>) =>
  Object.entries(s)
    .map(([status, n]) => `${n} ${status}`)
    .join(", ");

export function printFairSharesHeading(sizes: Sizes = FAIR_SHARES_SIZES) {
  console.log(
    `\nfair shares: two compiled payin-sandbox processes on a throwaway PostgreSQL (${HOSTED_FLAGS.join(" ")}), made anew for each ` +
      `attack; a victim tenant at ${VICTIM_PER_SECOND} requests a second (GET /webhooks, every fifth a create payment session whose ` +
      `session-created its endpoint refuses once), ${sizes.alone} alone, then ${sizes.attacked} while the attack runs; a request ` +
      `unanswered within ${VICTIM_TIMEOUT_MS / 1000} s is a timeout. Goal: no 5xx, 429 or timeout, p99 under ` +
      `${GOALS.p99Times}x alone (or alone + ${GOALS.p99PlusMs} ms), every delivery within ${GOALS.latenessMs / 1000} s of due, and a ` +
      `flood no rate limit counts at most ${GOALS.commitsPerSecond} commits a second per process:`,
  );
}

/** One attack's table: the victim alone and attacked, the attacker's requests, the commits, and each part of the goal. */
export function printAttackFigures(f: AttackFigures) {
  const heads = ["", "p50", "p99", "5xx", "429", "timeouts", "late deliveries", "worst lateness"];
  const widths = [10, 10, 10, 5, 5, 9, 16, 15];
  const row = (cells: string[]) => `    ${cells.map((c, i) => (i === 0 ? c.padEnd(widths[i]!) : c.padStart(widths[i]!))).join(" ")}`;
  const victim = (name: string, v: VictimFigures) =>
    row([
      name,
      ms(v.p50Ms),
      ms(v.p99Ms),
      String(v.serverErrors),
      String(v.tooMany),
      String(v.timeouts),
      v.lateness ? `${v.lateness.late} of ${v.lateness.deliveries}` : "-",
      v.lateness ? ms(v.lateness.worstMs) : "-",
    ]);
  const a = f.attacker;
  console.log(`  ${f.name}: ${f.attack.title}`);
  console.log(
    `    attacker: ${a.requests.toLocaleString("en-US")} requests in ${a.seconds.toFixed(1)} s (${statuses(a.statuses) || "none"})`,
  );
  console.log(row(heads));
  console.log(victim("alone", f.alone));
  console.log(victim("attacked", f.attacked));
  const counted = f.commits;
  const commits = counted
    ? `${counted.addedPerSecond.toFixed(1)} a second per process added (idle ${counted.idlePerSecond.toFixed(1)}), the attack alone ` +
      `at ${Math.round(counted.attacker.requests / counted.attacker.seconds)} requests a second`
    : "not counted (its requests are rate-limited)";
  console.log(
    `    p99 ${(f.attacked.p99Ms / f.alone.p99Ms).toFixed(1)}x alone (bound ${ms(p99Bound(f.alone))}); database commits: ${commits}`,
  );
  const checks = goals(f).filter(([, met]) => met !== undefined);
  const all = checks.every(([, met]) => met);
  console.log(`    goals: ${checks.map(([goal, met]) => `${goal} ${met ? "met" : "NOT MET"}`).join(", ")}: ${all ? "met" : "NOT MET"}`);
}

/** Which attacks the goal held against. */
export function printFairSharesSummary(figures: AttackFigures[]) {
  const held = figures.filter((f) => goals(f).every(([, met]) => met !== false));
  const broken = figures.filter((f) => !held.includes(f)).map((f) => f.name);
  console.log(
    `  goal held against ${held.length} of ${figures.length} attacks${broken.length > 0 ? ` (NOT MET against ${broken.join(", ")})` : ""}`,
  );
}
