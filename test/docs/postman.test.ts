// The Postman collection the docs site offers (scripts/docs/postman.ts): made by Portman from
// the OpenAPI bundle, run by newman against a fresh sandbox, every contract test green; and
// against a sandbox that breaks the contract, red, naming the request.
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import newman, { type NewmanRunSummary } from "newman";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { buildPostmanCollection } from "../../scripts/docs/postman.ts";
import { generatedDir } from "../../scripts/lib/paths.ts";
import { operationsOf } from "../../scripts/lib/openapi.ts";
import { startSandbox, type RunningSandbox } from "../../src/sandbox/index.ts";
import { createSandboxClient } from "../../src/sandbox-client.ts";

const work = mkdtempSync(path.join(tmpdir(), "payin-postman-"));
const collectionFile = path.join(work, "payin.postman_collection.json");
let sandbox: RunningSandbox;

/** newman's run of the collection against the sandbox, as `bearerToken`'s account. */
const run = (bearerToken: string) =>
  new Promise<NewmanRunSummary>((resolve, reject) =>
    newman.run(
      {
        collection: JSON.parse(readFileSync(collectionFile, "utf8")),
        envVar: [
          { key: "baseUrl", value: sandbox.url },
          { key: "bearerToken", value: bearerToken },
        ],
        reporters: [],
      },
      (error, summary) => (error ? reject(error) : resolve(summary)),
    ),
  );

const failures = (summary: NewmanRunSummary) => summary.run.failures.map((f) => `${f.source?.name}: ${f.error.test}: ${f.error.message}`);

describe("the Postman collection (Portman, from the OpenAPI bundle)", () => {
  beforeAll(async () => {
    sandbox = await startSandbox({ port: 0 });
    await buildPostmanCollection(path.join(generatedDir, "openapi.json"), collectionFile);
  }, 60_000);
  afterAll(async () => {
    await sandbox?.close();
    rmSync(work, { recursive: true, force: true });
  });

  it("has a request for every operation, each with contract tests, against the sandbox's address by default", () => {
    const collection = JSON.parse(readFileSync(collectionFile, "utf8"));
    const requests = collection.item.flatMap((folder: { item?: unknown[] }) => folder.item ?? []);
    const openapi = JSON.parse(readFileSync(path.join(generatedDir, "openapi.json"), "utf8"));
    expect(requests.map((r: { name: string }) => r.name).sort()).toEqual(
      operationsOf(openapi)
        .map((o) => o.operation.summary)
        .sort(),
    );
    for (const request of requests) expect(JSON.stringify(request.event), request.name).toContain("Schema is valid");
    expect(collection.variable).toContainEqual(expect.objectContaining({ key: "baseUrl", value: "http://127.0.0.1:4010" }));
  });

  it("runs green with newman against a fresh sandbox: every request, every assertion", async () => {
    const summary = await run("postman-green");
    expect(failures(summary)).toEqual([]);
    expect(summary.run.stats.requests).toMatchObject({ total: 6, failed: 0 });
    expect(summary.run.stats.assertions.total).toBeGreaterThanOrEqual(24);
    // The session was made for the counterparty the run created: its id was carried over.
    const made = summary.run.executions.map((e) => [e.item.name, e.response?.code]);
    expect(made).toContainEqual(["Create payment session", 201]);
  });

  it("fails, naming the request and the check, against a sandbox that answers 503", async () => {
    const token = "postman-red";
    const control = createSandboxClient({ baseUrl: sandbox.url, token });
    await control.POST("/_sandbox/v1/faults", { body: { target: "request", effect: "status", status: 503 } });
    const summary = await run(token);
    expect(failures(summary)).toContainEqual(
      expect.stringMatching(/^Create counterparty: .*Status code is 2xx: expected response code to be 2XX but found 503$/),
    );
  });
});
