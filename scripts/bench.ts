// `npm run bench`: figures for the package's speed goals, each measured side by side with its
// reference in one run. `--seconds N` sets each section's measuring time (default 10); `--scale N`
// the sessions of the scale sections (default 200,000); `--only` runs the sections it names, comma-separated, of webhooks,
// mock, sandbox, faults, layers, flows, conformance, scale, drivers, postgres, listen, tokens, tenants, cost, store-cost, openloop,
// openloop100, file, fair-shares and executables; `--now COMMIT` has the layers section measure that commit in place of the working
// tree, `--before COMMIT` the layers, file and store-cost sections against that commit rather than their own.
import { execFileSync } from "node:child_process";
import path from "node:path";
import { parseArgs } from "node:util";
import { benchMock } from "./bench/mock.ts";
import { benchFlows } from "./bench/flows.ts";
import { benchConformance } from "./bench/conformance.ts";
import { benchFaults } from "./bench/faults.ts";
import { BEFORE_LAYERS, benchLayers, LAYERS_FLOWS } from "./bench/layers.ts";
import { benchSandbox } from "./bench/sandbox.ts";
import { printFigures } from "./bench/measure.ts";
import { benchScale } from "./bench/scale.ts";
import { benchDrivers } from "./bench/drivers.ts";
import { benchListen } from "./bench/listen.ts";
import { benchTokenMemory } from "./bench/tokens.ts";
import { benchTenants } from "./bench/tenants.ts";
import { benchCost, printCost, printCostGoals } from "./bench/cost.ts";
import { BEFORE_FILE, benchFile, printFile } from "./bench/file.ts";
import { benchOpenLoop, benchOpenLoopGoal, printOpenLoop, printOpenLoopGoal } from "./bench/openloop.ts";
import { BEFORE_STORE, benchStoreCost, printStoreCostGoals } from "./bench/store-cost.ts";
import {
  benchFairShares,
  FAIR_SHARES_SIZES,
  printAttackFigures,
  printFairSharesHeading,
  printFairSharesSummary,
} from "./bench/fair-shares.ts";
import { benchExecutables, printExecutables } from "./bench/executables.ts";
import { BEFORE_DURABLE_COMMITS, benchShared, benchSharedScale, type SharedRow } from "./bench/shared.ts";
import { benchWebhookSteps, benchWebhooks } from "./bench/webhooks.ts";
import { root } from "./lib/paths.ts";

const { values } = parseArgs({
  options: {
    seconds: { type: "string", default: "10" },
    scale: { type: "string", default: "200000" },
    only: { type: "string" },
    now: { type: "string" },
    before: { type: "string" },
  },
});
const seconds = Number(values.seconds);
/** A p50 and a p99 in milliseconds, as two right-aligned cells. */
const latencyCells = (f: { p50Ms: number; p99Ms: number }) =>
  `${`${f.p50Ms.toFixed(1)} ms`.padStart(9)} ${`${f.p99Ms.toFixed(1)} ms`.padStart(9)}`;
const sections = new Set(
  values.only?.split(",") ?? [
    "webhooks",
    "mock",
    "sandbox",
    "faults",
    "layers",
    "flows",
    "conformance",
    "scale",
    "drivers",
    "postgres",
    "listen",
  ],
);

if (sections.has("webhooks")) {
  const [ours, reference] = await benchWebhooks(seconds * 1000);
  printFigures([ours!, reference!]);
  console.log(`  ratio: ${(ours!.value / reference!.value).toFixed(2)}x the reference (goal: at least 1.5x)`);
  await benchWebhookSteps((seconds * 1000) / 2);
  console.log();
}

if (sections.has("mock")) {
  console.log(
    `mock, create payment session on loopback (autocannon, 10 connections, ${seconds} s each; ` +
      `start-up: median of 3 cold starts to the first answer):`,
  );
  const mocks = await benchMock(seconds);
  console.log(
    `  ${"".padEnd(30)} ${"start-up".padStart(10)} ${"req/s".padStart(10)} ` +
      `${"p50".padStart(8)} ${"p99".padStart(8)} ${"non-2xx".padStart(8)}`,
  );
  for (const m of mocks)
    console.log(
      `  ${m.name.padEnd(30)} ${`${Math.round(m.startupMs)} ms`.padStart(10)} ` +
        `${Math.round(m.requestsPerSecond).toString().padStart(10)} ` +
        `${`${m.latencyP50Ms} ms`.padStart(8)} ${`${m.latencyP99Ms} ms`.padStart(8)} ${String(m.non2xx).padStart(8)}`,
    );
  const [mock, prism] = mocks;
  console.log(
    `  ratio: ${(mock!.requestsPerSecond / prism!.requestsPerSecond).toFixed(2)}x the Prism CLI's request rate (goal: at least 1.0x), ` +
      `${(mock!.startupMs / prism!.startupMs).toFixed(2)}x its start-up time (goal: at most 1.0x)`,
  );
}

if (sections.has("sandbox")) {
  console.log(
    `\nsandbox, create payment session on loopback (autocannon, 10 connections, ${seconds} s each in alternating 2 s rounds, medians; ` +
      `start-up: median of 3 cold starts):`,
  );
  const servers = await benchSandbox(seconds);
  console.log(
    `  ${"".padEnd(36)} ${"start-up".padStart(10)} ${"req/s".padStart(10)} ` +
      `${"p50".padStart(8)} ${"p99".padStart(8)} ${"non-2xx".padStart(8)}`,
  );
  for (const m of servers)
    console.log(
      `  ${m.name.padEnd(36)} ${`${Math.round(m.startupMs)} ms`.padStart(10)} ` +
        `${Math.round(m.requestsPerSecond).toString().padStart(10)} ` +
        `${`${m.latencyP50Ms} ms`.padStart(8)} ${`${m.latencyP99Ms} ms`.padStart(8)} ${String(m.non2xx).padStart(8)}`,
    );
  const [bare, sandbox, sandboxSource, prismCli] = servers;
  console.log(
    `  rate: ${(sandbox!.requestsPerSecond / prismCli!.requestsPerSecond).toFixed(1)}x Prism's (goal: at least 4x), ` +
      `${((100 * sandbox!.requestsPerSecond) / bare!.requestsPerSecond).toFixed(0)} % of the bare node:http server's`,
  );
  console.log(
    `  start-up: ${Math.round(sandbox!.startupMs)} ms compiled, ` +
      `${Math.round(sandboxSource!.startupMs)} ms from source (goal: under 300 ms), ` +
      `Prism's ${Math.round(prismCli!.startupMs)} ms, the bare server's ${Math.round(bare!.startupMs)} ms`,
  );
  console.log(`  p99: ${sandbox!.latencyP99Ms} ms (goal: below Prism's ${prismCli!.latencyP99Ms} ms)`);
}

if (sections.has("faults")) {
  console.log(
    `\nsandbox, create payment session for an account with no fault armed ` +
      `(TypeScript source, autocannon, 10 connections, ${seconds} s each in alternating 2 s rounds, medians):`,
  );
  const [before, again, now] = await benchFaults(seconds);
  for (const m of [before!, again!, now!])
    console.log(
      `  ${m.name.padEnd(40)} ${Math.round(m.requestsPerSecond).toString().padStart(8)} req/s  ` +
        `p50 ${m.latencyP50Ms} ms  p99 ${m.latencyP99Ms} ms  non-2xx ${m.non2xx}`,
    );
  const ratio = now!.requestsPerSecond / before!.requestsPerSecond;
  const noise = Math.abs(1 - again!.requestsPerSecond / before!.requestsPerSecond);
  console.log(
    `  ratio: ${ratio.toFixed(2)}x the rate before faults and the journal; ` +
      `the same server twice differs by ${(100 * noise).toFixed(0)} % (goal: within 5 %)`,
  );
}

if (sections.has("layers")) {
  const { flows, inFlight, roundSeconds } = LAYERS_FLOWS;
  console.log(
    `\nsandbox now against ${values.before ?? `${BEFORE_LAYERS}, the commit before the layer folders`} ` +
      `(TypeScript source, loopback, alternating rounds, medians):`,
  );
  const [before, again, now] = await benchLayers(seconds, { now: values.now, before: values.before });
  console.log(
    `  create payment session (autocannon, 10 connections, ${seconds} s each in ${roundSeconds} s rounds); ` +
      `one flow, simulate (pay) to the endpoint's receipt of transaction-completed ` +
      `(${flows.toLocaleString("en-US")} flows a round, ${inFlight} in flight, ` +
      `${now!.flowRounds} round${now!.flowRounds === 1 ? "" : "s"} each):`,
  );
  console.log(
    `  ${"".padEnd(48)} ${"req/s".padStart(8)} ${"p50".padStart(6)} ${"p99".padStart(6)} ${"non-2xx".padStart(8)}   ` +
      `${"flow p50".padStart(9)} ${"flow p99".padStart(9)}`,
  );
  for (const m of [before!, again!, now!])
    console.log(
      `  ${m.name.padEnd(48)} ${Math.round(m.create.requestsPerSecond).toString().padStart(8)} ` +
        `${`${m.create.latencyP50Ms} ms`.padStart(6)} ${`${m.create.latencyP99Ms} ms`.padStart(6)} ` +
        `${String(m.create.non2xx).padStart(8)}   ` +
        `${`${m.flowP50Ms.toFixed(1)} ms`.padStart(9)} ${`${m.flowP99Ms.toFixed(1)} ms`.padStart(9)}`,
    );
  const ratios = (a: typeof now, b: typeof now) =>
    `create rate ${(a!.create.requestsPerSecond / b!.create.requestsPerSecond).toFixed(2)}x, ` +
    `flow p50 ${(a!.flowP50Ms / b!.flowP50Ms).toFixed(2)}x, flow p99 ${(a!.flowP99Ms / b!.flowP99Ms).toFixed(2)}x`;
  console.log(`  now / before:                   ${ratios(now, before)}`);
  console.log(`  before / its second process:    ${ratios(before, again)} (the noise; goal: now within it)`);
}

if (sections.has("flows")) {
  console.log(
    `\nsandbox payment flow, simulate (pay) to the endpoint's receipt of transaction-completed ` +
      `(compiled bin, loopback, endpoint answering 204):`,
  );
  const flows = await benchFlows();
  console.log(
    `  ${flows.flows} flows, ${flows.inFlight} in flight: p50 ${flows.p50Ms.toFixed(1)} ms, p99 ${flows.p99Ms.toFixed(1)} ms ` +
      `(goal: p99 under 50 ms), max ${flows.maxMs.toFixed(1)} ms`,
  );
  console.log(
    `  delivery throughput: ${Math.round(flows.eventsPerSecond)} events/s (${Math.round(flows.flowsPerSecond)} flows/s, three events each)`,
  );
}

if (sections.has("conformance")) {
  execFileSync(process.execPath, [path.join(root, "scripts/build-package.ts")], { stdio: "ignore" });
  console.log("\nconformance kit, every check against the compiled sandbox with --control and --retry-schedule 1,1,1 (the compiled bin):");
  const run = await benchConformance();
  console.log(`  ${(run.ms / 1000).toFixed(1)} s (goal: under 15 s): ${run.summary}`);
}

if (sections.has("scale")) {
  const sessions = Number(values.scale);
  const accounts = Math.max(4, Math.round(sessions / 1000));
  // The bins are measured as shipped: compile dist/ from today's sources first.
  execFileSync(process.execPath, [path.join(root, "scripts/build-package.ts")], { stdio: "ignore" });
  console.log(
    `\nsandbox at scale: ${sessions.toLocaleString("en-US")} sessions over ${accounts} accounts in a --db file, against an empty one ` +
      `(compiled bin, loopback, create load in alternating ${2} s rounds, ${seconds} s each):`,
  );
  const s = await benchScale(sessions, accounts, seconds);
  const b = s.bytes;
  console.log(`  filled in ${s.fillSeconds.toFixed(1)} s through the create handlers`);
  console.log(
    `  bytes: ${Math.round(b.perSession)} per session, ${Math.round(b.perCounterparty)} per counterparty, ` +
      `${Math.round(b.perEvent)} per event (tables and indexes); file ${Math.round(b.filePerSession)} per session, all in`,
  );
  console.log(
    `  create session: ${Math.round(s.create.full.rate)} req/s, p99 ${s.create.full.p99} ms at this size; ` +
      `${Math.round(s.create.empty.rate)} req/s, p99 ${s.create.empty.p99} ms empty`,
  );
  console.log(
    `    rate ${((100 * s.create.full.rate) / s.create.empty.rate).toFixed(0)} % of the empty sandbox's (goal: at least 90 %), ` +
      `p99 ${(s.create.full.p99 / s.create.empty.p99).toFixed(2)}x (goal: at most 1.5x)`,
  );
  console.log(`  idle CPU over 5 s, one account a day ahead: ${s.idleCpuPercent.toFixed(2)} % of a core (goal: under 1 %)`);
  console.log(
    `  advance of an hour expiring 1,000 sessions: ${s.advanceExpiring1000Ms.toFixed(1)} ms; ` +
      `of a minute settling 1,000 transactions: ${s.advanceSettling1000Ms.toFixed(1)} ms (goal: under 100 ms each)`,
  );
  console.log(
    `  restart to first answer: ${Math.round(s.firstAnswerMs.full)} ms ` +
      `(empty file: ${Math.round(s.firstAnswerMs.empty)} ms; goal: under 300 ms); ` +
      `stop on SIGTERM: ${Math.round(s.stopMs)} ms (goal: under 1 s)`,
  );
  console.log(`  RSS after the load: ${Math.round(s.rssMiB)} MiB`);
}

if (sections.has("drivers")) {
  console.log(
    `\nPostgreSQL drivers for the store, an insert and a read by key, prepared (throwaway cluster on a Unix socket, ${seconds} s, ` +
      "alternating rounds, medians):",
  );
  const figures = await benchDrivers(seconds * 1000);
  printFigures(figures);
  const rate = (name: string) => figures.find((f) => f.name === name)!.value;
  console.log(
    `  pg / postgres: ${(rate("pg, one at a time") / rate("postgres, one at a time")).toFixed(2)}x one at a time ` +
      "(a transaction's statements), " +
      `${(rate("pg, ten in flight") / rate("postgres, ten in flight")).toFixed(2)}x ten in flight`,
  );
}

if (sections.has("postgres")) {
  execFileSync(process.execPath, [path.join(root, "scripts/build-package.ts")], { stdio: "ignore" });
  console.log(
    "\nsandbox on PostgreSQL against SQLite (compiled bin, throwaway cluster on a Unix socket; " +
      "create payment session: autocannon, " +
      `10 connections to each process, ${seconds} s in alternating 2 s rounds, medians; one flow: simulate (pay) to the endpoint's ` +
      "receipt of transaction-completed, one flow at a time, 300 flows):",
  );
  const rows = await benchShared(seconds);
  console.log(`  ${"".padEnd(36)} ${"req/s".padStart(8)} ${"p99".padStart(7)}   ${"flow p50".padStart(9)} ${"flow p99".padStart(9)}`);
  for (const r of rows)
    console.log(
      `  ${r.name.padEnd(36)} ${Math.round(r.create.rate).toString().padStart(8)} ` +
        `${`${r.create.p99} ms`.padStart(7)}   ${latencyCells(r.flow)}`,
    );
  const [memory, file, one, two, fromSource, before] = rows;
  const share = (of: SharedRow) => `${((100 * one!.create.rate) / of.create.rate).toFixed(0)} %`;
  console.log(
    `  PostgreSQL, 1 process: ${share(memory!)} of SQLite's create rate in memory, ${share(file!)} of SQLite's on a file ` +
      "(a goal retired: many tenants at once is the section that matters), " +
      `flow p99 ${one!.flow.p99Ms.toFixed(1)} ms (goal: under 20 ms); 2 processes: ${(two!.create.rate / one!.create.rate).toFixed(2)}x ` +
      `one's rate, flow p99 ${two!.flow.p99Ms.toFixed(1)} ms`,
  );
  console.log(
    "  commits on disk before the answer, both from source: " +
      `${(fromSource!.create.rate / before!.create.rate).toFixed(2)}x ` +
      `the create rate of ${BEFORE_DURABLE_COMMITS}, which did not wait (server: synchronous_commit = off, fsync on), ` +
      `flow p50 ${(fromSource!.flow.p50Ms / before!.flow.p50Ms).toFixed(2)}x, ` +
      `p99 ${(fromSource!.flow.p99Ms / before!.flow.p99Ms).toFixed(2)}x`,
  );

  const sessions = Number(values.scale);
  const s = await benchSharedScale(sessions, seconds);
  console.log(
    `  at scale: ${sessions.toLocaleString("en-US")} sessions filled through the handlers in ${s.fillSeconds.toFixed(0)} s, ` +
      "against an empty database, one process each:",
  );
  for (const [name, m] of [
    ["empty", s.empty],
    [`${sessions.toLocaleString("en-US")} sessions`, s.full],
  ] as const)
    console.log(
      `  ${name.padEnd(32)} ${Math.round(m.create.rate).toString().padStart(8)} ` +
        `${`${m.create.p99} ms`.padStart(7)}   ${latencyCells(m.flow)}`,
    );
  const worst = Math.max(
    s.empty.create.rate / s.full.create.rate,
    s.full.create.p99 / s.empty.create.p99,
    s.full.flow.p50Ms / s.empty.flow.p50Ms,
    s.full.flow.p99Ms / s.empty.flow.p99Ms,
  );
  console.log(
    `  full / empty: create rate ${(s.full.create.rate / s.empty.create.rate).toFixed(2)}x, ` +
      `p99 ${(s.full.create.p99 / s.empty.create.p99).toFixed(2)}x, ` +
      `flow p50 ${(s.full.flow.p50Ms / s.empty.flow.p50Ms).toFixed(2)}x, ` +
      `flow p99 ${(s.full.flow.p99Ms / s.empty.flow.p99Ms).toFixed(2)}x ` +
      `(goal: no figure worse than 1.5x; worst ${worst.toFixed(2)}x)`,
  );
}

if (sections.has("listen")) {
  execFileSync(process.execPath, [path.join(root, "scripts/build-package.ts")], { stdio: "ignore" });
  const l = await benchListen();
  console.log(
    `\npayin-listen: two compiled payin-sandbox processes on one throwaway PostgreSQL, the compiled payin-listen on one, ` +
      `the events made through the other; from a session's create request to the local endpoint's receipt of its session-created, ` +
      `${l.events} events one at a time, in alternating rounds with a URL registered for another account:`,
  );
  console.log(`  ${"".padEnd(32)} ${"p50".padStart(9)} ${"p99".padStart(9)}`);
  console.log(`  ${"through the listener".padEnd(32)} ${latencyCells(l.listener)}`);
  console.log(`  ${"to a registered URL".padEnd(32)} ${latencyCells(l.url)}`);
  console.log(
    `  listener p99 ${l.listener.p99Ms.toFixed(1)} ms (goal: under 1,000 ms), ` +
      `${(l.listener.p50Ms / l.url.p50Ms).toFixed(2)}x a URL's p50; ` +
      `idle over 10 s with the listener connected: payin-listen ${l.idle.listener.toFixed(2)} %, each sandbox process at most ` +
      `${l.idle.sandboxes.toFixed(2)} % of a core (${l.idle.sandboxesWithout.toFixed(2)} % before the listener connected)`,
  );
}

if (sections.has("tokens")) {
  execFileSync(process.execPath, [path.join(root, "scripts/build-package.ts")], { stdio: "ignore" });
  const m = await benchTokenMemory();
  console.log(
    "\nmemory per token seen: two compiled bins on a throwaway PostgreSQL, each asked GET /webhooks " +
      `${m.requests.toLocaleString("en-US")} ` +
      `times, 50 in flight (${Math.round(m.requests / m.seconds)} a second), with 1,000 distinct tokens and with ` +
      `${m.requests.toLocaleString("en-US")}; RSS after the load:`,
  );
  console.log(
    `  1,000 tokens ${m.fewTokensMiB.toFixed(0)} MiB, ${m.requests.toLocaleString("en-US")} tokens ${m.manyTokensMiB.toFixed(0)} MiB: ` +
      `${(m.manyTokensMiB - m.fewTokensMiB).toFixed(0)} MiB apart (goal: within 50 MB)`,
  );
}

if (sections.has("tenants")) {
  execFileSync(process.execPath, [path.join(root, "scripts/build-package.ts")], { stdio: "ignore" });
  console.log(
    "\nmany tenants at once: two compiled payin-sandbox processes on one throwaway PostgreSQL, each account running 5 flows at once " +
      "(counterparty, session, pay; requests taken by the processes in turn; every event delivered to an endpoint on loopback):",
  );
  const heads = [
    ["accounts", -10],
    ["5xx", 5],
    ["lost", 5],
    ["create p50", 11],
    ["p99", 9],
    ["req/s", 7],
    ["deliveries/s", 13],
  ] as const;
  console.log(`  ${heads.map(([h, w]) => (w < 0 ? h.padEnd(-w) : h.padStart(w))).join(" ")}`);
  const { rows, bytesPerAccount } = await benchTenants();
  for (const r of rows)
    console.log(
      `  ${String(r.accounts).padEnd(10)} ${String(r.serverErrors).padStart(5)} ${String(r.lost).padStart(5)} ` +
        `${`${r.createP50Ms.toFixed(1)} ms`.padStart(11)} ${`${r.createP99Ms.toFixed(1)} ms`.padStart(9)} ` +
        `${Math.round(r.requestsPerSecond).toString().padStart(7)} ${Math.round(r.deliveriesPerSecond).toString().padStart(13)}`,
    );
  const [forty] = rows;
  const tenantsMet = forty!.serverErrors === 0 && forty!.lost === 0 && forty!.createP99Ms < 100;
  console.log(
    `  goal: no 5xx, nothing lost, create p99 under 100 ms at 40 accounts (${forty!.serverErrors}, ${forty!.lost}, ` +
      `${forty!.createP99Ms.toFixed(1)} ms): ${tenantsMet ? "met" : "NOT MET"}`,
  );
  console.log(`  storage: ${Math.round(bytesPerAccount / 1024)} KiB of database per account of five paid sessions`);
}

if (sections.has("cost")) {
  execFileSync(process.execPath, [path.join(root, "scripts/build-package.ts")], { stdio: "ignore" });
  const engines = await benchCost();
  printCost(engines);
  printCostGoals(engines);
}

if (sections.has("store-cost")) {
  // Both trees from source, the cost section's rounds and then the file section's, against the same commit.
  const before = values.before ?? BEFORE_STORE;
  const engines = await benchStoreCost(before);
  printCost(engines, `TypeScript source of the working tree and of ${before}`);
  const file = await benchFile(seconds, before);
  printFile(file, before);
  printStoreCostGoals(engines, file, before);
}

if (sections.has("file")) {
  const before = values.before ?? BEFORE_FILE;
  printFile(await benchFile(seconds, before), before);
}

if (sections.has("openloop")) {
  execFileSync(process.execPath, [path.join(root, "scripts/build-package.ts")], { stdio: "ignore" });
  // Each rate's step is half the section's seconds: five rates on two targets.
  const stepSeconds = Math.max(3, Math.round(seconds / 2));
  printOpenLoop(await benchOpenLoop(stepSeconds), stepSeconds);
}

if (sections.has("openloop100")) {
  execFileSync(process.execPath, [path.join(root, "scripts/build-package.ts")], { stdio: "ignore" });
  printOpenLoopGoal(await benchOpenLoopGoal(seconds), seconds);
}

if (sections.has("fair-shares")) {
  execFileSync(process.execPath, [path.join(root, "scripts/build-package.ts")], { stdio: "ignore" });
  printFairSharesHeading();
  printFairSharesSummary(await benchFairShares(FAIR_SHARES_SIZES, printAttackFigures));
}

if (sections.has("executables")) printExecutables(await benchExecutables());
