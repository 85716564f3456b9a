// The sandbox: the contract's six operations with real state, the control API, the payment
// page behind every payment_link, and webhook deliveries, on node:http, with its state in
// node:sqlite, or in PostgreSQL shared by any number of these processes.
import { createServer, type IncomingMessage } from "node:http";
import { Dispatcher } from "../delivery/dispatcher.ts";
import { HttpTransport } from "../delivery/http-transport.ts";
import { ListenerHub } from "../delivery/listener-hub.ts";
import { Destinations, type Resolve } from "../delivery/destinations.ts";
import { runDueWork } from "../flow/due-work.ts";
import { handlePage } from "./page/routes.ts";
import { handleDashboard } from "./dashboard/routes.ts";
import { DASHBOARD } from "./dashboard/render.ts";
import { Payments } from "../flow/payments.ts";
import { problem } from "../../lib/problem.ts";
import type { Sandbox } from "../api/operation.ts";
import { Access } from "../api/access.ts";
import { handleRequest, operationOf } from "./requests.ts";
import { answerHealth } from "./health.ts";
import { createMetrics, metricsMissing } from "./metrics.ts";
import { DEFAULT_RETENTION_MS, Store } from "../store/index.ts";
import { isPostgresUrl } from "../store/location.ts";
import { DatabaseUnavailableError, reportUnlessUnavailable } from "../store/database.ts";
import { answerClientError, sendJson } from "./http.ts";
import { listen } from "../../lib/listen.ts";
import { linkBase, PAGE_PREFIX } from "../flow/urls.ts";

export interface SandboxOptions {
  /** Port to listen on; 0 picks a free one. Default 4010. */
  port?: number;
  /** Interface to listen on. Default 127.0.0.1. */
  host?: string;
  /** SQLite database file that keeps the state across restarts. Default `:memory:`. */
  db?: string;
  /**
   * A PostgreSQL URL (`postgres://user:password@host:5432/database`): the state is kept there,
   * and any number of sandboxes started on it serve the same accounts. In place of `db`.
   */
  database?: string;
  /** Seconds of sandbox time from a completed transaction to its settlement. Default 60. */
  settlementDelaySeconds?: number;
  /**
   * Seconds of sandbox time before each retry of a failed webhook delivery; its length is the
   * number of retries. Default Svix's: 5 s, 5 min, 30 min, 2 h, 5 h, 10 h, 10 h (20 % jitter).
   * A short one such as `[1, 1, 1]` suits CI.
   */
  retryScheduleSeconds?: readonly number[];
  /** How long a webhook receiver has to answer an attempt, in milliseconds. Default 15,000. */
  deliveryTimeoutMs?: number;
  /**
   * The URL the sandbox is reached at, when not the address it listens on (a container's
   * name, a tunnel): the origin of every `payment_link`. Default: `http://<host>:<port>`.
   */
  publicUrl?: string;
  /**
   * Hosts outside loopback that webhooks may be delivered to; `*` allows every host. Default
   * none: an attempt to another host is recorded as failed without a connection (decision D21).
   */
  allowWebhookHosts?: readonly string[];
  /**
   * Once other hosts are allowed, networks of the sandbox's own (CIDRs such as `10.1.0.0/16`) that
   * deliveries may still reach; by default none: no loopback, private, link-local or other
   * non-public address (decision D21).
   */
  allowWebhookNetworks?: readonly string[];
  /**
   * Requests a second each token may make to this process, with a burst of as many at once;
   * beyond it, the contract's 429 with Retry-After, for that token only. Default none.
   */
  rateLimitPerSecond?: number;
  /** The shortest bearer token taken: a shorter one gets 401 naming the minimum. Default any. */
  minTokenLength?: number;
  /** How host names are resolved for deliveries (the system's resolver by default): a test's own. */
  resolveHost?: Resolve;
  /**
   * Seconds between `close()` (SIGTERM) and the end of serving, while `/_sandbox/health` answers
   * 503 so that a load balancer takes the process out first. Default 0.
   */
  drainSeconds?: number;
  /**
   * Seconds an account may go without a request before it is deleted with everything it holds
   * (its token then makes a new one). Default 30 days.
   */
  retentionSeconds?: number;
}

export interface RunningSandbox {
  /**
   * `http://127.0.0.1:<port>`: the base URL of the six operations and of `/_sandbox/v1/` (on
   * loopback when the sandbox listens on every interface).
   */
  url: string;
  port: number;
  /** Stops listening, closes open connections, and closes the database. */
  close(): Promise<void>;
}

/** How often work that comes due as real time passes (expiries, settlements, retries) is done. */
const TICK_MS = 1000;
/** The process's own routes, for a load balancer and a scraper: neither takes a token. */
const HEALTH = "/_sandbox/health";
const METRICS = "/_sandbox/metrics";

export async function startSandbox(options: SandboxOptions = {}): Promise<RunningSandbox> {
  const host = options.host ?? "127.0.0.1";
  const publicUrl = options.publicUrl === undefined ? undefined : linkBase(options.publicUrl, "publicUrl");
  if (options.database !== undefined && !isPostgresUrl(options.database))
    throw new Error(`The database must be a postgres:// URL, not ${JSON.stringify(options.database)}; a SQLite file is given as db.`);
  const retentionMs = (options.retentionSeconds ?? DEFAULT_RETENTION_MS / 1000) * 1000;
  if (!(retentionMs > 0)) throw new Error(`retentionSeconds must be more than 0, not ${options.retentionSeconds}.`);
  const store = await Store.open(options.database === undefined ? { file: options.db } : { postgres: options.database }, { retentionMs });
  const payments = new Payments(store, options.settlementDelaySeconds);
  // A listener connected to an account takes its deliveries; the registered URL gets them otherwise (decision D23).
  const destinations = new Destinations({
    hosted: (options.allowWebhookHosts?.length ?? 0) > 0,
    ...(options.allowWebhookNetworks ? { allowedNetworks: options.allowWebhookNetworks } : {}),
    ...(options.resolveHost ? { resolve: options.resolveHost } : {}),
  });
  const http = new HttpTransport({ timeoutMs: options.deliveryTimeoutMs, allowedHosts: options.allowWebhookHosts, destinations });
  const listeners = new ListenerHub(store, http);
  const metrics = await createMetrics(store);
  const transport = metrics ? metrics.counting(listeners) : listeners;
  const dispatcher = new Dispatcher(store, { retryScheduleSeconds: options.retryScheduleSeconds, transport });
  // The origin is known once the server listens, before any request can arrive.
  const closing = new AbortController();
  const access = new Access({ minTokenLength: options.minTokenLength, ratePerSecond: options.rateLimitPerSecond });
  const sandbox: Sandbox = { store, payments, dispatcher, listeners, destinations, access, closing: closing.signal, origin: "" };

  let stopping = false;
  const server = createServer((req, res) => {
    const started = performance.now();
    const part = partOf(req);
    if (metrics) res.once("close", () => metrics.request(part, res.statusCode, (performance.now() - started) / 1000));
    const handled =
      part === "payment_page"
        ? handlePage(sandbox, req, res, new URL(req.url!, "http://sandbox"))
        : part === "dashboard"
          ? handleDashboard(sandbox, req, res, new URL(req.url!, "http://sandbox"))
          : part === "health"
            ? answerHealth(res, () => store.ping(), store.dialect, stopping)
            : part === "metrics"
              ? metrics
                ? metrics.answer(res)
                : Promise.resolve(metricsMissing(res))
              : handleRequest(sandbox, req, res);
    handled.catch((error: unknown) => {
      // Closing cuts short what waited on purpose (a delay fault): its connection is gone.
      if (res.headersSent || res.destroyed || closing.signal.aborted) return void res.destroy();
      // The database went away (PostgreSQL restarting, a network cut): ask again soon.
      if (error instanceof DatabaseUnavailableError) {
        const body = problem(503, "service_unavailable", `The sandbox cannot reach its database: ${error.message}. Retry shortly.`);
        return sendJson(res, 503, JSON.stringify(body), { "Retry-After": "1" });
      }
      console.error(`payin-sandbox: ${(error as Error).stack ?? error}`);
      const body = problem(500, "internal_error", `The sandbox failed on this request: ${(error as Error).message}`);
      sendJson(res, 500, JSON.stringify(body));
    });
  });
  server.on("clientError", answerClientError);
  let port: number;
  try {
    await listeners.start();
    port = await listen(server, options.port ?? 4010, host);
  } catch (error) {
    await listeners.close();
    await store.close();
    throw error;
  }
  // Expiries and settlements come due as real time passes too; the dispatcher sends the events
  // they make, as it sends every event committed to the outbox.
  // A tick the database is unavailable for is skipped: the next one does its work. One still under way
  // (a slow or silent database) is not joined by another.
  let dueWork: Promise<void> | undefined;
  const ticker = setInterval(() => {
    dueWork ??= runDueWork(sandbox, null)
      .catch(reportUnlessUnavailable)
      .finally(() => (dueWork = undefined));
  }, TICK_MS);
  dispatcher.start();
  // Accounts idle for longer than the retention go, by a sweep every half retention (every minute at most).
  let sweep: Promise<unknown> | undefined;
  const sweeper = setInterval(
    () => {
      sweep ??= store
        .deleteIdleAccounts(Date.now() - retentionMs)
        .catch(reportUnlessUnavailable)
        .finally(() => (sweep = undefined));
    },
    Math.min(retentionMs / 2, 60_000),
  );

  const url = `http://${reachableHost(host)}:${port}`;
  sandbox.origin = publicUrl ?? url;

  let closed: Promise<void> | undefined;
  return {
    url,
    port,
    close: () =>
      (closed ??= Promise.resolve((stopping = true))
        .then(() => new Promise((resolve) => setTimeout(resolve, (options.drainSeconds ?? 0) * 1000)))
        .then(() => listeners.close())
        .then(
          () =>
            new Promise<void>((resolve) => {
              clearInterval(ticker);
              clearInterval(sweeper);
              closing.abort();
              server.close(() => resolve());
              server.closeAllConnections();
            }),
        )
        .then(() => dispatcher.close())
        .then(() => Promise.all([dueWork, sweep]))
        .then(() => store.close())),
  };
}

/** Which part of the sandbox answers the request: the page, the dashboard, health, metrics, or an operation (its operationId). */
function partOf(req: IncomingMessage): string {
  const url = req.url ?? "";
  if (url.startsWith(PAGE_PREFIX)) return "payment_page";
  if (url === DASHBOARD || url.startsWith(`${DASHBOARD}/`) || url.startsWith(`${DASHBOARD}?`)) return "dashboard";
  const pathname = url.split("?", 1)[0];
  if (pathname === HEALTH && (req.method === "GET" || req.method === "HEAD")) return "health";
  if (pathname === METRICS && (req.method === "GET" || req.method === "HEAD")) return "metrics";
  return operationOf(req.method ?? "", pathname!);
}

/** The host a link can name for the interface the sandbox listens on: loopback for "every interface". */
function reachableHost(host: string): string {
  if (host === "0.0.0.0") return "127.0.0.1";
  if (host === "::" || host === "[::]") return "[::1]";
  return host.includes(":") && !host.startsWith("[") ? `[${host}]` : host;
}
