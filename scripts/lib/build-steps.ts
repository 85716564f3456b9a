// The steps before anything can be served, each with what it reads and makes, so that
// `npm start` and the docs test skip one whose inputs and outputs have not changed.
import { spawn, type ChildProcess } from "node:child_process";
import path from "node:path";
import { SAMPLE_LANGUAGES } from "../docs/code-groups.ts";
import { root } from "./paths.ts";
import { cachedStep, type CachedStep } from "./steps.ts";

/** Where the hashes of each step's last successful run are kept (not committed). */
const stamps = path.join(root, "node_modules", ".cache", "payin-steps");

// A script still running when this process exits (stopped halfway) is stopped with it.
const running = new Set<ChildProcess>();
process.once("exit", () => running.forEach((child) => child.kill()));

/**
 * Runs one of the scripts in its own process (so that other work can go on). What it prints is
 * the tools' chatter (bundling, generating): shown when it fails, and otherwise only unless quiet.
 */
const runScript =
  (script: string, quiet = false) =>
  () =>
    new Promise<void>((resolve, reject) => {
      const child = spawn(process.execPath, [path.join(root, "scripts", script)], {
        cwd: root,
        stdio: ["ignore", quiet ? "pipe" : "inherit", quiet ? "pipe" : "inherit"],
      });
      const printed: Buffer[] = [];
      child.stdout?.on("data", (chunk: Buffer) => printed.push(chunk));
      child.stderr?.on("data", (chunk: Buffer) => printed.push(chunk));
      running.add(child);
      child.once("exit", () => running.delete(child));
      child.once("error", reject);
      child.once("exit", (code, signal) => {
        if (code === 0) return resolve();
        process.stderr.write(Buffer.concat(printed));
        reject(new Error(`scripts/${script} failed (${signal ?? `exit ${code}`})`));
      });
    });

// What each step reads, over-counted rather than missed: tool versions come with the lockfile.
const tools = ["package-lock.json", "redocly.yaml", "scripts/lib"];

const generatedStep = (quiet: boolean): CachedStep => ({
  name: "build generated/",
  inputs: [...tools, "openapi", "asyncapi", "scripts/build.ts"],
  outputs: ["generated"],
  run: runScript("build.ts", quiet),
});

// A step of its own, not part of generated/'s: it reads src/, and an edit there should not
// bundle the documents again.
const guidesStep = (quiet: boolean): CachedStep => ({
  name: "write the conformance guide's checks",
  inputs: [...tools, "generated", "src", "scripts/build-guides.ts"],
  outputs: ["scripts/docs/guides/conformance.md"],
  run: runScript("build-guides.ts", quiet),
});

const docsStep = (quiet: boolean): CachedStep => ({
  name: "build the docs site",
  // The samples too: the code groups take their snippets from them.
  inputs: [
    ...tools,
    "generated",
    "openapi/DECISIONS.md",
    "scripts/docs.ts",
    "scripts/docs",
    "src",
    ...SAMPLE_LANGUAGES.map((l) => l.folder),
  ],
  outputs: ["dist/docs"],
  run: runScript("docs.ts", quiet),
});

/** `npm run build`'s generated/ (not the compiled package, which nothing served needs). */
export const buildGenerated = ({ quiet = false } = {}) => cachedStep(root, stamps, generatedStep(quiet));

/** `npm run build`'s tables of checks in the conformance guide, which the docs site renders. */
export const buildGuides = ({ quiet = false } = {}) => cachedStep(root, stamps, guidesStep(quiet));

/** `npm run docs`: dist/docs/. */
export const buildDocs = ({ quiet = false } = {}) => cachedStep(root, stamps, docsStep(quiet));
