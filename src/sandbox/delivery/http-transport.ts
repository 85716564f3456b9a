// Delivery over HTTP: a POST of the signed request to the URL the account registered, answered
// by the receiver's status within the timeout, never following a redirect. Embedded, loopback
// hosts only, unless other hosts are allowed (decision D21): a sandbox run in CI reaches no one
// by mistake. Hosted (other hosts allowed), no address of the sandbox's own network, loopback
// included, unless its network is allowed (destinations.ts).
import http, { type OutgoingHttpHeaders } from "node:http";
import https from "node:https";
import { DELIVERY_TIMEOUT_MS } from "../../lib/contract-facts.ts";
import { isIP } from "node:net";
import { isLoopbackHost } from "../flow/urls.ts";
import { Destinations, NOT_PUBLIC } from "./destinations.ts";
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
function post(
  url: string,
  headers: OutgoingHttpHeaders,
  body: string,
  timeoutMs: number,
  signal: AbortSignal,
  address: string | undefined,
): Promise<number> {
  return new Promise((resolve, reject) => {
    const target = new URL(url);
    // POST /webhooks takes only https:// and loopback http:// URLs.
    const client =
      target.protocol === "https:" && isLoopbackHost(target.hostname) ? loopbackTls : clients[target.protocol as keyof typeof clients];
    const req = client.request(
      target,
      {
        method: "POST",
        headers: { ...headers, "Content-Length": Buffer.byteLength(body) },
        agent: client.agent,
        signal,
        // To the address checked for the name, and to no other it might resolve to now: the name stays the Host and the TLS name.
        ...(address
          ? {
              hostname: address,
              host: address,
              servername: target.hostname,
              headers: { ...headers, Host: target.host, "Content-Length": Buffer.byteLength(body) },
            }
          : {}),
      },
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
  /** Which addresses may be connected to once other hosts are allowed; by default none of the sandbox's own network. */
  destinations?: Destinations;
}

export class HttpTransport implements Transport {
  readonly timeoutMs: number;
  readonly #allowedHosts: ReadonlySet<string>;
  readonly #destinations: Destinations;

  constructor(settings: HttpTransportSettings = {}) {
    this.timeoutMs = settings.timeoutMs ?? DELIVERY_TIMEOUT_MS;
    this.#allowedHosts = new Set(settings.allowedHosts?.map((host) => host.toLowerCase()));
    this.#destinations = settings.destinations ?? new Destinations({ hosted: this.#allowedHosts.size > 0 });
  }

  async send(request: WebhookRequest, signal: AbortSignal): Promise<TransportResult> {
    if (request.url === null) return { nowhere: true };
    const refusal = this.#refusal(request.url);
    if (refusal !== null) return { error: refusal };
    // Hosted: an address written out is checked as it is; a name is resolved and checked here, before any connection.
    const hosted = this.#destinations.hosted;
    const literal = hosted ? unbracketed(new URL(request.url).hostname) : "";
    if (isIP(literal) && !this.#destinations.allows(literal)) return { error: `Not sent: ${literal} is ${NOT_PUBLIC}` };
    const checked = hosted && !isIP(literal) ? await this.#destinations.addressOf(new URL(request.url).hostname) : undefined;
    if (checked && "refusal" in checked) return { error: checked.refusal };
    try {
      return { status: await post(request.url, request.headers, request.body, this.timeoutMs, signal, checked?.address) };
    } catch (caught) {
      return { error: describe(caught, this.timeoutMs) };
    }
  }

  /** Why the sandbox makes no connection to `url` for its host's name, or null when it may (decision D21). */
  #refusal(url: string): string | null {
    const hostname = URL.parse(url)?.hostname;
    if (hostname === undefined || this.#allowedHosts.has("*") || this.#allowedHosts.has(hostname)) return null;
    // Embedded, loopback is where the tests' receivers are; hosted, it is the sandbox's own machine (destinations.ts).
    if (isLoopbackHost(hostname) && !this.#destinations.hosted) return null;
    return this.#destinations.hosted
      ? `Not sent: ${hostname} is none of the hosts this sandbox was started to deliver to (--allow-webhook-host).`
      : `Not sent: the sandbox delivers only to loopback hosts unless started with --allow-webhook-host ${hostname}.`;
  }
}

const unbracketed = (hostname: string) => hostname.replace(/^\[|\]$/g, "");

function describe(error: unknown, timeoutMs: number): string {
  if ((error as Error).name === "TimeoutError") return `No answer within ${timeoutMs / 1000} s.`;
  const { code, message } = error as { code?: string; message: string };
  return `The request failed: ${code ?? message}.`;
}
