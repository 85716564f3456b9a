// Retention: an account with no request for longer than the retention is deleted with
// everything it holds, by a sweep every half retention, on SQLite and on PostgreSQL across
// processes; an account in use keeps everything; the token of a deleted account finds a new one.
// The sandboxes' clock is the test's: the retention passes at once, the same on any machine.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startSandbox, type RunningSandbox } from "../../src/sandbox/index.ts";
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
  let cluster: TestPostgres;
  let sandboxes: RunningSandbox[];
  const clock = new ManualClock();
  beforeAll(async () => {
    cluster = startPostgres();
    const options = { port: 0, database: cluster.createDatabase(), retentionSeconds: RETENTION_SECONDS, clock };
    sandboxes = await Promise.all([startSandbox(options), startSandbox(options)]);
  });
  afterAll(async () => {
    await Promise.all(sandboxes.map((s) => s.close()));
    cluster?.stop();
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
