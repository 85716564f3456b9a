// Runs the payin flows (generated/payin.arazzo.yaml) against an implementation with Redocly's
// `respect`, the Arazzo runner, and reports each workflow as a check: `flows.customer-pays`.
// The kit registers its flow receiver as the account's webhook URL first, so that it knows the
// signing secret the workflows' deliveries must carry. Without the control API, the workflows
// that act as the customer or move the clock are skipped. The kit's own timeout (the registration's)
// is on the clock it is given; respect keeps its own time, in its own process.
import { spawn } from "node:child_process";
import { mkdtemp, readFile, rm } from "node:fs/promises";
import { createRequire } from "node:module";
import { tmpdir } from "node:os";
import path from "node:path";
import { stripVTControlCharacters } from "node:util";
import { packageRoot, readPackageFile } from "../package-root.ts";
import { systemClock, timeoutSignal, type Clock } from "../lib/clock.ts";
import { REDOCLY_ENV } from "../lib/redocly-env.ts";
import type { CheckResult } from "./check.ts";
import { PATHS } from "./fixtures.ts";
import { startFlowReceiver } from "./flow-receiver.ts";
import { SetupFailed } from "./run-receiver.ts";
import { UnreachableTarget } from "./run-service.ts";

const root = packageRoot(import.meta.url);
/** The flows as the package ships them, beside the bundles they name. */
export const ARAZZO_FILE = path.join(root, "generated", "payin.arazzo.yaml");

interface Step {
  stepId: string;
  operationId?: string;
  workflowId?: string;
}
interface Workflow {
  workflowId: string;
  summary: string;
  steps: Step[];
}

/** The flows' workflows, from the JSON twin of the packaged file. */
export async function flowWorkflows(): Promise<Workflow[]> {
  const document = JSON.parse(readPackageFile(import.meta.url, "generated/payin.arazzo.json"));
  return document.workflows;
}

/** Whether a workflow, or one it runs, calls the sandbox's control API. */
export function needsControl(workflow: Workflow, all: readonly Workflow[]): boolean {
  return workflow.steps.some((step) =>
    step.workflowId
      ? needsControl(all.find((w) => w.workflowId === step.workflowId)!, all)
      : step.operationId?.startsWith("$sourceDescriptions.sandbox."),
  );
}

/** `@redocly/cli` is an optional peer of this package: only the flows need it. */
export class RespectMissing extends Error {
  override readonly name = "RespectMissing";
}

function respectBin(): string {
  const require = createRequire(import.meta.url);
  let manifest: string;
  try {
    manifest = require.resolve("@redocly/cli/package.json");
  } catch {
    throw new RespectMissing("the flows run with Redocly's respect: install it beside this package (npm install --save-dev @redocly/cli)");
  }
  const { bin } = require(manifest) as { bin: Record<string, string> };
  return path.join(path.dirname(manifest), bin.redocly!);
}

export interface FlowsOptions {
  baseUrl: string;
  token: string;
  /** The target also serves the sandbox's control API: every workflow runs, not only those of the six operations. */
  control?: boolean;
  receiverHost?: string;
  receiverPort?: number;
  /** Where the target reaches the flow receiver, when not at the receiver's own address. */
  publicUrl?: string;
  /** Only the workflows with these ids. */
  only?: readonly string[];
  /** What the registration's timeout is measured on: the system's clock by default. */
  clock?: Clock;
}

export interface FlowsReport {
  results: CheckResult[];
  counts: { passed: number; failed: number; skipped: number };
}

export async function runFlows(options: FlowsOptions): Promise<FlowsReport> {
  const bin = respectBin();
  const baseUrl = options.baseUrl.replace(/\/+$/, "");
  const all = await flowWorkflows();
  const chosen = all.filter((w) => !options.only || options.only.includes(w.workflowId));
  const runnable = chosen.filter((w) => options.control || !needsControl(w, all));
  const clock = options.clock ?? systemClock;
  const receiver = await startFlowReceiver({ host: options.receiverHost, port: options.receiverPort, publicUrl: options.publicUrl, clock });
  const folder = await mkdtemp(path.join(tmpdir(), "payin-flows-"));
  try {
    receiver.secret = await register(baseUrl, options.token, receiver.url, clock);
    const log = path.join(folder, "respect.json");
    const printed = await respect(bin, [
      ARAZZO_FILE,
      ...runnable.flatMap((w) => ["--workflow", w.workflowId]),
      ...["--input", `token=${options.token}`, "--input", `webhook_url=${receiver.url}`],
      ...["--server", `payin=${baseUrl}`, "--server", `sandbox=${baseUrl}`],
      ...["--json-output", log, "--execution-timeout", "600000"],
    ]);
    const ran = await readFile(log, "utf8").then(
      (text) => JSON.parse(text).files as Record<string, { executedWorkflows: RespectWorkflow[] }>,
      () => {
        throw new Error(`redocly respect wrote no results:\n${printed}`);
      },
    );
    const executed = Object.values(ran).flatMap((file) => file.executedWorkflows);
    const results = chosen.map((workflow): CheckResult => {
      const id = `flows.${workflow.workflowId}`;
      const name = workflow.summary;
      if (!runnable.includes(workflow))
        return { id, name, outcome: "skipped", durationMs: 0, reason: "it needs the control API (run with --control)" };
      const run = executed.find((w) => w.workflowId === workflow.workflowId);
      if (!run) return { id, name, outcome: "failed", durationMs: 0, reason: "redocly respect did not run it" };
      const failures = failedChecks(run.executedSteps);
      if (failures.length === 0) return { id, name, outcome: "passed", durationMs: run.totalTimeMs };
      return {
        id,
        name,
        outcome: "failed",
        durationMs: run.totalTimeMs,
        reason: failures[0]!.split("\n")[0]!,
        details: [...failures.slice(1).map((f) => f.split("\n")[0]!), ...receiver.refusals.map((r) => `receiver: ${r}`)],
      };
    });
    const count = (outcome: CheckResult["outcome"]) => results.filter((r) => r.outcome === outcome).length;
    return { results, counts: { passed: count("passed"), failed: count("failed"), skipped: count("skipped") } };
  } finally {
    await receiver.close();
    await rm(folder, { recursive: true, force: true });
  }
}

/** Registers the receiver's URL and returns the signing secret its deliveries carry. */
async function register(baseUrl: string, token: string, url: string, clock: Clock): Promise<string> {
  let answer: Response;
  try {
    answer = await fetch(baseUrl + PATHS.webhooks, {
      method: "POST",
      headers: { authorization: `Bearer ${token}`, "content-type": "application/json" },
      body: JSON.stringify({ url }),
      signal: timeoutSignal(clock, 15_000),
    });
  } catch (error) {
    throw new UnreachableTarget(`${baseUrl} cannot be reached: ${(error as Error).cause ?? (error as Error).message}`);
  }
  const body = (await answer.json().catch(() => ({}))) as { signing_secret?: string };
  if (!answer.ok || typeof body.signing_secret !== "string")
    throw new SetupFailed(
      `POST /webhooks answered ${answer.status} to the flow receiver's URL ${url}, with no signing_secret: ` +
        "give --public-url, an https:// URL that reaches the receiver",
    );
  return body.signing_secret;
}

/** Runs `redocly respect` with its telemetry off and resolves to what it printed. */
function respect(bin: string, args: string[]): Promise<string> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [bin, "respect", ...args], {
      env: { ...process.env, ...REDOCLY_ENV, NO_COLOR: "1", FORCE_COLOR: "0" },
      stdio: ["ignore", "pipe", "pipe"],
    });
    const printed: Buffer[] = [];
    child.stdout.on("data", (chunk: Buffer) => printed.push(chunk));
    child.stderr.on("data", (chunk: Buffer) => printed.push(chunk));
    child.once("error", reject);
    child.once("close", () => resolve(stripVTControlCharacters(Buffer.concat(printed).toString("utf8"))));
  });
}

interface RespectCheck {
  name: string;
  passed: boolean;
  severity: string;
  message: string;
  condition?: string;
}
interface RespectStep {
  type: "step" | "workflow";
  stepId: string;
  request?: { method: string; url: string };
  checks?: RespectCheck[];
  executedSteps?: RespectStep[];
}
interface RespectWorkflow {
  workflowId: string;
  totalTimeMs: number;
  executedSteps: RespectStep[];
}

/** Each failed check of the steps, a child workflow's included, as `step S (METHOD /path): check: message`. */
function failedChecks(steps: readonly RespectStep[], within = ""): string[] {
  return steps.flatMap((step) => {
    const where = `${within}step ${step.stepId}`;
    if (step.executedSteps) return failedChecks(step.executedSteps, `${where} › `);
    const call = step.request?.url ? ` (${step.request.method.toUpperCase()} ${new URL(step.request.url).pathname})` : "";
    return (step.checks ?? [])
      .filter((check) => !check.passed && check.severity === "error")
      .map((check) => {
        const message = stripVTControlCharacters(check.message).trim().replace(/\s+/g, " ");
        return `${where}${call}: ${check.name}${check.condition ? ` ${check.condition}` : ""}: ${message}`;
      });
  });
}
