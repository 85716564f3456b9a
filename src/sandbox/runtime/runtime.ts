// The sandbox as an application, whatever carries its requests: built from its options (the
// store, the access rules, the deliveries' transports and dispatcher, the listeners), it runs its
// timers (due work, retention; the dispatcher and the listeners keep their own), takes every call
// through the service entry, and drains and closes. Nothing of HTTP: a transport (../edge/) hands
// it calls and the address it is reached at.
import { randomBytes } from "node:crypto";
import { every, sleepOn, systemClock, type Clock } from "../../lib/clock.ts";
import { problem } from "../../lib/problem.ts";
import { Refreshed } from "../../lib/refreshed.ts";
import { Access } from "../api/access.ts";
import { refusal } from "../api/answer.ts";
import { execute, type OperationCall, type Outcome } from "../api/execute.ts";
import type { Sandbox } from "../api/operation.ts";
import { Destinations } from "../delivery/destinations.ts";
import { Dispatcher } from "../delivery/dispatcher.ts";
import { HttpTransport } from "../delivery/http-transport.ts";
import { ListenerHub } from "../delivery/listener-hub.ts";
import { runDueWork } from "../flow/due-work.ts";
import { Payments } from "../flow/payments.ts";
import { DatabaseUnavailableError, LockWaitError, reportUnlessUnavailable } from "../store/database.ts";
import { Store } from "../store/index.ts";
import { createMetrics, type Metrics } from "./metrics.ts";
import { checked, type SandboxOptions } from "./options.ts";

/** How often work that comes due as time passes (expiries, settlements, keys' ends) is looked for. */
const TICK_MS = 1000;
/** The database's own words, when it is away, go to the process's log at most this often. */
const UNAVAILABLE_LOGGED_EVERY_MS = 10_000;
/**
 * Health asks its database at most this often: anyone may call it, without a token, and a flood of checks must cost the
 * database one query a second, not one each.
 */
const PING_EVERY_MS = 1000;

export type Health = { serving: true; database: string } | { serving: false; detail: string };

export interface Runtime {
  /** Runs one call, of the API or of a page, and answers it; never rejects. */
  execute(call: OperationCall): Promise<Outcome>;
  /** Starts its timers and deliveries, its links made under `origin` unless a public URL was given. */
  start(origin: string): void;
  /** Whether this process can serve: its database answers, and it is not stopping. */
  health(): Promise<Health>;
  /** What an operator scrapes; undefined without prom-client. */
  readonly metrics: Metrics | undefined;
  /**
   * Stops taking part: health says so at once, for the drain's time; then the listeners are sent
   * elsewhere, what waits on purpose stops, and the timers stop. The transport closes after it.
   */
  drain(): Promise<void>;
  /** Ends the deliveries under way and closes the store. */
  close(): Promise<void>;
}

export async function createRuntime(options: SandboxOptions = {}): Promise<Runtime> {
  const settings = checked(options);
  const clock: Clock = options.clock ?? systemClock;
  const store = await Store.open(options.database === undefined ? { file: options.db } : { postgres: options.database }, {
    retentionMs: settings.retentionMs,
    clock,
    // An account's webhook attempts are bounded as its requests are.
    deliveriesPerSecond: options.rateLimitPerSecond,
  });
  const payments = new Payments(store, options.settlementDelaySeconds);
  const destinations = new Destinations({
    hosted: (options.allowWebhookHosts?.length ?? 0) > 0,
    ...(options.allowWebhookNetworks ? { allowedNetworks: options.allowWebhookNetworks } : {}),
    ...(options.resolveHost ? { resolve: options.resolveHost } : {}),
  });
  const http = new HttpTransport({ timeoutMs: options.deliveryTimeoutMs, allowedHosts: options.allowWebhookHosts, destinations, clock });
  // A listener connected to an account takes its deliveries; the registered URL gets them otherwise (decision D23).
  const listeners = new ListenerHub(store, http);
  const metrics = await createMetrics(store, clock);
  const transport = metrics ? metrics.counting(listeners) : listeners;
  const dispatcher = new Dispatcher(store, {
    retryScheduleSeconds: options.retryScheduleSeconds,
    transport,
  });
  const closing = new AbortController();
  const access = new Access({
    minTokenLength: options.minTokenLength,
    ratePerSecond: options.rateLimitPerSecond,
    issuedOnly: options.accounts === "issued",
    clock,
  });
  const sandbox: Sandbox = { store, clock, payments, dispatcher, listeners, destinations, access, closing: closing.signal, origin: "" };
  try {
    await listeners.start();
  } catch (error) {
    await store.close();
    throw error;
  }

  let stopping = false;
  let unavailableLoggedAt = -Infinity;
  // With metrics, their reading of the gauges (once a second at most) is health's ping too: a flood of both routes costs
  // the database one query a second, not two.
  const ping = metrics ? { get: () => metrics.readDatabase() } : new Refreshed(clock, PING_EVERY_MS, () => store.ping());
  /** What a call that failed answers: the database away is 503 (its own words only in the log), anything else 500. */
  const failed = (error: unknown): Outcome => {
    if (closing.signal.aborted) return { answer: refusal(problem(503, "service_unavailable", "This sandbox is stopping.")), dropped: true };
    if (error instanceof LockWaitError) {
      // A burst of one account's writes queued on one of its rows: its own requests wait, and no one else's.
      const detail = "This account's requests waited too long on one another (a burst of writes to the account). Retry shortly.";
      return { answer: refusal(problem(503, "service_unavailable", detail), { "Retry-After": "1" }), dropped: false };
    }
    if (error instanceof DatabaseUnavailableError) {
      if (clock.now() - unavailableLoggedAt >= UNAVAILABLE_LOGGED_EVERY_MS) {
        unavailableLoggedAt = clock.now();
        console.error(`payin-sandbox: the database is unavailable: ${error.message}`);
      }
      const detail = "The sandbox's database is unavailable. Retry shortly.";
      return { answer: refusal(problem(503, "service_unavailable", detail), { "Retry-After": "1" }), dropped: false };
    }
    // The error's own words may be the database's or the runtime's (a table's name, a statement, a path): the caller gets a
    // reference to them in the log (the contract's request_id), never the words.
    const reference = `req_${randomBytes(12).toString("base64url")}`;
    console.error(`payin-sandbox: ${reference}: ${(error as Error).stack ?? error}`);
    const detail = `The sandbox failed on this request; its operator finds why in its log under ${reference}.`;
    return { answer: refusal(problem(500, "internal_error", detail, { request_id: reference })), dropped: false };
  };

  /** Each job's run under way, so that closing waits for it. */
  const running = new Set<Promise<unknown>>();
  const job = (work: () => Promise<unknown>) => () => {
    const run = work()
      .catch(reportUnlessUnavailable)
      .finally(() => running.delete(run));
    running.add(run);
    return run;
  };
  const stops: Array<() => void> = [];
  let drained: Promise<void> | undefined;
  const drain = () =>
    (drained ??= (async () => {
      stopping = true;
      await sleepOn(clock, settings.drainMs);
      await listeners.close();
      closing.abort();
      for (const stop of stops) stop();
    })());

  return {
    metrics,
    execute: (call) => execute(sandbox, call).catch(failed),
    start(origin) {
      sandbox.origin = settings.publicUrl ?? origin;
      dispatcher.start();
      // Expiries and settlements come due as time passes; the dispatcher sends the events they make.
      stops.push(
        every(
          clock,
          TICK_MS,
          job(() => runDueWork(sandbox, null)),
        ),
      );
      // Accounts idle for longer than the retention go, by a sweep every twentieth of the retention (every minute at most).
      stops.push(
        every(
          clock,
          store.sweepEveryMs,
          job(() => store.deleteIdleAccounts()),
        ),
      );
    },
    async health() {
      if (stopping) return { serving: false, detail: "This sandbox process is stopping: send requests to another." };
      try {
        await ping.get();
      } catch (error) {
        if (error instanceof DatabaseUnavailableError) failed(error);
        else reportUnlessUnavailable(error);
        return { serving: false, detail: "This sandbox process cannot reach its database." };
      }
      return { serving: true, database: store.dialect };
    },
    drain,
    async close() {
      await drain();
      await dispatcher.close();
      await Promise.all(running);
      await store.close();
    },
  };
}
