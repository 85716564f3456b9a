// The webhook guide's TypeScript verifier (scripts/docs/guides/verify-webhooks.md, its `verify`
// code group) is the algorithm a merchant ports to another language: run as the guide prints it,
// it gives every test vector's signature verdict.
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { pathToFileURL } from "node:url";
import { afterAll, describe, expect, it } from "vitest";
import { guidesDir } from "../../scripts/docs/pages.ts";
import { generatedDir, root } from "../../scripts/lib/paths.ts";
import { VECTORS_FILE, type WebhookVectors } from "../../scripts/lib/webhook-vectors.ts";

const guide = readFileSync(path.join(root, guidesDir, "verify-webhooks.md"), "utf8");
const vectors: WebhookVectors = JSON.parse(readFileSync(path.join(generatedDir, VECTORS_FILE), "utf8"));
const scratch = mkdtempSync(path.join(tmpdir(), "payin-verify-guide-"));
afterAll(() => rmSync(scratch, { recursive: true, force: true }));

describe("the webhook guide's TypeScript verifier", async () => {
  const code = /^```ts group=verify\n([\s\S]*?)^```$/m.exec(guide)?.[1];
  const file = path.join(scratch, "verify.ts");
  writeFileSync(file, code ?? "");
  const { signatureProblem } = code ? await import(/* @vite-ignore */ pathToFileURL(file).href) : { signatureProblem: undefined };

  it("is in the guide, as its verify group's TypeScript", () => {
    expect(code).toBeDefined();
    expect(signatureProblem).toBeTypeOf("function");
  });

  it.each(vectors.cases.map((c) => [c.id, c] as const))("agrees with %s", (_, vector) => {
    const body = Buffer.from(vector.body_base64, "base64");
    const problem = signatureProblem(vector.headers, body, vector.secrets, vector.now);
    expect(problem === null ? { valid: true } : { valid: false, reason: problem }).toEqual(vector.signature);
  });
});
