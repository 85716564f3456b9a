// Retention (issue 42): an account with no request for longer than the retention is deleted with
// everything it holds, by a sweep every half retention, on SQLite and on PostgreSQL across
// processes; an account in use keeps everything; the token of a deleted account finds a new one.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startSandbox, type RunningSandbox } from "../../src/sandbox/index.ts";
import { postgresMissing, startPostgres, type TestPostgres } from "../../scripts/lib/temp-postgres.ts";
import { accountOn } from "../support/sandbox-account.ts";

/** Two accounts with a webhook and a session each; one asked for every 300 ms, the other left alone, until both have been checked. */
async function idleAndBusy(urls: string[], retentionMs: number) {
  const [idle, busy] = [accountOn(urls[0]!), accountOn(urls[0]!)];
  const made = [];
  for (const account of [idle, busy]) {
    await account.register("http://127.0.0.1:9/hook");
    made.push((await account.session()).id);
  }
  // The busy account's requests go to every process in turn.
  let n = 0;
  const busyOn = urls.map((url) => accountOn(url, busy.token));
  const using = setInterval(() => void busyOn[n++ % busyOn.length]!.call("GET", "/webhooks"), 300);
  try {
    await new Promise((resolve) => setTimeout(resolve, retentionMs * 2.5));
    const state = async (account: ReturnType<typeof accountOn>, session: string) => ({
      webhook: (await account.call("GET", "/webhooks")).status,
      session: (await account.call("GET", `/_sandbox/v1/payment-sessions/${session}`)).status,
    });
    return { idle: await state(idle, made[0]!), busy: await state(busy, made[1]!) };
  } finally {
    clearInterval(using);
  }
}

describe("an account idle for longer than the retention", () => {
  let sandbox: RunningSandbox;
  beforeAll(async () => {
    sandbox = await startSandbox({ port: 0, retentionSeconds: 1 });
  });
  afterAll(() => sandbox.close());

  it("is deleted with its webhook and sessions, on SQLite; one in use keeps them; its token makes a new account", async () => {
    expect(await idleAndBusy([sandbox.url], 1000)).toEqual({ idle: { webhook: 404, session: 404 }, busy: { webhook: 200, session: 200 } });
  });

  it("refuses a retention of 0 or less", async () => {
    await expect(startSandbox({ port: 0, retentionSeconds: 0 })).rejects.toThrow("retentionSeconds must be more than 0, not 0.");
  });
});

describe.skipIf(postgresMissing)("retention on PostgreSQL with two processes", () => {
  let cluster: TestPostgres;
  let sandboxes: RunningSandbox[];
  beforeAll(async () => {
    cluster = startPostgres();
    const options = { port: 0, database: cluster.createDatabase(), retentionSeconds: 2 };
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
        2000,
      ),
    ).toEqual({
      idle: { webhook: 404, session: 404 },
      busy: { webhook: 200, session: 200 },
    });
  });
});
