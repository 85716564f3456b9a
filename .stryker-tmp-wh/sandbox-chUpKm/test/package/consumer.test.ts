// @ts-nocheck
// The package as a consumer receives it: packed, installed into a fresh project, compiled
// there with strict tsc, and run against the mock started from the installed package.
import { execFile, spawn, type ChildProcess } from "node:child_process";
import { copyFileSync, existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, statSync, symlinkSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { promisify } from "node:util";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { bin, root } from "../../scripts/lib/paths.ts";

const exec = promisify(execFile);
const work = mkdtempSync(path.join(tmpdir(), "payin-consumer-"));
const project = path.join(work, "project");
const fixtures = path.join(root, "test", "package", "consumer");
const SYSTEM_NODE = "/usr/bin/node";
let tarball: string;
let packed: { size: number; files: Array<{ path: string }> };
let mock: ChildProcess | undefined;
let mockUrl: string;

beforeAll(async () => {
  // `npm pack` runs prepack, which compiles dist/.
  const { stdout } = await exec("npm", ["pack", "--json", "--pack-destination", work], { cwd: root, maxBuffer: 1 << 24 });
  packed = JSON.parse(stdout.slice(stdout.indexOf("[")))[0];
  tarball = path.join(work, (packed as unknown as { filename: string }).filename);

  mkdirSync(project);
  writeFileSync(path.join(project, "package.json"), JSON.stringify({ name: "consumer", private: true, type: "module", dependencies: { "payin-acceptance-contract": `file:${tarball}` } }));
  await exec("npm", ["install", "--no-audit", "--no-fund", "--prefer-offline"], { cwd: project });
  // What a consumer would have as devDependencies for these checks: Node's types and Prism.
  for (const scope of ["@types", "@stoplight"]) symlinkSync(path.join(root, "node_modules", scope), path.join(project, "node_modules", scope));
  for (const file of ["main.ts", "wrong.ts", "tsconfig.json"]) copyFileSync(path.join(fixtures, file), path.join(project, file));

  mock = spawn(path.join(project, "node_modules", ".bin", "payin-mock"), ["--port", "0"], { cwd: project, stdio: ["ignore", "pipe", "inherit"] });
  mockUrl = await new Promise<string>((resolve, reject) => {
    mock!.stdout!.on("data", (chunk: Buffer) => {
      const url = chunk.toString().match(/listening on (http:\/\/\S+)/)?.[1];
      if (url) resolve(url);
    });
    mock!.once("exit", (code) => reject(new Error(`payin-mock exited with ${code}`)));
  });
}, 240_000);

afterAll(() => {
  mock?.kill("SIGTERM");
  rmSync(work, { recursive: true, force: true });
});

describe("the packed package", () => {
  it("is under 200 KiB and ships only what consumers use", () => {
    expect(statSync(tarball).size).toBeLessThan(200 * 1024);
    const files = packed.files.map((f) => f.path);
    expect(files.filter((f) => !/^(dist\/(src|generated)\/.*\.(js|d\.ts)|generated\/(openapi|asyncapi)\.(json|yaml)|package\.json|README\.md|CHANGELOG\.md|LICENSE)$/.test(f))).toEqual([]);
    expect(files).toEqual(expect.arrayContaining(["dist/src/index.js", "dist/src/webhooks/index.d.ts", "generated/openapi.yaml", "generated/asyncapi.json"]));
  });

  it("has at most one runtime dependency, openapi-fetch, and validates events without a library", () => {
    const manifest = JSON.parse(readFileSync(path.join(project, "node_modules", "payin-acceptance-contract", "package.json"), "utf8"));
    expect(Object.keys(manifest.dependencies ?? {})).toEqual(["openapi-fetch"]);
    const validators = readFileSync(path.join(project, "node_modules", "payin-acceptance-contract", "dist", "generated", "event-validators.js"), "utf8");
    expect(validators).not.toMatch(/\bfrom\s+["'](?!\.)/);
  });

  it("passes publint and arethetypeswrong", async () => {
    await exec(bin("publint"), ["run", "--strict"], { cwd: root });
    // ESM only (Node 20+ and bundlers); the YAML entry points are data for tools such as Prism.
    await exec(bin("attw"), [tarball, "--profile", "esm-only", "--exclude-entrypoints", "openapi.yaml", "asyncapi.yaml"]);
  });

  it("exports the bundled documents", async () => {
    const { stdout } = await exec(process.execPath, ["--input-type=module", "-e", `
      import { createRequire } from "node:module";
      const require = createRequire(import.meta.url);
      for (const doc of ["openapi.json", "openapi.yaml", "asyncapi.json", "asyncapi.yaml"]) console.log(require.resolve("payin-acceptance-contract/" + doc));
    `], { cwd: project });
    expect(stdout.trim().split("\n")).toHaveLength(4);
  });
});

describe("a fresh consumer project", () => {
  it("type-checks a program against the package with strict tsc", async () => {
    await exec(bin("tsc"), ["-p", "tsconfig.json"], { cwd: project });
    expect(existsSync(path.join(project, "out", "main.js"))).toBe(true);
  });

  it("does not compile a program with a wrong field type", async () => {
    const failure = await exec(bin("tsc"), ["--noEmit", "--strict", "--module", "nodenext", "--moduleResolution", "nodenext", "--target", "es2022", "--types", "node", "wrong.ts"], { cwd: project }).then(
      () => undefined,
      (error: { stdout: string }) => error.stdout,
    );
    expect(failure).toMatch(/wrong\.ts\(6,\d+\): error TS2322: Type 'string' is not assignable to type 'number'/);
  });

  // The package promises Node 20 (engines); Debian's node is that release. CI must have it; a
  // machine without it says so in the test list instead of dropping the run.
  if (!existsSync(SYSTEM_NODE) && !process.env.CI) it.skip(`runs on Node 20: there is no ${SYSTEM_NODE} on this machine`, () => {});
  it.runIf(process.env.CI)(`finds Node 20 at ${SYSTEM_NODE}, as CI installs it`, async () => {
    expect(existsSync(SYSTEM_NODE), `${SYSTEM_NODE} is missing: CI must install Debian's nodejs`).toBe(true);
    expect((await exec(SYSTEM_NODE, ["--version"])).stdout).toMatch(/^v20\./);
  });
  const nodes = [process.execPath, ...(existsSync(SYSTEM_NODE) ? [SYSTEM_NODE] : [])];
  it.each(nodes)("runs against the installed mock on %s: client calls, typed problems, verified webhooks", async (node) => {
    const { stdout } = await exec(node, [path.join("out", "main.js")], { cwd: project, env: { ...process.env, PAYIN_BASE_URL: mockUrl } });
    expect(JSON.parse(stdout)).toEqual({
      counterparty: "cp_7Hq2Lx9RbT4m",
      link: "https://pay.example.com/s/ps_3Nf8Kd1WzQ6v",
      invalidStatus: 422,
      invalidFields: ["amount"],
      handled: "fetch txn_1",
      rejected: "invalid_signature",
      eventTypes: 7,
    });
  });
});
