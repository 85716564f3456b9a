// The installed payin-sandbox as a company runs it: two processes on a throwaway PostgreSQL, with
// the optional peers installed beside the package (pg, prom-client) and the hosting guide's retention:
// healthy, tells true time, runs many tenants' flows at once, counts them, and keeps a commit past a
// crash. (Retention on two PostgreSQL processes is test/sandbox/retention.test.ts's, on a clock it moves.)
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { postgresMissing, startPostgres, type TestPostgres } from "../../scripts/lib/temp-postgres.ts";
import { startReceiver } from "../support/receiver.ts";
import { accountOn } from "../support/sandbox-account.ts";
import { startBin, withPeers as project } from "./support/consumer.ts";

describe.skipIf(postgresMissing)(
  "the installed payin-sandbox as a company runs it: two processes, a throwaway PostgreSQL, --retention 30d",
  () => {
    let cluster: TestPostgres;
    const sandboxes: ReturnType<typeof startBin>[] = [];
    let urls: string[];
    let database: string;
    beforeAll(async () => {
      cluster = startPostgres();
      database = cluster.createDatabase();
      for (let i = 0; i < 2; i++)
        sandboxes.push(
          startBin("payin-sandbox", process.execPath, project, ["--database", database, "--retention", "30d", "--retry-schedule", "1,1,1"]),
        );
      urls = await Promise.all(sandboxes.map((s) => s.url));
    }, 60_000);
    afterAll(() => {
      for (const s of sandboxes) s.child.kill("SIGTERM");
      cluster?.stop();
    });

    it("is healthy, tells true time, runs 40 accounts' flows at once, counts, keeps commits past a crash", async () => {
      for (const url of urls) expect((await fetch(`${url}/_sandbox/health`)).status).toBe(200);
      // Twelve advances through alternating processes, each answering the account's true time.
      const clock = accountOn(urls[0]!);
      const receiver = await startReceiver();
      await clock.register(receiver.url);
      await clock.simulate((await clock.session()).id, { outcome: "pay" });
      for (let i = 1; i <= 12; i++) {
        const before = Date.now();
        const { body } = await accountOn(urls[i % 2]!, clock.token).call("POST", "/_sandbox/v1/clock/advance", { seconds: 60 });
        expect(body.offset_seconds).toBe(60 * i);
        expect(Date.parse(body.now) - (before + 60_000 * i)).toBeGreaterThanOrEqual(-1000);
      }
      await receiver.close();

      // 40 accounts, five flows each at once, across both processes: no 5xx, every session completed delivered.
      // (How fast is the bench's to say.)
      const { runTenants } = await import("../../scripts/bench/tenants.ts");
      const load = await runTenants(urls, 40, 5, 30_000);
      expect([load.serverErrors, load.lost]).toEqual([0, 0]);
      const scrapes = await Promise.all(urls.map(async (url) => (await fetch(`${url}/_sandbox/metrics`)).text()));
      const total = (line: RegExp) =>
        scrapes.flatMap((text) => text.split("\n")).reduce((sum, l) => (line.test(l) ? sum + Number(l.split(" ").at(-1)) : sum), 0);
      expect(total(/^payin_sandbox_http_requests_total\{operation="createPaymentSession",status="201"\} /)).toBeGreaterThanOrEqual(200);
      expect(total(/^payin_sandbox_delivery_attempts_total\{outcome="acknowledged"\} /)).toBeGreaterThanOrEqual(800);

      // A session whose event was acknowledged survives the database's crash.
      const durableReceiver = await startReceiver();
      const durable = accountOn(urls[0]!);
      await durable.register(durableReceiver.url);
      const session = await durable.session();
      await durableReceiver.delivered(1);
      cluster.crash();
      cluster.resume();
      await expect
        .poll(
          async () =>
            (
              await fetch(`${urls[1]}/_sandbox/v1/payment-sessions/${session.id}`, {
                headers: { Authorization: `Bearer ${durable.token}` },
              })
            ).status,
          {
            timeout: 15_000,
          },
        )
        .toBe(200);
      await durableReceiver.close();
    }, 120_000);
  },
);
