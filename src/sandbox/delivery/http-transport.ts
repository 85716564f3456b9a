// Delivery over HTTP: a POST of the signed request to the URL the account registered, answered
// by the receiver's status within the timeout. Loopback hosts always, any other host only when
// allowed (decision D21): a sandbox run in CI reaches no one by mistake.
import http, { type OutgoingHttpHeaders } from "node:http";
import https from "node:https";
import { DELIVERY_TIMEOUT_MS } from "../../lib/contract-facts.ts";
import { isLoopbackHost } from "../flow/urls.ts";
import type { Transport, TransportResult, WebhookRequest } from "./transport.ts";

// node:http's client with connections kept alive, rather than fetch: a third of the cost per
// delivery here.
const clients = {
  "http:": { request: http.request, agent: new http.Agent({ keepAlive: true }) },
  "https:": { request: https.request, agent: new https.Agent({ keepAlive: true }) },
} as const;
// A test's receiver on this machine has a self-signed certificate, and nothing between two
// loopback processes can pose as it: its certificate is not checked (D21). Every other host's is.
const loopbackTls = { request: https.request, agent: new https.Agent({ keepAlive: true, rejectUnauthorized: false }) };

class TimeoutError extends Error {
  override name = "TimeoutError";
}

/** POSTs the body and resolves to the status the receiver answers, once its headers arrive. */
function post(url: string, headers: OutgoingHttpHeaders, body: string, timeoutMs: number, signal: AbortSignal): Promise<number> {
  return new Promise((resolve, reject) => {
    const target = new URL(url);
    // POST /webhooks takes only https:// and loopback http:// URLs.
    const client =
      target.protocol === "https:" && isLoopbackHost(target.hostname) ? loopbackTls : clients[target.protocol as keyof typeof clients];
    const req = client.request(
      target,
      { method: "POST", headers: { ...headers, "Content-Length": Buffer.byteLength(body) }, agent: client.agent, signal },
      (res) => {
        clearTimeout(timer);
        // Unread, the answer's body keeps its socket from going back to the pool, so the next delivery opens another
        // connection; what the receiver sees is the same.
        // Stryker disable next-line CallExpression: see above
        res.resume();
        resolve(res.statusCode!);
      },
    );
    const timer = setTimeout(() => req.destroy(new TimeoutError()), timeoutMs);
    req.on("error", (error) => {
      clearTimeout(timer);
      reject(error);
    });
    req.end(body);
  });
}

export interface HttpTransportSettings {
  /** How long a receiver has to answer. */
  timeoutMs?: number;
  /** Hosts outside loopback that may be delivered to; `*` for every host (decision D21). */
  allowedHosts?: readonly string[];
}

export class HttpTransport implements Transport {
  readonly timeoutMs: number;
  readonly #allowedHosts: ReadonlySet<string>;

  constructor(settings: HttpTransportSettings = {}) {
    this.timeoutMs = settings.timeoutMs ?? DELIVERY_TIMEOUT_MS;
    this.#allowedHosts = new Set(settings.allowedHosts?.map((host) => host.toLowerCase()));
  }

  async send(request: WebhookRequest, signal: AbortSignal): Promise<TransportResult> {
    if (request.url === null) return { nowhere: true };
    const refusal = this.#refusal(request.url);
    if (refusal !== null) return { error: refusal };
    try {
      return { status: await post(request.url, request.headers, request.body, this.timeoutMs, signal) };
    } catch (caught) {
      return { error: describe(caught, this.timeoutMs) };
    }
  }

  /** Why the sandbox makes no connection to `url`, or null when it may (decision D21). */
  #refusal(url: string): string | null {
    const hostname = URL.parse(url)?.hostname;
    if (hostname === undefined || isLoopbackHost(hostname) || this.#allowedHosts.has("*") || this.#allowedHosts.has(hostname)) return null;
    return `Not sent: the sandbox delivers only to loopback hosts unless started with --allow-webhook-host ${hostname}.`;
  }
}

function describe(error: unknown, timeoutMs: number): string {
  if ((error as Error).name === "TimeoutError") return `No answer within ${timeoutMs / 1000} s.`;
  const { code, message } = error as { code?: string; message: string };
  return `The request failed: ${code ?? message}.`;
}
