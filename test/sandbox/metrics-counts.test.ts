// The requests' metrics are counted in plain numbers at each request and handed to prom-client
// at a scrape: what a scrape shows must be what prom-client counting each request would have
// shown, scrape after scrape, a duration on a bucket's bound included. A scrape's text is made at
// most once a second: the test's clock moves a second between scrapes.
import { describe, expect, it } from "vitest";
import { createMetrics } from "../../src/sandbox/runtime/metrics.ts";
import { ManualClock } from "../support/manual-clock.ts";

const readings = {
  gauges: async () => ({ dueEvents: 0, oldestDueAgeMs: 0, activeAccounts: 0 }),
  connections: () => ({ inUse: 0, idle: 1, waiting: 0 }),
};
const NAME = "payin_sandbox_http_request_duration_seconds";

/** The samples of the requests' two metrics in a scrape, by their line without the value. */
async function samples(metrics: NonNullable<Awaited<ReturnType<typeof createMetrics>>>) {
  const { text } = await metrics.scrape();
  const lines = text.split("\n").filter((l) => l.startsWith("payin_sandbox_http_"));
  return Object.fromEntries(lines.map((l) => [l.slice(0, l.lastIndexOf(" ")), Number(l.slice(l.lastIndexOf(" ") + 1))]));
}

describe("the requests' metrics", () => {
  it("show each status's count, and each operation's durations by cumulative bucket with their sum and count", async () => {
    const clock = new ManualClock();
    const metrics = (await createMetrics(readings, clock))!;
    for (const seconds of [0.003, 0.005, 0.005, 0.2]) metrics.request("createPaymentSession", 201, seconds);
    metrics.request("createPaymentSession", 503, 12);
    metrics.request("not_found", 404, 0.001);
    const first = await samples(metrics);
    expect(first).toMatchObject({
      'payin_sandbox_http_requests_total{operation="createPaymentSession",status="201"}': 4,
      'payin_sandbox_http_requests_total{operation="createPaymentSession",status="503"}': 1,
      'payin_sandbox_http_requests_total{operation="not_found",status="404"}': 1,
      [`${NAME}_bucket{le="0.005",operation="createPaymentSession"}`]: 3,
      [`${NAME}_bucket{le="0.1",operation="createPaymentSession"}`]: 3,
      [`${NAME}_bucket{le="0.25",operation="createPaymentSession"}`]: 4,
      [`${NAME}_bucket{le="10",operation="createPaymentSession"}`]: 4,
      [`${NAME}_bucket{le="+Inf",operation="createPaymentSession"}`]: 5,
      [`${NAME}_count{operation="createPaymentSession"}`]: 5,
      [`${NAME}_count{operation="not_found"}`]: 1,
    });
    expect(first[`${NAME}_sum{operation="createPaymentSession"}`]).toBeCloseTo(12.213, 9);

    // A second scrape adds what came since the first, once; within the second, it is the first's text.
    metrics.request("createPaymentSession", 201, 0.02);
    expect(await samples(metrics)).toEqual(first);
    await clock.advance(1000);
    const second = await samples(metrics);
    expect(second).toMatchObject({
      'payin_sandbox_http_requests_total{operation="createPaymentSession",status="201"}': 5,
      [`${NAME}_bucket{le="0.005",operation="createPaymentSession"}`]: 3,
      [`${NAME}_bucket{le="0.025",operation="createPaymentSession"}`]: 4,
      [`${NAME}_count{operation="createPaymentSession"}`]: 6,
    });
    expect(second[`${NAME}_sum{operation="createPaymentSession"}`]).toBeCloseTo(12.233, 9);
    await clock.advance(1000);
    expect(await samples(metrics)).toEqual(second);
  });
});
