// DELETE /_sandbox/v1/counterparties/{counterparty_id}: a counterparty goes with all it has, its
// sessions, their transactions, events and delivery attempts, so that nothing of it is delivered
// or falls due afterwards, however far the clock moves; the rest of the account stays as it was.
// On SQLite, and on PostgreSQL (a throwaway cluster; skipped with a message without Debian's package).
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { postgresMissing, startPostgres, type TestPostgres } from "../../scripts/lib/temp-postgres.ts";
import { startSandbox, type RunningSandbox } from "../../src/sandbox/index.ts";
import { accountOn } from "../support/sandbox-account.ts";
import { startReceiver } from "../support/receiver.ts";

if (postgresMissing) console.warn(postgresMissing);
let cluster: TestPostgres | undefined;
beforeAll(() => {
  if (!postgresMissing) cluster = startPostgres();
});
afterAll(() => cluster?.stop());

const engines = [
  { engine: "SQLite", skip: undefined, database: () => undefined },
  { engine: "PostgreSQL", skip: postgresMissing, database: () => cluster!.createDatabase() },
];

describe.each(engines)("deleting a counterparty on $engine", ({ skip, database }) => {
  let sandbox: RunningSandbox;
  beforeAll(async () => {
    if (skip) return;
    const url = database();
    sandbox = await startSandbox({ port: 0, retryScheduleSeconds: [60, 3600], ...(url ? { database: url } : {}) });
  });
  afterAll(() => sandbox?.close());

  it.skipIf(skip)(
    "takes its sessions, transactions, events and attempts with it: nothing is delivered after, a day on; the rest stays",
    async () => {
      const account = accountOn(sandbox.url);
      const receiver = await startReceiver();
      await account.register(receiver.url);
      // The endpoint fails every attempt for now: retries, a settlement and an expiry wait in the account.
      receiver.answer = () => 503;
      const [mine, theirs] = [await account.session(), await account.session()];
      const paid = (await account.simulate(mine.id, { outcome: "pay" })).body.transaction;
      const failed = await account.session({ counterparty_id: mine.counterparty_id });
      await account.simulate(failed.id, { outcome: "fail", failure_reason: "card_declined" });
      await account.advance(1);
      expect((await account.deliveries()).some((a) => a.session_id === mine.id)).toBe(true);

      expect((await account.call("DELETE", `/_sandbox/v1/counterparties/${mine.counterparty_id}`)).status).toBe(204);
      for (const id of [mine.id, failed.id])
        expect((await account.call("GET", `/_sandbox/v1/payment-sessions/${id}`)).status, id).toBe(404);
      expect((await account.transaction(paid.id)).status).toBe(404);
      expect((await account.deliveries()).filter((a) => [mine.id, failed.id].includes(a.session_id))).toEqual([]);

      receiver.answer = () => 204;
      const before = receiver.attempts.length;
      await account.advance(24 * 3600);
      const after = receiver.attempts.slice(before);
      expect(after.filter((a) => JSON.parse(a.body).data.session_id !== theirs.id)).toEqual([]);
      // The other counterparty's session is as it was, and its events still go out.
      expect((await account.call("GET", `/_sandbox/v1/payment-sessions/${theirs.id}`)).body.status).toBe("expired");
      expect(after.map((a) => a.type)).toContain("session-expired");
      await receiver.close();
    },
  );

  it.skipIf(skip)(
    "answers 404 for one the account does not have (gone already, another account's, not an id) and 422 for no id at all",
    async () => {
      const account = accountOn(sandbox.url);
      const other = accountOn(sandbox.url);
      const session = await other.session();
      const gone = await account.session();
      expect((await account.call("DELETE", `/_sandbox/v1/counterparties/${gone.counterparty_id}`)).status).toBe(204);
      for (const id of [gone.counterparty_id, session.counterparty_id, "nope"]) {
        const answer = await account.call("DELETE", `/_sandbox/v1/counterparties/${id}`);
        expect([answer.status, answer.body.detail]).toEqual([404, `No counterparty with id ${id} exists for this account.`]);
      }
      expect((await other.call("GET", `/_sandbox/v1/payment-sessions/${session.id}`)).status).toBe(200);
      expect((await account.call("DELETE", `/_sandbox/v1/counterparties/cp_${"x".repeat(64)}`)).status).toBe(422);
    },
  );
});
