// One tenant of a hosted sandbox, staying inside its rate limit, must leave every other tenant its
// share: two payin-sandbox processes on one throwaway PostgreSQL, started as a company hosts them
// (--accounts issued --rate-limit 50 --retention 30d), a victim tenant at 20 requests a second
// alone and then while one of the review's attacks runs. While it runs, the victim's requests get
// no 5xx, no 429 and no timeout and its deliveries arrive within 2 s of due; the bench also holds
// their p99 under 3x their p99 alone (or alone + 100 ms). The harness is the bench's
// (scripts/bench/hosted-attacks.ts, the "fair-shares" section), here sized to a few seconds an
// attack; the bench runs the review's sizes.
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  describeFigures,
  GOALS,
  runAttack,
  startHostedSandbox,
  unmetGoals,
  type AttackName,
  type Goals,
  type HostedSandbox,
  type Sizes,
} from "../../scripts/bench/hosted-attacks.ts";
import { root } from "../../scripts/lib/paths.ts";
import { postgresMissing } from "../../scripts/lib/temp-postgres.ts";

if (postgresMissing) console.warn(postgresMissing);

/** 40 victim requests alone and 40 attacked (2 s each), the review's backlog and log. */
const SIZES: Sizes = {
  alone: 40,
  attacked: 40,
  backlogEvents: 20_000,
  logAttempts: 160_000,
  commitWindowMs: 4000,
  everyLateness: false,
};
/**
 * The review's goals but its p99 bound, which is the bench's (`--only fair-shares`, on a quiet machine): here two test files
 * share two cores, and another file's work lands among the victim's requests (a list attack's p99 read 2 s in a loaded CI
 * run, where no request failed). The p50 and p99 are measured and printed all the same. Every attack the code before these
 * fixes lost, it lost by what is held here too: requests unanswered at 5 s, 429s, deliveries seconds late.
 */
const IN_THE_SUITE: Goals = { ...GOALS, p99Times: Number.POSITIVE_INFINITY };
/** An attack's whole run, today's failures included: its windows, its setup, its victim's timeouts and its stop. */
const ATTACK_TIMEOUT_MS = 45_000;

describe.skipIf(postgresMissing)("one tenant inside its rate limit leaves the others their share of a hosted sandbox", () => {
  let sandbox: HostedSandbox;
  let round = 0;
  beforeAll(async () => {
    // A first retry a second after a failure, so that the victim's retries come due inside its window. The cluster
    // flushes its commits as a hosted sandbox's does: a lock held to a commit is held as long as there.
    sandbox = await startHostedSandbox({ cli: path.join(root, "src/sandbox/cli.ts"), settings: "sandbox", retrySchedule: [1, 1] });
  });
  afterAll(() => sandbox?.stop());

  /** Runs the attack against a new victim and holds the goal; the figures are printed either way, for whoever fixes it. */
  async function holds(name: AttackName) {
    const figures = await runAttack(sandbox, name, SIZES, ++round);
    console.info(describeFigures(figures));
    expect(unmetGoals(figures, IN_THE_SUITE), `${describeFigures(figures)}\n${sandbox.logTail()}`).toEqual([]);
  }

  it(
    "a backlog of 20,000 events due to a URL that fails delays no other tenant's requests or deliveries",
    () => holds("backlog"),
    ATTACK_TIMEOUT_MS,
  );

  it(
    "waves of 50 clock advances and of 50 webhook registrations at once per process, on an empty account, queue no other tenant",
    () => holds("bursts"),
    ATTACK_TIMEOUT_MS,
  );

  it(
    "twelve clients per process listing a log of 160,000 delivery attempts, paged and not, slow no other tenant",
    () => holds("lists"),
    ATTACK_TIMEOUT_MS,
  );

  it(
    "20 invented tokens a second from the victim's own address get none of the victim's requests refused",
    () => holds("refusedTokens"),
    ATTACK_TIMEOUT_MS,
  );

  // The floods no rate limit counts (listener answers for deliveries no one holds, anonymous health and metrics) are held to
  // the database's work they cost where it is counted exactly, statement by statement: test/listen/answers.test.ts and
  // test/sandbox/health-metrics.test.ts. Their commits a second per process on two processes are the bench's
  // (`--only fair-shares`): PostgreSQL counts a backend's commits up to ten seconds late, longer than a test may wait.
});
