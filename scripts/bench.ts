// `npm run bench`: figures for the package's speed goals, each measured side by side with its
// reference in one run. `--seconds N` sets each section's measuring time (default 10).
import { parseArgs } from "node:util";
import { benchMock } from "./bench/mock.ts";
import { printFigures } from "./bench/measure.ts";
import { benchWebhookSteps, benchWebhooks } from "./bench/webhooks.ts";

const { values } = parseArgs({ options: { seconds: { type: "string", default: "10" } } });
const seconds = Number(values.seconds);

const [ours, reference] = await benchWebhooks(seconds * 1000);
printFigures([ours!, reference!]);
console.log(`  ratio: ${(ours!.value / reference!.value).toFixed(2)}x the reference (goal: at least 3x)`);
await benchWebhookSteps((seconds * 1000) / 2);
console.log();

console.log(`mock, create payment session on loopback (autocannon, 10 connections, ${seconds} s each; start-up: median of 3 cold starts to the first answer):`);
const mocks = await benchMock(seconds);
console.log(`  ${"".padEnd(30)} ${"start-up".padStart(10)} ${"req/s".padStart(10)} ${"p50".padStart(8)} ${"p99".padStart(8)} ${"non-2xx".padStart(8)}`);
for (const m of mocks)
  console.log(
    `  ${m.name.padEnd(30)} ${`${Math.round(m.startupMs)} ms`.padStart(10)} ${Math.round(m.requestsPerSecond).toString().padStart(10)} ${`${m.latencyP50Ms} ms`.padStart(8)} ${`${m.latencyP99Ms} ms`.padStart(8)} ${String(m.non2xx).padStart(8)}`,
  );
const [mock, prism] = mocks;
console.log(
  `  ratio: ${(mock!.requestsPerSecond / prism!.requestsPerSecond).toFixed(2)}x the Prism CLI's request rate (goal: at least 1.0x), ${(mock!.startupMs / prism!.startupMs).toFixed(2)}x its start-up time (goal: at most 1.0x)`,
);
