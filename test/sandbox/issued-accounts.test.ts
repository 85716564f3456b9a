// Issued accounts: with --accounts issued, a sandbox serves the tokens it issued (payin-sandbox
// accounts create) and no other, refusing the others with 401 and, past a burst of them from one
// address, with 429 (never a valid token from that address); a revoked token opens nothing at once. Tokens are kept as their hashes, on
// both engines, and a database of raw tokens is brought over. The clock is the test's.
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import pg from "pg";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { postgresMissing, startPostgres, type TestPostgres } from "../../scripts/lib/temp-postgres.ts";
import { startSandbox, type RunningSandbox } from "../../src/sandbox/index.ts";
import { ISSUED_TOKEN_PREFIX } from "../../src/sandbox/store/accounts.ts";
import { Store } from "../../src/sandbox/store/index.ts";
import { postgresMigrations } from "../../src/sandbox/store/migrations.ts";
import { tokenHash } from "../../src/sandbox/store/token-hash.ts";
import { ManualClock } from "../support/manual-clock.ts";
import { accountOn } from "../support/sandbox-account.ts";

const get = (url: string, token: string) => fetch(`${url}/webhooks`, { headers: { Authorization: `Bearer ${token}` } });
const invented = () => `${ISSUED_TOKEN_PREFIX}${crypto.randomUUID()}`;

describe("a sandbox that serves issued accounts only", () => {
  const dir = mkdtempSync(path.join(tmpdir(), "payin-issued-"));
  const db = path.join(dir, "sandbox.db");
  const clock = new ManualClock();
  let sandbox: RunningSandbox;
  let store: Store;
  beforeAll(async () => {
    // The operator's side, as payin-sandbox accounts does it: the same store, another connection.
    store = await Store.open({ file: db });
    sandbox = await startSandbox({ port: 0, db, accounts: "issued", clock });
  });
  afterAll(async () => {
    await sandbox.close();
    await store.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it("issues a random token with a prefix a scanner knows, once, keeping only its hash", async () => {
    const { id, token } = await store.accounts.issue("acme");
    expect(token).toMatch(new RegExp(`^${ISSUED_TOKEN_PREFIX}[A-Za-z0-9_-]{43}$`));
    expect(await store.accounts.issued()).toContainEqual({
      id,
      name: "acme",
      createdAtMs: expect.any(Number),
      lastRequestMs: expect.any(Number),
    });
    expect(JSON.stringify(await store.accounts.issued())).not.toContain(token);
    // The token works, as any account's: the contract's calls answer it.
    const account = accountOn(sandbox.url, token);
    expect((await account.call("POST", "/webhooks", { url: "http://127.0.0.1:9/hook" })).status).toBe(201);
    expect((await account.session()).id).toMatch(/^ps_/);
  });

  it("refuses any other token with 401 in the contract's problem format, and past 20 from one address, with 429", async () => {
    await clock.advance(60_000);
    const { token } = await store.accounts.issue(null);
    const answers = [];
    for (let i = 0; i < 500; i++) answers.push(await get(sandbox.url, invented()));
    const statuses = answers.map((res) => res.status);
    expect([statuses.filter((s) => s === 401).length, statuses.filter((s) => s === 429).length]).toEqual([20, 480]);
    expect(await answers[0]!.json()).toMatchObject({
      status: 401,
      code: "unauthorized",
      detail: "This sandbox serves the accounts it issued only, and this bearer token is none of theirs.",
    });
    expect([answers[499]!.headers.get("retry-after"), (await answers[499]!.json()).detail]).toEqual([
      "1",
      "This address has had more than 20 tokens refused; retry after 1 s.",
    ]);
    // The tokens it had refused never turn a valid one away: the tenant behind the same address is served at once.
    expect((await get(sandbox.url, token)).status).toBe(404);
    expect((await get(sandbox.url, invented())).status).toBe(429);
    // Once a second has passed, one more refusal may come.
    await clock.advance(1000);
    expect((await get(sandbox.url, invented())).status).toBe(401);
    expect((await get(sandbox.url, invented())).status).toBe(429);
    await clock.advance(60_000);
  });

  it("refuses an account made by a token's first use before the sandbox served issued accounts only", async () => {
    const id = (await store.accounts.forToken("made-in-open-mode")).id;
    expect(id).toBeGreaterThan(0);
    expect((await get(sandbox.url, "made-in-open-mode")).status).toBe(401);
    await clock.advance(60_000);
  });

  it("says so at the dashboard's sign-in", async () => {
    const signIn = await fetch(`${sandbox.url}/_sandbox/dashboard/sign-in`, {
      method: "POST",
      headers: { "content-type": "application/x-www-form-urlencoded", origin: sandbox.url },
      body: `token=${invented()}`,
      redirect: "manual",
    });
    // The page's message, in the cookie it reads once; no token's.
    const note = signIn.headers.get("set-cookie")!;
    expect(decodeURIComponent(/^payin_sandbox_note=bad\.([^;]*)/.exec(note)![1]!)).toBe(
      "This sandbox serves the accounts it issued only, and this bearer token is none of theirs.",
    );
    expect(note).not.toContain("payin_sandbox_token");
  });

  it("refuses a revoked account's token at once, its records gone", async () => {
    const { id, token } = await store.accounts.issue("leaving");
    const account = accountOn(sandbox.url, token);
    await account.session();
    expect(await store.revoke(id)).toBe(true);
    expect((await get(sandbox.url, token)).status).toBe(401);
    expect(await store.accounts.isIssued(id)).toBe(false);
    expect(await store.revoke(id)).toBe(false);
  });
});

describe("an open sandbox, the default", () => {
  it("serves an issued token as any other, and makes an account of any token", async () => {
    const sandbox = await startSandbox({ port: 0 });
    try {
      expect((await get(sandbox.url, invented())).status).toBe(404);
    } finally {
      await sandbox.close();
    }
  });

  it("refuses to serve issued accounts only from a store no one can issue into (in memory)", async () => {
    await expect(startSandbox({ port: 0, accounts: "issued" })).rejects.toThrow(
      "Issued accounts are kept in the sandbox's store: give it a db file or a database",
    );
  });
});

describe.skipIf(postgresMissing)("tokens kept as their hashes on PostgreSQL", () => {
  let cluster: TestPostgres;
  beforeAll(() => {
    cluster = startPostgres();
  });
  afterAll(() => cluster?.stop());

  it("hashes a database's raw tokens as SQLite does: each opens the account it opened", async () => {
    const url = cluster.createDatabase();
    // A database left by the sandbox before tokens were hashed: every migration but that one.
    const before = new pg.Client(url);
    await before.connect();
    const hashing = postgresMigrations.findIndex((m) => m.includes("RENAME COLUMN token TO token_hash"));
    for (const migration of postgresMigrations.slice(0, hashing)) await before.query(migration);
    await before.query("CREATE TABLE sandbox_schema (version INTEGER NOT NULL)");
    await before.query("INSERT INTO sandbox_schema VALUES ($1)", [hashing]);
    const { rows } = await before.query("INSERT INTO accounts (token, created_at_ms) VALUES ('ci-token-é', 0) RETURNING id");
    await before.end();

    const store = await Store.open({ postgres: url });
    try {
      expect((await store.accounts.forToken("ci-token-é")).id).toBe(Number(rows[0].id));
      const check = new pg.Client(url);
      await check.connect();
      const kept = (await check.query("SELECT token_hash FROM accounts")).rows.map((r) => r.token_hash);
      await check.end();
      expect(kept).toEqual([tokenHash("ci-token-é")]);
    } finally {
      await store.close();
    }
  });

  it("tells every process of an account issued through another at once, so that none reads the issued tokens for it", async () => {
    const url = cluster.createDatabase();
    const [serving, operator] = [await Store.open({ postgres: url }), await Store.open({ postgres: url })];
    try {
      await serving.accounts.readIssued();
      const { token } = await operator.accounts.issue("heard");
      await expect.poll(() => serving.accounts.knownIssued(token)).toBe(true);
      expect(serving.accounts.knownIssued(invented())).toBe(false);
    } finally {
      await Promise.all([serving.close(), operator.close()]);
    }
  });
});
