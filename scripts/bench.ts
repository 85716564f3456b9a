// `npm run bench`: figures for the package's speed goals, each measured side by side with its
// reference in one run. `--seconds N` sets each section's measuring time (default 10).
import { parseArgs } from "node:util";
import { benchMock } from "./bench/mock.ts";
import { benchFlows } from "./bench/flows.ts";
import { benchSandbox } from "./bench/sandbox.ts";
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

console.log(`\nsandbox, create payment session on loopback (autocannon, 10 connections, ${seconds} s each in alternating 2 s rounds, medians; start-up: median of 3 cold starts):`);
const servers = await benchSandbox(seconds);
console.log(`  ${"".padEnd(36)} ${"start-up".padStart(10)} ${"req/s".padStart(10)} ${"p50".padStart(8)} ${"p99".padStart(8)} ${"non-2xx".padStart(8)}`);
for (const m of servers)
  console.log(
    `  ${m.name.padEnd(36)} ${`${Math.round(m.startupMs)} ms`.padStart(10)} ${Math.round(m.requestsPerSecond).toString().padStart(10)} ${`${m.latencyP50Ms} ms`.padStart(8)} ${`${m.latencyP99Ms} ms`.padStart(8)} ${String(m.non2xx).padStart(8)}`,
  );
const [bare, sandbox, sandboxSource, prismCli] = servers;
console.log(`  rate: ${(sandbox!.requestsPerSecond / prismCli!.requestsPerSecond).toFixed(1)}x Prism's (goal: at least 10x), ${((100 * sandbox!.requestsPerSecond) / bare!.requestsPerSecond).toFixed(0)} % of the bare node:http server's`);
console.log(`  start-up: ${Math.round(sandbox!.startupMs)} ms compiled, ${Math.round(sandboxSource!.startupMs)} ms from source (goal: under 300 ms), Prism's ${Math.round(prismCli!.startupMs)} ms, the bare server's ${Math.round(bare!.startupMs)} ms`);
console.log(`  p99: ${sandbox!.latencyP99Ms} ms (goal: below Prism's ${prismCli!.latencyP99Ms} ms)`);


console.log(`\nsandbox payment flow, simulate (pay) to the endpoint's receipt of transaction-completed (compiled bin, loopback, endpoint answering 204):`);
const flows = await benchFlows();
console.log(`  ${flows.flows} flows, ${flows.inFlight} in flight: p50 ${flows.p50Ms.toFixed(1)} ms, p99 ${flows.p99Ms.toFixed(1)} ms (goal: p99 under 50 ms), max ${flows.maxMs.toFixed(1)} ms`);
console.log(`  delivery throughput: ${Math.round(flows.eventsPerSecond)} events/s (${Math.round(flows.flowsPerSecond)} flows/s, three events each)`);
