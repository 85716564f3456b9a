// The package as a consumer receives it: packed, installed into a fresh project, compiled
// there with strict tsc, and run against the mock started from the installed package.
import { execFile, spawn, type ChildProcess } from "node:child_process";
import { copyFileSync, cpSync, existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, statSync, symlinkSync, writeFileSync } from "node:fs";
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
let sandbox: ChildProcess | undefined;

/** Starts an installed bin with `--port 0` and resolves to the URL it says it listens on. */
function startBin(name: string, node?: string, cwd = project): { child: ChildProcess; url: Promise<string> } {
  const file = path.join(cwd, "node_modules", ".bin", name);
  const child = node ? spawn(node, [file, "--port", "0"], { cwd, stdio: ["ignore", "pipe", "pipe"] }) : spawn(file, ["--port", "0"], { cwd, stdio: ["ignore", "pipe", "inherit"] });
  const url = new Promise<string>((resolve, reject) => {
    child.stdout!.on("data", (chunk: Buffer) => {
      const found = chunk.toString().match(/listening on (http:\/\/\S+)/)?.[1];
      if (found) resolve(found);
    });
    child.once("exit", (code) => reject(new Error(`${name} exited with ${code}`)));
  });
  return { child, url };
}

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

  const started = startBin("payin-mock");
  mock = started.child;
  mockUrl = await started.url;
}, 240_000);

afterAll(() => {
  mock?.kill("SIGTERM");
  sandbox?.kill("SIGTERM");
  rmSync(work, { recursive: true, force: true });
});

describe("the packed package", () => {
  // A budget, raised from 200 KiB when the receiver checks and the sandbox's faults came (213 KiB).
  it("is under 240 KiB and ships only what consumers use", () => {
    expect(statSync(tarball).size).toBeLessThan(240 * 1024);
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
  // One strict tsc run over both programs (main.ts must compile, wrong.ts must not): the
  // package's declarations and Node's types are checked once instead of twice, the slowest
  // part of this file. tsc still emits main.js when wrong.ts fails.
  let diagnostics: Promise<string>;
  beforeAll(() => {
    diagnostics = exec(bin("tsc"), ["-p", "tsconfig.json"], { cwd: project }).then(
      () => "",
      (error: { stdout: string }) => error.stdout,
    );
  });
  const filesWithErrors = async () => [...new Set([...(await diagnostics).matchAll(/^(\S+)\(\d+,\d+\): error/gm)].map((m) => m[1]))];

  it("type-checks a program against the package with strict tsc", async () => {
    expect((await filesWithErrors()).filter((file) => file !== "wrong.ts")).toEqual([]);
    expect(existsSync(path.join(project, "out", "main.js"))).toBe(true);
  });

  it("does not compile a program with a wrong field type", async () => {
    expect(await filesWithErrors()).toEqual(["wrong.ts"]);
    expect(await diagnostics).toMatch(/wrong\.ts\(6,\d+\): error TS2322: Type 'string' is not assignable to type 'number'/);
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

describe("the installed payin-sandbox", () => {
  it("serves the data it is sent, from a fresh consumer project", async () => {
    const started = startBin("payin-sandbox");
    sandbox = started.child;
    const url = await started.url;
    const headers = { Authorization: "Bearer consumer", "Content-Type": "application/json" };
    const person = { type: "INDIVIDUAL", payment_rail: "PAYIN", first_name: "Ana", last_name: "Li", email: "ana.li@example.com", phone_number: "+34600000001" };
    const created = await fetch(`${url}/api/v1/send/counterparties/`, { method: "POST", headers, body: JSON.stringify(person) });
    expect(created.status).toBe(201);
    const counterparty = await created.json();
    expect(counterparty).toMatchObject(person);
    const session = await fetch(`${url}/api/v1/earn/payment-sessions/`, {
      method: "POST",
      headers,
      body: JSON.stringify({ amount: 10, currency: "EUR", counterparty_id: counterparty.id, redirect_url: "https://shop.example.com/thanks" }),
    });
    expect(await session.json()).toMatchObject({ amount: 10, currency: "EUR", counterparty_id: counterparty.id, status: "created" });
    const again = await fetch(`${url}/api/v1/send/counterparties/`, { method: "POST", headers, body: JSON.stringify(person) });
    expect(await again.json()).toMatchObject({ code: "counterparty_exists", existing_id: counterparty.id });
  });

  it.runIf(existsSync(SYSTEM_NODE))("exits 1 on a Node without node:sqlite, with one line naming the Node it needs and payin-mock", async () => {
    const file = path.join(project, "node_modules", "payin-acceptance-contract", "dist", "src", "sandbox", "cli.js");
    const result = await exec(SYSTEM_NODE, [file, "--port", "0"], { cwd: project }).then(
      () => ({ code: 0, stderr: "" }),
      (error: { code: number; stderr: string }) => error,
    );
    expect(result.code).toBe(1);
    const lines = result.stderr.trim().split("\n");
    expect(lines).toHaveLength(1);
    expect(lines[0]).toMatch(/needs Node\.js 22\.13 or newer.*payin-mock/);
  });
});

describe("the installed payin-conformance", () => {
  it("checks the installed mock from a fresh consumer project: what it can take passes, the rest is skipped", async () => {
    const { stdout } = await exec(path.join(project, "node_modules", ".bin", "payin-conformance"), ["service", "--base-url", mockUrl, "--token", "consumer", "--seed", "1"], { cwd: project });
    expect(stdout).toMatch(/^✓ answers\.create-counterparty /m);
    expect(stdout.trimEnd().split("\n").at(-1)).toMatch(/^[1-9]\d* passed, 0 failed, [1-9]\d* skipped$/);
  });

  it("passes every check against the installed payin-sandbox with --control, with the whole coverage", async () => {
    const started = startBin("payin-sandbox");
    try {
      const url = await started.url;
      const { stdout } = await exec(path.join(project, "node_modules", ".bin", "payin-conformance"), ["service", "--base-url", url, "--token", "consumer", "--control", "--min-coverage", "100"], { cwd: project });
      expect(stdout).toMatch(/^coverage: 100 % /m);
      expect(stdout.trimEnd().split("\n").at(-1)).toMatch(/^[1-9]\d* passed, 0 failed, 0 skipped$/);
    } finally {
      started.child.kill("SIGTERM");
    }
  });
});

describe("the example merchant (examples/merchant/), installed from the tarball", () => {
  it("type-checks, its endpoint turns a checkout the customer pays into a paid order, and it passes payin-conformance receiver", async () => {
    // As its README says: install, npx payin-sandbox, npm start, npm run checkout, pay, and check
    // the endpoint with payin-conformance receiver.
    const example = path.join(root, "examples", "merchant");
    const dir = path.join(work, "merchant");
    cpSync(example, dir, { recursive: true, filter: (file) => !/^(node_modules|package-lock\.json)$/.test(path.relative(example, file).split(path.sep)[0]!) });
    const manifest = JSON.parse(readFileSync(path.join(dir, "package.json"), "utf8"));
    expect(manifest.dependencies).toEqual({ "payin-acceptance-contract": "file:../.." });
    expect(manifest.scripts).toEqual({ start: "node src/server.ts", checkout: "node src/checkout.ts" });
    manifest.dependencies["payin-acceptance-contract"] = `file:${tarball}`;
    writeFileSync(path.join(dir, "package.json"), JSON.stringify(manifest, null, 2));
    await exec("npm", ["install", "--no-audit", "--no-fund", "--prefer-offline"], { cwd: dir });
    // Its own tsconfig.json, strict, against the package's declarations and Node's types.
    symlinkSync(path.join(root, "node_modules", "@types"), path.join(dir, "node_modules", "@types"));
    const typeErrors = exec(bin("tsc"), ["-p", "tsconfig.json"], { cwd: dir }).then(
      () => "",
      (error: { stdout: string }) => error.stdout,
    );

    const started = startBin("payin-sandbox", undefined, dir);
    const env = { ...process.env, PAYIN_BASE_URL: await started.url, PAYIN_TOKEN: `consumer-merchant-${crypto.randomUUID()}`, PORT: "0" };
    const merchant = spawn(process.execPath, ["src/server.ts"], { cwd: dir, env, stdio: ["ignore", "pipe", "inherit"] });
    try {
      // It prints where it listens, then the command that checks its endpoint.
      let printed = "";
      const [merchantUrl, checkCommand] = await new Promise<[string, string]>((resolve, reject) => {
        merchant.stdout!.on("data", (chunk: Buffer) => {
          printed += chunk.toString();
          const url = printed.match(/merchant listening on (http:\/\/[\d.]+:\d+)/)?.[1];
          const command = printed.match(/check the endpoint: (npx payin-conformance receiver .*)\n/)?.[1];
          if (url && command) resolve([url, command]);
        });
        merchant.once("exit", (code) => reject(new Error(`the merchant exited with ${code}`)));
      });
      const { stdout } = await exec(process.execPath, ["src/checkout.ts"], { cwd: dir, env: { ...env, MERCHANT_URL: merchantUrl } });
      const [, orderId, sessionId] = stdout.match(/order (\S+): pending, 49\.99 EUR, session (\S+)/)!;
      expect(stdout).toContain(`payment link: ${env.PAYIN_BASE_URL}/pay/${sessionId}`);

      const paid = await fetch(`${env.PAYIN_BASE_URL}/_sandbox/v1/payment-sessions/${sessionId}/simulate`, {
        method: "POST",
        headers: { Authorization: `Bearer ${env.PAYIN_TOKEN}`, "Content-Type": "application/json" },
        body: JSON.stringify({ outcome: "pay" }),
      });
      expect(paid.status).toBe(200);
      // The events come after simulate answers: wait for the order to say paid.
      let order: { status?: string } = {};
      for (let i = 0; i < 200 && order.status !== "paid"; i++) {
        await new Promise((resolve) => setTimeout(resolve, 25));
        order = await (await fetch(`${merchantUrl}/orders/${orderId}`)).json();
      }
      expect(order).toMatchObject({ order_id: orderId, session_id: sessionId, status: "paid", amount: 49.99, currency: "EUR" });

      // The last step of its README: the command it printed, from the project, passes.
      const [npx, ...args] = checkCommand.split(" ");
      expect([npx, args.slice(0, 3)]).toEqual(["npx", ["payin-conformance", "receiver", "--url"]]);
      const checked = await exec("npx", ["--no-install", ...args], { cwd: dir });
      expect(checked.stdout).toContain(`endpoint: ${merchantUrl}/webhooks/payin`);
      expect(checked.stdout.trimEnd().split("\n").at(-1)).toMatch(/^(\d+) passed, 0 failed, 0 warned \(advisory\)$/);
      expect(await typeErrors).toBe("");
    } finally {
      merchant.kill("SIGTERM");
      started.child.kill("SIGTERM");
    }
  });
});
