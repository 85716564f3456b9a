// Each check worth having catches a fault: the sandbox behind a front with one fault at a time
// fails the check that names that fault, and the command exits 1.
import { execFile } from "node:child_process";
import path from "node:path";
import { promisify } from "node:util";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { runConformance } from "../../src/conformance/index.ts";
import { startSandbox, type RunningSandbox } from "../../src/sandbox/index.ts";
import { FAULTS, json } from "./faults.ts";
import { startFaultyFront, type Fault } from "./faulty-front.ts";

let sandbox: RunningSandbox;
beforeAll(async () => {
  sandbox = await startSandbox({ port: 0 });
});
afterAll(() => sandbox.close());

describe("the conformance kit against broken servers", () => {
  it.each(FAULTS)("fails on %s, with the check that names it", async (_, fault, only, reason) => {
    const front = await startFaultyFront(sandbox.url, fault);
    try {
      const report = await runConformance({ baseUrl: front.url, token: `broken-${crypto.randomUUID()}`, control: true, seed: 1, only });
      const failed = report.results.filter((r) => r.outcome === "failed");
      expect(failed.map((r) => r.id)).toEqual(only);
      expect(failed[0]!.reason).toMatch(reason);
    } finally {
      await front.close();
    }
  });

  it("passes every check through a front with no fault: the faults, not the front, fail the runs above", async () => {
    const front = await startFaultyFront(sandbox.url, {});
    try {
      const report = await runConformance({ baseUrl: front.url, token: `front-${crypto.randomUUID()}`, control: true, seed: 1 });
      expect(report.results.filter((r) => r.outcome !== "passed")).toEqual([]);
    } finally {
      await front.close();
    }
  });

  it("skips the event checks, saying to give --public-url, when a server refuses the receiver's loopback http:// URL", async () => {
    const refusesHttp: Fault = {
      answer: (request, answer) =>
        request.method === "POST" && request.path === "/webhooks" && json(request.body).url?.startsWith("http://")
          ? {
              status: 422,
              headers: { "content-type": "application/problem+json" },
              body: JSON.stringify({
                type: "https://docs.payin.example.com/problems/validation_failed",
                title: "Validation failed",
                status: 422,
                detail: "x",
                code: "validation_failed",
                errors: [{ field: "url", message: "must be https" }],
              }),
            }
          : answer,
    };
    const front = await startFaultyFront(sandbox.url, refusesHttp);
    try {
      const report = await runConformance({
        baseUrl: front.url,
        token: `strict-${crypto.randomUUID()}`,
        seed: 1,
        only: ["events.session-created", "rules.idempotency"],
      });
      expect(report.results.map((r) => [r.id, r.outcome])).toEqual([
        ["rules.idempotency", "passed"],
        ["events.session-created", "skipped"],
      ]);
      expect(report.results[1]!.reason).toMatch(/--public-url/);
    } finally {
      await front.close();
    }
  });

  it("exits 1 from the command when a check fails", async () => {
    const front = await startFaultyFront(sandbox.url, FAULTS[0]![1]);
    try {
      const run = promisify(execFile)(process.execPath, [
        path.resolve("src/conformance/cli.ts"),
        "service",
        "--base-url",
        front.url,
        "--token",
        "t",
        "--only",
        "answers.create-counterparty",
      ]);
      await expect(run).rejects.toMatchObject({
        code: 1,
        stdout: expect.stringMatching(/✗ answers\.create-counterparty[\s\S]*0 passed, 1 failed, 0 skipped/),
      });
    } finally {
      await front.close();
    }
  });
});
