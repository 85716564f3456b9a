// A consumer's own program against the installed package: compiled with strict tsc (a wrong field
// type does not compile), run on the oldest Node the package supports and on this one against the
// installed payin-mock, which payin-conformance then checks; the mock says nothing on stderr.
import type { ChildProcess } from "node:child_process";
import { existsSync } from "node:fs";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { bin, floorNode } from "../../scripts/lib/paths.ts";
import { NODE_FLOOR } from "../../src/lib/node-floor.ts";
import { exec, NODES, project, startBin } from "./support/consumer.ts";

let mock: ChildProcess | undefined;
let mockStderr: () => string;
let mockUrl: string;
beforeAll(async () => {
  expect(existsSync(floorNode), `${floorNode} is missing: npm ci installs it (the prepare script)`).toBe(true);
  // The mock on the oldest Node: Prism declares 24.18, but it answers the same on 22.13 (measured).
  const started = startBin("payin-mock", floorNode);
  mock = started.child;
  mockStderr = started.stderr;
  mockUrl = await started.url;
}, 120_000);
afterAll(() => void mock?.kill("SIGTERM"));

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

  it.each(Object.entries(NODES))(
    "runs on %s against the installed mock: client calls, typed problems, verified webhooks",
    async (_, node) => {
      const { stdout } = await exec(node, [path.join("out", "main.js")], {
        cwd: project,
        env: { ...process.env, PAYIN_BASE_URL: mockUrl },
      });
      expect(JSON.parse(stdout)).toEqual({
        counterparty: "cp_7Hq2Lx9RbT4m",
        link: "https://pay.example.com/s/ps_3Nf8Kd1WzQ6v",
        invalidStatus: 422,
        invalidFields: ["amount"],
        handled: "fetch txn_1",
        rejected: "invalid_signature",
        eventTypes: 7,
      });
    },
  );
});

describe("the installed payin-conformance", () => {
  it("checks the installed mock from a fresh consumer project: what it can take passes, the rest is skipped", async () => {
    const { stdout } = await exec(
      path.join(project, "node_modules", ".bin", "payin-conformance"),
      ["service", "--base-url", mockUrl, "--token", "consumer", "--seed", "1"],
      { cwd: project },
    );
    expect(stdout).toMatch(/^✓ answers\.create-counterparty /m);
    expect(stdout.trimEnd().split("\n").at(-1)).toMatch(/^[1-9]\d* passed, 0 failed, [1-9]\d* skipped$/);
  });

  // Prism's dependencies load Node's deprecated punycode, which Node 22 warned about at every start.
  it(`left the installed payin-mock on Node ${NODE_FLOOR} with nothing on stderr, from its start through every request above`, () => {
    expect(mockStderr()).toBe("");
  });
});
