// The clock's answer is true: on a sandbox of two processes on PostgreSQL, with
// deliveries under way for the account (each reads the account's clock as it goes), every
// `clock/advance` answers the account's time after that advance, through whichever process.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startSandbox, type RunningSandbox } from "../../src/sandbox/index.ts";
import { postgresMissing, startPostgres, type TestPostgres } from "../../scripts/lib/temp-postgres.ts";
import { accountOn } from "../support/sandbox-account.ts";
import { startReceiver } from "../support/receiver.ts";

describe.skipIf(postgresMissing)("clock/advance through two processes while deliveries are made", () => {
  let cluster: TestPostgres;
  let sandboxes: RunningSandbox[];
  beforeAll(async () => {
    cluster = startPostgres();
    const options = { port: 0, database: cluster.createDatabase(), retryScheduleSeconds: [1, 1, 1] };
    sandboxes = await Promise.all([startSandbox(options), startSandbox(options)]);
  });
  afterAll(async () => {
    await Promise.all(sandboxes.map((s) => s.close()));
    cluster?.stop();
  });

  it("answers each advance with the account's offset after it and the time that offset makes", async () => {
    const token = `clock-${crypto.randomUUID()}`;
    const [one, two] = sandboxes.map((s) => accountOn(s.url, token));
    const receiver = await startReceiver();
    // Slow answers: attempts stay under way, on both processes, across the advances.
    receiver.answer = () => new Promise((resolve) => setTimeout(() => resolve(204), 20));
    await one!.register(receiver.url);
    for (let i = 0; i < 6; i++) {
      const session = await (i % 2 ? two! : one!).session();
      await (i % 2 ? one! : two!).simulate(session.id, { outcome: "pay" });
    }
    const answers = [];
    for (let i = 1; i <= 12; i++) {
      const before = Date.now();
      const { body } = await (i % 2 ? one! : two!).call("POST", "/_sandbox/v1/clock/advance", { seconds: 60 });
      answers.push({ offset: body.offset_seconds, late: Date.parse(body.now) - (before + body.offset_seconds * 1000) });
    }
    expect(answers.map((a) => a.offset)).toEqual(Array.from({ length: 12 }, (_, i) => 60 * (i + 1)));
    // The answer's `now` is its offset's time: between the request and the answer's arrival, never a minute behind.
    for (const a of answers) expect(a.late, JSON.stringify(answers)).toBeGreaterThanOrEqual(-1000);
    await receiver.close();
  });
});
