// The sandbox over node:http: each request goes to the part that answers it (the contract's
// operations and the control API, the payment page, the dashboard, health, metrics), which
// translates HTTP into a call of the runtime (../runtime/) and its answer back into HTTP.
import { createServer, type IncomingMessage, type Server, type ServerResponse } from "node:http";
import type { Socket } from "node:net";
import { bindPort } from "../../lib/bind-port.ts";
import { problem } from "../../lib/problem.ts";
import { PAGE_PREFIX } from "../api/pages/index.ts";
import type { SandboxOptions } from "../runtime/options.ts";
import { createRuntime } from "../runtime/runtime.ts";
import { DASHBOARD } from "./dashboard/place.ts";
import { handleDashboard } from "./dashboard/routes.ts";
import { answerHealth } from "./health.ts";
import { answerClientError, sendJson } from "./http.ts";
import { answerMetrics } from "./metrics.ts";
import { handlePage } from "./page/routes.ts";
import { handleRequest, operationOf } from "./requests.ts";
import { edgeOf, type Edge } from "./edge.ts";

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

/**
 * How long a connection may take to send its request's headers, and the whole request: a client
 * that trickles them (to hold connections open by the thousand) is cut off, its connection closed
 * with 408. node:http checks them once a second.
 */
export const DEADLINES = { headersTimeout: 10_000, requestTimeout: 30_000, connectionsCheckingInterval: 1000 };

/** The process's own routes, for a load balancer and a scraper: neither takes a token. */
const HEALTH = "/_sandbox/health";
const METRICS = "/_sandbox/metrics";

export async function startSandbox(options: SandboxOptions = {}): Promise<RunningSandbox> {
  const host = options.host ?? "127.0.0.1";
  const runtime = await createRuntime(options);
  const edge = edgeOf(runtime, options);
  const keepAlive = options.keepAliveTimeoutMs === undefined ? {} : { keepAliveTimeout: options.keepAliveTimeoutMs };
  const server = createServer({ ...DEADLINES, ...keepAlive }, (req, res) => serve(edge, req, res));
  server.on("clientError", answerClientError);
  server.on("timeout", closeUnlessSpoken);
  let port: number;
  try {
    port = await bindPort(server, options.port ?? 4010, host);
  } catch (error) {
    await runtime.close();
    throw error;
  }
  const url = `http://${reachableHost(host)}:${port}`;
  runtime.start(url);
  let closed: Promise<void> | undefined;
  return {
    url,
    port,
    close: () =>
      (closed ??= runtime
        .drain()
        .then(() => stopServing(server))
        .then(() => runtime.close())),
  };
}

function serve(edge: Edge, req: IncomingMessage, res: ServerResponse) {
  const started = performance.now();
  const part = partOf(req);
  const { runtime } = edge;
  const { metrics } = runtime;
  if (metrics) res.once("close", () => metrics.request(part, res.statusCode, (performance.now() - started) / 1000));
  const answered =
    part === "payment_page"
      ? handlePage(edge, req, res, urlOf(req))
      : part === "dashboard"
        ? handleDashboard(edge, req, res, urlOf(req))
        : part === "health"
          ? answerHealth(runtime, res)
          : part === "metrics"
            ? answerMetrics(runtime, res)
            : handleRequest(edge, req, res);
  // The runtime answers every failure of a call; what is left is this process's own HTTP failing.
  answered.catch((error: unknown) => {
    if (res.headersSent || res.destroyed) return void res.destroy();
    console.error(`payin-sandbox: ${(error as Error).stack ?? error}`);
    sendJson(res, 500, JSON.stringify(problem(500, "internal_error", "The sandbox failed to answer this request.")));
  });
}

/** The request's URL, parsed for the pages, which read its query: the operations route on the path alone, and need none made. */
const urlOf = (req: IncomingMessage) => new URL(req.url!, "http://sandbox");

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

/**
 * A kept-alive connection's idle timer has fired (the only socket timeout this server sets):
 * closed, unless the client has spoken on it meanwhile. node:http would close it at once, but on a
 * loaded machine the timer runs late, in the loop's timers phase, before its poll phase reads what
 * came in: a request sent well within the keep-alive still sits unread in the kernel, and closing
 * a socket with unread bytes sends the client a reset (ECONNRESET, "fetch failed") for a request
 * it had every right to send. An immediate runs after that poll: a request read by then is served
 * (node:http has taken the timer off), and a connection still silent is closed as before.
 */
function closeUnlessSpoken(socket: Socket) {
  const read = socket.bytesRead;
  setImmediate(() => {
    if (socket.bytesRead === read) socket.destroy();
  });
}

/** Stops listening and ends every connection, those waiting for an answer too. */
function stopServing(server: Server): Promise<void> {
  return new Promise((resolve) => {
    server.close(() => resolve());
    server.closeAllConnections();
  });
}

/** The host a link can name for the interface the sandbox listens on: loopback for "every interface". */
function reachableHost(host: string): string {
  if (host === "0.0.0.0") return "127.0.0.1";
  if (host === "::" || host === "[::]") return "[::1]";
  return host.includes(":") && !host.startsWith("[") ? `[${host}]` : host;
}
