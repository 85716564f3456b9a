// `npm run bench`: figures for the package's speed goals, each measured side by side with its
// reference in one run. `--seconds N` sets each section's measuring time (default 10).
import { parseArgs } from "node:util";
import { benchWebhooks } from "./bench/webhooks.ts";
import { printFigures } from "./bench/measure.ts";

const { values } = parseArgs({ options: { seconds: { type: "string", default: "10" } } });
const durationMs = Number(values.seconds) * 1000;

const [ours, reference] = await benchWebhooks(durationMs);
printFigures([ours!, reference!]);
console.log(`  ratio: ${(ours!.value / reference!.value).toFixed(2)}x the reference (goal: at least 2x)`);
