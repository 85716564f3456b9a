// The API reference's code samples: every operation gets a curl call and a TypeScript call made
// from its request example, and every TypeScript sample compiles under strict tsc against the
// package's own client, so that what a reader copies works.
import { execFile } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { promisify } from "node:util";
import { afterAll, describe, expect, it } from "vitest";
import { addCodeSamples, codeSamples } from "../../scripts/docs/code-samples.ts";
import { bin, generatedDir, root } from "../../scripts/lib/paths.ts";

const exec = promisify(execFile);
const read = (name: string) => JSON.parse(readFileSync(path.join(generatedDir, name), "utf8"));
const dereferenced = read("openapi.dereferenced.json");
const samples = codeSamples(dereferenced);
const work = mkdtempSync(path.join(tmpdir(), "payin-samples-"));
afterAll(() => rmSync(work, { recursive: true, force: true }));

const operations = Object.entries<Record<string, unknown>>(dereferenced.paths).flatMap(([p, item]) =>
  ["get", "put", "post", "delete", "patch"].filter((m) => item[m]).map((m) => `${m.toUpperCase()} ${p}`),
);

describe("code samples", () => {
  it("cover every operation with a curl and a TypeScript sample", () => {
    expect(samples.map((s) => `${s.method.toUpperCase()} ${s.path}`)).toEqual(operations);
    for (const { samples: list } of samples) expect(list.map((s) => s.label)).toEqual(["curl", "TypeScript"]);
  });

  it("are attached to the copy of the bundle that Scalar renders, as x-codeSamples", () => {
    const doc = read("openapi.json");
    addCodeSamples(doc, samples);
    expect(doc.paths["/webhooks"].get["x-codeSamples"].map((s: { lang: string }) => s.lang)).toEqual(["Shell", "TypeScript"]);
  });

  it("send the request example as the body, with its path, query and header parameters", () => {
    const create = samples.find((s) => s.method === "post" && s.path === "/api/v1/earn/payment-sessions/")!;
    const example = Object.values<any>(
      dereferenced.paths["/api/v1/earn/payment-sessions/"].post.requestBody.content["application/json"].examples,
    )[0].value;
    const [curl, ts] = create.samples.map((s) => s.source);
    expect(JSON.parse(curl!.slice(curl!.indexOf("-d '") + 4, -1))).toEqual(example);
    expect(curl).toMatch(/^curl -X POST "\$PAYIN_BASE_URL\/api\/v1\/earn\/payment-sessions\/"/);
    expect(curl).toContain("-H 'Idempotency-Key: ");
    expect(ts).toContain(`"amount": ${example.amount}`);
    const get = samples.find((s) => s.path === "/api/v1/earn/transactions/{transaction_id}/")!;
    expect(get.samples[0]!.source).toMatch(/\/api\/v1\/earn\/transactions\/txn_[A-Za-z0-9]+\//);
    const schema = samples.find((s) => s.path === "/api/v1/send/counterparties/schema/")!;
    expect(schema.samples[0]!.source).toContain("?payment_rail=PAYIN&type=INDIVIDUAL");
  });

  it("in TypeScript compile under strict tsc against the package's client, and a wrong one does not", async () => {
    const files = samples.map((s, i) => {
      const file = `sample-${i}-${s.method}.ts`;
      writeFileSync(path.join(work, file), s.samples[1]!.source);
      return file;
    });
    // The check can fail: a sample with a misspelt body field must not compile.
    const wrong = samples.find((s) => s.method === "post")!.samples[1]!.source.replace('"body": {', '"body": { "amount_cents": 1,');
    writeFileSync(path.join(work, "wrong.ts"), wrong);
    const tsconfig = (include: string[]) => ({
      compilerOptions: {
        strict: true,
        noEmit: true,
        target: "ES2022",
        module: "ESNext",
        moduleResolution: "Bundler",
        lib: ["ES2023", "DOM", "DOM.Iterable"],
        types: ["node"],
        typeRoots: [path.join(root, "node_modules", "@types")],
        allowImportingTsExtensions: true,
        skipLibCheck: true,
        paths: { "payin-acceptance-contract": [path.join(root, "src", "index.ts")] },
      },
      files: include,
    });
    writeFileSync(path.join(work, "tsconfig.json"), JSON.stringify(tsconfig(files)));
    writeFileSync(path.join(work, "tsconfig.wrong.json"), JSON.stringify(tsconfig(["wrong.ts"])));
    const check = (project: string) =>
      exec(bin("tsc"), ["-p", path.join(work, project)]).then(
        () => "",
        (e: { stdout?: string }) => e.stdout ?? String(e),
      );
    const [good, bad] = await Promise.all([check("tsconfig.json"), check("tsconfig.wrong.json")]);
    expect(good).toBe("");
    expect(bad).toMatch(/amount_cents/);
  });
});
