// GET /_sandbox/metrics: what an operator of a shared sandbox scrapes, in Prometheus's text
// format, through prom-client (an optional peer dependency, as pg is: without it the route
// answers 501 saying so). Counted as they happen: HTTP requests by operation and status, their
// duration, and delivery attempts by outcome (counted on the transport, whichever carries them).
// A request is counted in plain numbers here, and prom-client is handed the counts at a scrape:
// its own counting checks and hashes the labels at every call, which cost every request of a
// sandbox that no one scrapes (any local run where prom-client is installed) a share of its CPU.
// A scrape is answered from a text made at most once a second, however often anyone scrapes (the
// route takes no token). Read from the database as often at most: the outbox's backlog and the
// age of its oldest due event, the accounts active within the last hour; while the database is
// away they keep their last values, and a gauge says it is away. From this process: its database
// connections, and Node's own (CPU, memory, event loop), which prom-client collects.
import type { Clock } from "../../lib/clock.ts";
import { Refreshed } from "../../lib/refreshed.ts";
import type { Transport } from "../delivery/transport.ts";
import { reportUnlessUnavailable } from "../store/database.ts";

/** Accounts with a request within this long count as active. */
const ACTIVE_WITHIN_MS = 3600_000;
/** The gauges of the whole sandbox are read from the database, and a scrape's text made, at most this often. */
const READ_EVERY_MS = 1000;

/** What the gauges read at each scrape: the store's `gauges` and `connections`. */
export interface Readings {
  gauges(activeSinceMs: number): Promise<{ dueEvents: number; oldestDueAgeMs: number; activeAccounts: number }>;
  connections(): { inUse: number; idle: number; waiting: number };
}

export interface Metrics {
  /** Counts a request answered: `operation` is the operationId, or the part of the sandbox that answered it. */
  request(operation: string, status: number, seconds: number): void;
  /** The transport with every attempt it carries counted by outcome. */
  counting(transport: Transport): Transport;
  /** What a scrape is answered with: the text, and its content type. */
  scrape(): Promise<{ contentType: string; text: string }>;
  /**
   * Reads the gauges from the database, at most once a second (callers meanwhile share the reading); rejects while the
   * database does not answer. Health asks through it, so that both anonymous routes together cost one query a second.
   */
  readDatabase(): Promise<void>;
}

/** The sandbox's metrics, or undefined when prom-client is not installed. */
export async function createMetrics(store: Readings, clock: Clock): Promise<Metrics | undefined> {
  const client = await import("prom-client").catch(() => undefined);
  if (!client) return undefined;
  const { Counter, Gauge, Histogram, Registry, collectDefaultMetrics } = client;
  const register = new Registry();
  collectDefaultMetrics({ register });
  const answered = new Answered();
  new Counter({
    name: "payin_sandbox_http_requests_total",
    help: "HTTP requests answered, by operation and status.",
    labelNames: ["operation", "status"] as const,
    registers: [register],
    collect() {
      this.reset();
      for (const [operation, statuses] of answered.statuses)
        for (const [status, count] of statuses) this.inc({ operation, status: String(status) }, count);
    },
  });
  new Histogram({
    name: "payin_sandbox_http_request_duration_seconds",
    help: "Time from a request's arrival to its answer's end, by operation.",
    labelNames: ["operation"] as const,
    buckets: DURATION_BUCKETS,
    registers: [register],
    collect() {
      for (const [operation, durations] of answered.durations) {
        // What came since the last scrape, each bucket's at the bucket's mean (kept inside the bucket, which rounding could
        // leave by a hair): its counts and the sum stay what they were.
        for (const [i, count] of durations.counts.entries()) {
          const fresh = count - durations.handed[i]!;
          const mean = (durations.sums[i]! - durations.handedSums[i]!) / fresh;
          const lower = i === 0 ? -Infinity : DURATION_BUCKETS[i - 1]! * (1 + Number.EPSILON);
          const value = Math.min(DURATION_BUCKETS[i] ?? Infinity, Math.max(lower, mean));
          for (let n = 0; n < fresh; n++) this.observe({ operation }, value);
          durations.handed[i] = count;
          durations.handedSums[i] = durations.sums[i]!;
        }
      }
    },
  });
  const attempts = new Counter({
    name: "payin_sandbox_delivery_attempts_total",
    help: "Webhook delivery attempts made by this process: acknowledged (2xx), refused (another status) or unanswered.",
    labelNames: ["outcome"] as const,
    registers: [register],
  });
  // One read of the database a second at most fills the gauges below, whatever the scrapes; a read that fails (the
  // database away) leaves them at their last values, and the scrape still answers, saying the database is down.
  type Read = Awaited<ReturnType<Readings["gauges"]>>;
  let last: Read = { dueEvents: 0, oldestDueAgeMs: 0, activeAccounts: 0 };
  let up = false;
  const reading = new Refreshed(clock, READ_EVERY_MS, () => store.gauges(clock.now() - ACTIVE_WITHIN_MS));
  const gauges = async () => {
    try {
      last = await reading.get();
      up = true;
    } catch (error) {
      up = false;
      reportUnlessUnavailable(error);
    }
    return last;
  };
  const gauge = (name: string, help: string, read: (g: Read) => number) =>
    new Gauge({
      name,
      help,
      registers: [register],
      async collect() {
        this.set(read(await gauges()));
      },
    });
  new Gauge({
    name: "payin_sandbox_database_up",
    help:
      "Whether this process's last read of the database answered: 1, or 0 while it is away " +
      "(the gauges read from it keep their last values).",
    registers: [register],
    async collect() {
      await gauges();
      this.set(up ? 1 : 0);
    },
  });
  gauge("payin_sandbox_outbox_due_events", "Events due for delivery now, across the sandbox.", (g) => g.dueEvents);
  gauge(
    "payin_sandbox_outbox_oldest_due_age_seconds",
    "How long the oldest due event has waited, 0 with none.",
    (g) => g.oldestDueAgeMs / 1000,
  );
  gauge("payin_sandbox_accounts_active", "Accounts with a request within the last hour, across the sandbox.", (g) => g.activeAccounts);
  new Gauge({
    name: "payin_sandbox_database_connections",
    help: "This process's database connections: in use, idle, and requests waiting for one.",
    labelNames: ["state"] as const,
    registers: [register],
    collect() {
      const { inUse, idle, waiting } = store.connections();
      this.set({ state: "in_use" }, inUse);
      this.set({ state: "idle" }, idle);
      this.set({ state: "waiting" }, waiting);
    },
  });

  // The text itself is made at most once a second too: prom-client's formatting of every metric costs a scrape's CPU,
  // and anyone may scrape (no token) as often as they like; an operator scrapes every few seconds at most.
  const scraped = new Refreshed(clock, READ_EVERY_MS, async () => ({ contentType: register.contentType, text: await register.metrics() }));
  return {
    request: (operation, status, seconds) => answered.add(operation, status, seconds),
    counting: (transport) => ({
      timeoutMs: transport.timeoutMs,
      async send(request, signal) {
        const result = await transport.send(request, signal);
        if (!("nowhere" in result) && !signal.aborted)
          attempts.inc({ outcome: "error" in result ? "unanswered" : result.status < 300 ? "acknowledged" : "refused" });
        return result;
      },
    }),
    scrape: () => scraped.get(),
    readDatabase: async () => {
      await reading.get();
    },
  };
}

const DURATION_BUCKETS = [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10];

/** Requests answered, by operation: how many with each status, and their durations by bucket (the last past every bound). */
class Answered {
  readonly statuses = new Map<string, Map<number, number>>();
  readonly durations = new Map<string, { counts: number[]; sums: number[]; handed: number[]; handedSums: number[] }>();

  add(operation: string, status: number, seconds: number) {
    let statuses = this.statuses.get(operation);
    if (!statuses) this.statuses.set(operation, (statuses = new Map()));
    statuses.set(status, (statuses.get(status) ?? 0) + 1);
    let durations = this.durations.get(operation);
    if (!durations) {
      const zeros = () => new Array<number>(DURATION_BUCKETS.length + 1).fill(0);
      this.durations.set(operation, (durations = { counts: zeros(), sums: zeros(), handed: zeros(), handedSums: zeros() }));
    }
    let bucket = 0;
    while (bucket < DURATION_BUCKETS.length && seconds > DURATION_BUCKETS[bucket]!) bucket++;
    durations.counts[bucket]!++;
    durations.sums[bucket]! += seconds;
  }
}
