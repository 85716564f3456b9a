// What the sandbox's layer folders (edge/, api/, flow/, delivery/, store/) cost: the sandbox of
// the working tree against the sandbox of the commit before them, checked out beside the
// repository, both from their TypeScript source, with a second process of the earlier sandbox
// to show the noise. Two figures, each in alternating rounds between the three: the create
// payment session rate (autocannon, as the sandbox section measures it), and the latency of one
// flow, from `simulate` (pay) to the endpoint's receipt of transaction-completed (as the flows
// section measures it).
import { median } from "./measure.ts";
import { sandboxCli, withEarlierSandbox } from "./earlier.ts";
import { startFlowSandbox, type FlowFigures, type FlowSandbox } from "./flows.ts";
import { benchSandbox, newCounterparty, printsItsUrl, sessionBody, type Contender, type ServerFigures } from "./sandbox.ts";

/** The last commit before the sandbox's layer folders. */
export const BEFORE_LAYERS = "c13d5c1";
const ROUND_SECONDS = 2;
const FLOWS = 1000;
const IN_FLIGHT = 100;

export interface LayerFigures {
  name: string;
  create: ServerFigures;
  /** Medians of the rounds' p50 and p99. */
  flowP50Ms: number;
  flowP99Ms: number;
  flowRounds: number;
}

/**
 * `now` is a commit to measure in place of the working tree (checked out beside it as well),
 * for when the working tree's sandbox does not start; `before` the commit to measure it against
 * (default the one before the layers: a change of the house since, such as the one service entry's, names its own).
 */
export async function benchLayers(
  durationSeconds: number,
  { now, before: beforeCommit = BEFORE_LAYERS }: { now?: string; before?: string } = {},
): Promise<LayerFigures[]> {
  const measure = (nowCli: string, nowName: string) =>
    withEarlierSandbox(beforeCommit, async (before) => {
      const clis = [
        { name: `before (${beforeCommit})`, cli: before.cli },
        // The same code in another process: how far apart two runs of one server land, the noise.
        { name: "before, a second process", cli: before.cli },
        { name: nowName, cli: nowCli },
      ];
      const contenders = clis.map(
        ({ name, cli }): Contender => ({
          name,
          start: () => printsItsUrl(process.execPath, [cli, "--port", "0"]),
          prepare: async (url) => sessionBody(await newCounterparty(url)),
        }),
      );
      const create = await benchSandbox(durationSeconds, { contenders, startups: 1, roundSeconds: ROUND_SECONDS, build: false });
      const flows = await alternatingFlows(
        clis.map((c) => c.cli),
        Math.max(1, Math.round(durationSeconds / ROUND_SECONDS)),
      );
      return clis.map(({ name }, i) => ({
        name,
        create: create[i]!,
        flowP50Ms: median(flows[i]!.map((f) => f.p50Ms)),
        flowP99Ms: median(flows[i]!.map((f) => f.p99Ms)),
        flowRounds: flows[i]!.length,
      }));
    });
  if (now === undefined) return measure(sandboxCli(), "now (working tree)");
  return withEarlierSandbox(now, (checkout) => measure(checkout.cli, `now, in place of the working tree (${now})`));
}

/**
 * One fresh sandbox per cli, each with its endpoint; a batch of flows through each in turn, per
 * round, after one batch each to warm up.
 */
async function alternatingFlows(clis: string[], rounds: number): Promise<FlowFigures[][]> {
  const sandboxes: FlowSandbox[] = [];
  try {
    for (const cli of clis) sandboxes.push(await startFlowSandbox(cli));
    for (const sandbox of sandboxes) await sandbox.run(FLOWS, IN_FLIGHT);
    const figures: FlowFigures[][] = clis.map(() => []);
    for (let round = 0; round < rounds; round++)
      for (const [i, sandbox] of sandboxes.entries()) figures[i]!.push(await sandbox.run(FLOWS, IN_FLIGHT));
    return figures;
  } finally {
    await Promise.all(sandboxes.map((s) => s.stop()));
  }
}

export const LAYERS_FLOWS = { flows: FLOWS, inFlight: IN_FLIGHT, roundSeconds: ROUND_SECONDS };
