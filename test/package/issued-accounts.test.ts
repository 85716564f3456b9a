// The installed payin-sandbox serving issued accounts, as the hosting guide starts it: `accounts
// create` prints a token that works and `list` never shows it; with `--accounts issued`, invented
// tokens get 401 and, past the bound for one address, 429; and an issued token passes every check
// of the installed payin-conformance against a sandbox that also limits each token's rate.
import { mkdirSync } from "node:fs";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { cli, project, run, startBin, work } from "./support/consumer.ts";

const dir = path.join(work, "issued");
const db = path.join(dir, "sandbox.db");
const accounts = (...args: string[]) => run(process.execPath, [cli("sandbox"), "accounts", ...args, "--db", db]);
let sandbox: ReturnType<typeof startBin>;
let url: string;
let token: string;

beforeAll(async () => {
  mkdirSync(dir, { recursive: true });
  const created = await accounts("create", "--name", "consumer CI");
  expect(created).toMatchObject({ code: 0, stderr: "" });
  token = created.stdout.trimEnd().split("\n")[1]!;
  sandbox = startBin("payin-sandbox", process.execPath, project, ["--db", db, "--accounts", "issued", "--rate-limit", "50"]);
  url = await sandbox.url;
}, 60_000);
afterAll(() => void sandbox?.child.kill("SIGTERM"));

describe("the installed payin-sandbox with issued accounts", () => {
  it("issues a token that works, and lists the account without it", async () => {
    expect(token).toMatch(/^payin_sbx_[A-Za-z0-9_-]{43}$/);
    expect((await fetch(`${url}/webhooks`, { headers: { Authorization: `Bearer ${token}` } })).status).toBe(404);
    const listed = await accounts("list");
    expect(listed.stdout).toMatch(/^1\s+consumer CI\s+\S+Z\s+\S+Z$/m);
    expect(listed.stdout).not.toContain(token);
  });

  it("answers 500 invented tokens with 401, and past 20 from one address with 429", async () => {
    const statuses: number[] = [];
    const started = performance.now();
    for (let i = 0; i < 500; i++)
      statuses.push((await fetch(`${url}/webhooks`, { headers: { Authorization: `Bearer invented-${crypto.randomUUID()}` } })).status);
    // A burst of 20, then one a second: a busy machine that takes longer over the 500 sees a refusal more a second.
    const refilled = Math.floor((performance.now() - started) / 1000);
    const refused = statuses.filter((s) => s === 401).length;
    expect(refused).toBeGreaterThanOrEqual(20);
    expect(refused).toBeLessThanOrEqual(20 + refilled);
    expect(statuses.filter((s) => s === 429).length).toBe(500 - refused);
  });

  it("passes every check of the installed payin-conformance with an issued token, at --rate-limit 50", async () => {
    // A second issued account: the refused tokens above counted against this machine's address.
    const fresh = (await accounts("create")).stdout.trimEnd().split("\n")[1]!;
    const checked = await run(process.execPath, [cli("conformance"), "service", "--base-url", url, "--token", fresh, "--control"]);
    expect(checked.code, checked.stdout + checked.stderr).toBe(0);
    expect(checked.stdout.trimEnd().split("\n").at(-1)).toMatch(/^[1-9]\d* passed, 0 failed, 0 skipped$/);
  }, 60_000);
});
