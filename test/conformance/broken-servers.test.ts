// Each check worth having catches a fault: the sandbox behind a front with one fault at a time
// fails the check that names that fault, and the command exits 1.
import { execFile } from "node:child_process";
import path from "node:path";
import { promisify } from "node:util";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { runConformance } from "../../src/conformance/index.ts";
import { startSandbox, type RunningSandbox } from "../../src/sandbox/index.ts";
import { resigned, startFaultyFront, type Fault } from "./faulty-front.ts";

let sandbox: RunningSandbox;
beforeAll(async () => {
  sandbox = await startSandbox({ port: 0 });
});
afterAll(() => sandbox.close());

const json = (text: string) => JSON.parse(text) as Record<string, any>;
const typeOf = (body: string) => json(body).type as string;

const faults: Array<[string, Fault, string[], RegExp]> = [
  [
    "a status changed (create counterparty answers 200)",
    {
      answer: (request, answer) =>
        request.method === "POST" && request.path.startsWith("/api/v1/send/counterparties/") && answer.status === 201
          ? { ...answer, status: 200 }
          : answer,
    },
    ["answers.create-counterparty"],
    /answered 200 where the contract expects 201/,
  ],
  [
    "a required field dropped (a session without payment_link)",
    {
      answer: (request, answer) =>
        request.path.startsWith("/api/v1/earn/payment-sessions/") && answer.status === 201
          ? { ...answer, body: JSON.stringify({ ...json(answer.body), payment_link: undefined }) }
          : answer,
    },
    ["answers.create-payment-session"],
    /body\.payment_link must have required property 'payment_link'/,
  ],
  [
    "an event signed with another secret",
    { delivery: (delivery) => resigned(delivery, "whsec_C2FVsBQIhrscChlQIMV+b5sSYspob7oD") },
    ["events.session-created"],
    /not signed with the secret POST \/webhooks returned/,
  ],
  [
    "a retry with a new webhook-id",
    {
      delivery: (delivery, secret, attempt) =>
        attempt > 1 ? resigned(delivery, secret, `msg_retry_${attempt}_${crypto.randomUUID()}`) : delivery,
    },
    ["events.retry"],
    /was not retried with webhook-id msg_/,
  ],
  ["no retry at all", { delivery: (delivery, _, attempt) => (attempt > 1 ? null : delivery) }, ["events.retry"], /was not retried/],
  [
    "a session's events out of the allowed order (transaction-completed before transaction-created)",
    {
      delivery: (delivery, secret) => {
        if (typeOf(delivery.body) !== "transaction-completed") return delivery;
        const event = json(delivery.body);
        return resigned(
          { ...delivery, body: JSON.stringify({ ...event, timestamp: new Date(Date.parse(event.timestamp) - 1).toISOString() }) },
          secret,
        );
      },
    },
    ["events.flows"],
    /transaction-created happened at .*, after transaction-completed at .*, an order the contract's state machines do not allow/,
  ],
  [
    "an invalid body answered 500",
    {
      answer: (_, answer) =>
        answer.status === 422 ? { ...answer, status: 500, body: JSON.stringify({ ...json(answer.body), status: 500 }) } : answer,
    },
    ["negative.create-counterparty"],
    /an invalid body was answered 500, a server error/,
  ],
  [
    "a duplicate customer accepted",
    {
      answer: (request, answer) =>
        answer.status === 409 && json(answer.body).code === "counterparty_exists"
          ? {
              status: 201,
              headers: { "content-type": "application/json" },
              body: JSON.stringify({ ...json(request.body), id: `cp_dup${Date.now()}`, created_at: new Date().toISOString() }),
            }
          : answer,
    },
    ["rules.counterparty-unique"],
    /answered 201 where the contract expects 409/,
  ],
];

describe("the conformance kit against broken servers", () => {
  it.each(faults)("fails on %s, with the check that names it", async (_, fault, only, reason) => {
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
    const front = await startFaultyFront(sandbox.url, faults[0]![1]);
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
