// Retention: an account with no request for longer than the retention is deleted with
// everything it holds, by a sweep every half retention, on SQLite and on PostgreSQL across
// processes; an account in use keeps everything; the token of a deleted account finds a new one.
// The sandboxes' clock is the test's: the retention passes at once, the same on any machine.
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startSandbox, type RunningSandbox } from "../../src/sandbox/index.ts";
import { openDatabase } from "../../src/sandbox/store/index.ts";
import { tokenHash } from "../../src/sandbox/store/token-hash.ts";
import { postgresMissing, startPostgres, type TestPostgres } from "../../scripts/lib/temp-postgres.ts";
import { ManualClock } from "../support/manual-clock.ts";
import { accountOn } from "../support/sandbox-account.ts";

const RETENTION_SECONDS = 100;

/**
 * Two accounts with a webhook and a session each; one asked every 20 s of the clock through each
 * process in turn, the other left alone, for 160 s: past the retention and the sweep after it.
 */
async function idleAndBusy(urls: string[], clock: ManualClock) {
  const [idle, busy] = [accountOn(urls[0]!), accountOn(urls[0]!)];
  const made = [];
  for (const account of [idle, busy]) {
    await account.register("http://127.0.0.1:9/hook");
    made.push((await account.session()).id);
  }
  const busyOn = urls.map((url) => accountOn(url, busy.token));
  for (let step = 0; step < 8; step++) {
    await clock.advance(20_000);
    expect((await busyOn[step % busyOn.length]!.call("GET", "/webhooks")).status).toBe(200);
  }
  const state = async (account: ReturnType<typeof accountOn>, session: string) => ({
    webhook: (await account.call("GET", "/webhooks")).status,
    session: (await account.call("GET", `/_sandbox/v1/payment-sessions/${session}`)).status,
  });
  return { idle: await state(idle, made[0]!), busy: await state(busy, made[1]!) };
}

/** One throwaway PostgreSQL for the file's cases on it, a database each: a cluster's start is no part of what a case does. */
let cluster: TestPostgres | undefined;
beforeAll(() => {
  if (!postgresMissing) cluster = startPostgres();
});
afterAll(() => cluster?.stop());

describe("an account idle for longer than the retention", () => {
  let sandbox: RunningSandbox;
  const clock = new ManualClock();
  beforeAll(async () => {
    sandbox = await startSandbox({ port: 0, retentionSeconds: RETENTION_SECONDS, clock });
  });
  afterAll(() => sandbox.close());

  it("is deleted with its webhook and sessions, on SQLite; one in use keeps them; its token makes a new account", async () => {
    expect(await idleAndBusy([sandbox.url], clock)).toEqual({ idle: { webhook: 404, session: 404 }, busy: { webhook: 200, session: 200 } });
  });

  it("refuses a retention of 0 or less", async () => {
    await expect(startSandbox({ port: 0, retentionSeconds: 0 })).rejects.toThrow("retentionSeconds must be more than 0, not 0.");
  });
});

describe.skipIf(postgresMissing)("retention on PostgreSQL with two processes", () => {
  let sandboxes: RunningSandbox[];
  const clock = new ManualClock();
  beforeAll(async () => {
    const options = { port: 0, database: cluster!.createDatabase(), retentionSeconds: RETENTION_SECONDS, clock };
    sandboxes = await Promise.all([startSandbox(options), startSandbox(options)]);
  });
  afterAll(async () => {
    await Promise.all(sandboxes.map((s) => s.close()));
  });

  it("deletes the idle account, whichever process sweeps, and keeps the one in use through either", async () => {
    expect(
      await idleAndBusy(
        sandboxes.map((s) => s.url),
        clock,
      ),
    ).toEqual({
      idle: { webhook: 404, session: 404 },
      busy: { webhook: 200, session: 200 },
    });
  });
});

/**
 * Forty accounts made at once and left idle; when the sweep that deletes them starts, each gets a
 * request that writes (a webhook registered) at the same moment, through the processes in turn.
 */
async function racingTheSweep(urls: string[], clock: ManualClock) {
  const idle = await Promise.all(Array.from({ length: 40 }, (_, i) => accountOn(urls[i % urls.length]!)));
  for (const account of idle) await account.register("http://127.0.0.1:9/first");
  // A moment before the sweep that takes them: past the retention and the touch interval, the sweep every twentieth of it.
  await clock.advance((RETENTION_SECONDS + 10) * 1000 - 1);
  const sweeping = clock.advance(1);
  const answers = await Promise.all(idle.map((account) => account.call("POST", "/webhooks", { url: "http://127.0.0.1:9/again" })));
  await sweeping;
  const kept = await Promise.all(idle.map(async (account) => (await account.call("GET", "/webhooks")).body?.url));
  return idle.map((_, i) => ({ status: answers[i]!.status, kept: kept[i] }));
}

describe("a request that races the sweep of its account", () => {
  it("lands before it (the account stays) or after it (a new account): never answered and then lost, never a 500", async () => {
    const clock = new ManualClock();
    const sandbox = await startSandbox({ port: 0, retentionSeconds: RETENTION_SECONDS, clock });
    try {
      const outcomes = await racingTheSweep([sandbox.url], clock);
      // Each registration answered and kept: 200 on the account it had, 201 on a new one.
      expect(outcomes.filter((o) => !([200, 201].includes(o.status) && o.kept === "http://127.0.0.1:9/again"))).toEqual([]);
    } finally {
      await sandbox.close();
    }
  });

  it.skipIf(postgresMissing)("on PostgreSQL, through two processes, one of which sweeps", async () => {
    const clock = new ManualClock();
    const options = { port: 0, database: cluster!.createDatabase(), retentionSeconds: RETENTION_SECONDS, clock };
    const sandboxes = await Promise.all([startSandbox(options), startSandbox(options)]);
    try {
      const outcomes = await racingTheSweep(
        sandboxes.map((s) => s.url),
        clock,
      );
      expect(outcomes.filter((o) => !([200, 201].includes(o.status) && o.kept === "http://127.0.0.1:9/again"))).toEqual([]);
    } finally {
      await Promise.all(sandboxes.map((s) => s.close()));
    }
  });
});

describe("an account's deletion", () => {
  it("comes between its retention and a tenth more after its last request, noted or not, never before", async () => {
    const dir = mkdtempSync(path.join(tmpdir(), "payin-retention-"));
    const clock = new ManualClock();
    const db = path.join(dir, "sandbox.db");
    const sandbox = await startSandbox({ port: 0, db, retentionSeconds: RETENTION_SECONDS, clock });
    const look = await openDatabase({ file: db });
    try {
      const account = accountOn(sandbox.url);
      await account.register("http://127.0.0.1:9/hook");
      // A second request too soon after the first to be noted as the last (a twentieth of the retention, 5 s): it counts all the same.
      await clock.advance(3000);
      expect((await account.call("GET", "/webhooks")).status).toBe(200);
      const present = async () => (await look.get("SELECT id FROM accounts WHERE token_hash = ?", tokenHash(account.token))) !== undefined;
      await clock.advance(RETENTION_SECONDS * 1000 - 1);
      expect(await present(), "at its retention after the last request").toBe(true);
      await clock.advance((RETENTION_SECONDS * 1000) / 10);
      expect(await present(), "a tenth of the retention later").toBe(false);
    } finally {
      await look.close();
      await sandbox.close();
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
