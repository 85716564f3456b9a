// Delivery over HTTP: a POST of the signed request to the URL the account registered, answered
// by the receiver's status within the timeout, never following a redirect. The timeout bounds
// the whole attempt, the host's look-up and a second connection included, so that one account's
// slow DNS delays no other's attempt and no attempt outlives its claim. Embedded, loopback hosts
// only, unless other hosts are allowed (decision D21): a sandbox run in CI reaches no one by
// mistake. Hosted (other hosts allowed), no address of the sandbox's own network, loopback
// included, unless its network is allowed (destinations.ts). Embedded, the answer's first bytes
// come back with its status, for the dashboard; hosted, its status only (D21): a sandbox anyone
// may sign up to must not read other hosts' answers for them.
import http, { type OutgoingHttpHeaders } from "node:http";
import https from "node:https";
import { systemClock, timeoutSignal, type Clock } from "../../lib/clock.ts";
import { DELIVERY_TIMEOUT_MS } from "../../lib/contract-facts.ts";
import { isIP, type Socket } from "node:net";
import { isLoopbackHost } from "../flow/urls.ts";
import { Destinations, NOT_PUBLIC } from "./destinations.ts";
import { FIRST_BYTES, type Transport, type TransportResult, type WebhookRequest } from "./transport.ts";

// node:http's client with connections kept alive, rather than fetch: a third of the cost per
// delivery here.
const clients = {
  "http:": { request: http.request, agent: new http.Agent({ keepAlive: true }), tls: {} },
  "https:": { request: https.request, agent: new https.Agent({ keepAlive: true }), tls: {} },
} as const;
// A test's receiver on this machine has a self-signed certificate, and nothing between two
// loopback processes can pose as it: its certificate is not checked (D21). Every other host's is.
const loopbackTls = {
  request: https.request,
  agent: new https.Agent({ keepAlive: true, rejectUnauthorized: false }),
  tls: { rejectUnauthorized: false },
};

/** A kept-alive connection the receiver had closed: the request failed before any byte of an answer came. */
class StaleConnection extends Error {
  override name = "StaleConnection";
}

/** Where to POST, what, and whether the answer's first bytes are kept. */
interface Post {
  target: URL;
  headers: OutgoingHttpHeaders;
  body: string;
  signal: AbortSignal;
  address: string | undefined;
  keepFirstBytes: boolean;
}

type Answer = { status: number; firstBytes?: string };

/**
 * POSTs the body and resolves to the status the receiver answers, with its body's first bytes
 * when they are kept (once that many came, or the body ended, or the attempt's deadline). On a
 * kept-alive connection that turns out closed, once more on a new one: the receiver closed it
 * while idle (its keep-alive timeout) as the request went, and so never saw it. Never after the
 * receiver began to answer, which may have acted on the request.
 */
async function post(request: Post): Promise<Answer> {
  try {
    return await postOn(request, false);
  } catch (error) {
    if (!(error instanceof StaleConnection)) throw error;
    return postOn(request, true);
  }
}

function postOn({ target, headers, body, signal, address, keepFirstBytes }: Post, fresh: boolean): Promise<Answer> {
  return new Promise((resolve, reject) => {
    /** The answer begun: its status, and its body's bytes read so far. */
    let answer: { status: number; read: Buffer[] } | undefined;
    const answered = () => {
      const { status, read } = answer!;
      resolve(keepFirstBytes ? { status, firstBytes: new TextDecoder().decode(Buffer.concat(read).subarray(0, FIRST_BYTES)) } : { status });
    };
    // POST /webhooks takes only https:// and loopback http:// URLs.
    const client =
      target.protocol === "https:" && isLoopbackHost(target.hostname) ? loopbackTls : clients[target.protocol as keyof typeof clients];
    const req = client.request(
      target,
      {
        method: "POST",
        headers: { ...headers, "Content-Length": Buffer.byteLength(body) },
        // A connection of its own, closed after: not one the pool might hand out stale again.
        agent: fresh ? false : client.agent,
        ...client.tls,
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
        answer = { status: res.statusCode!, read: [] };
        // Unread, the answer's body keeps its socket from going back to the pool, so the next delivery opens another
        // connection; what the receiver sees is the same.
        // Stryker disable next-line CallExpression: see above
        res.resume();
        if (!keepFirstBytes) return answered();
        let size = 0;
        const read = (chunk: Buffer) => {
          answer!.read.push(chunk);
          size += chunk.length;
          if (size >= FIRST_BYTES) done();
        };
        // Enough read, or all there was: the rest of the body flows on unread.
        const done = () => {
          res.off("data", read);
          answered();
        };
        res.on("data", read);
        res.once("end", done);
        // Cut short (the receiver closed, the deadline came): as far as it came.
        res.once("close", done);
        res.once("error", done);
      },
    );
    // What the connection had read before this request: anything more is the receiver's answer begun.
    let connection: { socket: Socket; bytesBefore: number } | undefined;
    req.once("socket", (socket) => {
      connection = { socket, bytesBefore: socket.bytesRead };
    });
    req.on("error", (error: NodeJS.ErrnoException) => {
      // The answer had begun (its body was being read when the deadline came): it stands, as far as it came.
      if (answer) return answered();
      const unanswered = connection !== undefined && connection.socket.bytesRead === connection.bytesBefore;
      const stale = req.reusedSocket && unanswered && (error.code === "ECONNRESET" || error.code === "EPIPE") && !signal.aborted;
      reject(stale ? new StaleConnection(error.message, { cause: error }) : error);
    });
    req.end(body);
  });
}

export interface HttpTransportSettings {
  /** How long an attempt may take, from its start: the look-up, the connection, a second one, and the receiver's answer. */
  timeoutMs?: number;
  /** Hosts outside loopback that may be delivered to; `*` for every host (decision D21). */
  allowedHosts?: readonly string[];
  /** Which addresses may be connected to once other hosts are allowed; by default none of the sandbox's own network. */
  destinations?: Destinations;
  /** The clock the timeout is measured on: the system's unless a test moves its own. */
  clock?: Clock;
}

export class HttpTransport implements Transport {
  readonly timeoutMs: number;
  readonly #allowedHosts: ReadonlySet<string>;
  readonly #destinations: Destinations;
  readonly #clock: Clock;

  constructor(settings: HttpTransportSettings = {}) {
    this.timeoutMs = settings.timeoutMs ?? DELIVERY_TIMEOUT_MS;
    this.#allowedHosts = new Set(settings.allowedHosts?.map((host) => host.toLowerCase()));
    this.#destinations = settings.destinations ?? new Destinations({ hosted: this.#allowedHosts.size > 0 });
    this.#clock = settings.clock ?? systemClock;
  }

  async send(request: WebhookRequest, signal: AbortSignal): Promise<TransportResult> {
    if (request.url === null) return { nowhere: true };
    const target = URL.parse(request.url);
    if (target === null) return { error: "Not sent: the registered URL is not one a client can reach." };
    const refusal = this.#refusal(target.hostname);
    if (refusal !== null) return { error: refusal };
    // The attempt's whole time is the timeout, whatever it waits on: the dispatcher's claim on the attempt, which another
    // process takes over once it lapses, is counted from it.
    const timeUp = timeoutSignal(this.#clock, this.timeoutMs);
    const ended = AbortSignal.any([signal, timeUp]);
    const within = `within ${this.timeoutMs / 1000} s`;
    // Hosted: an address written out is checked as it is; a name is resolved and checked here, before any connection.
    let address: string | undefined;
    const literal = unbracketed(target.hostname);
    if (this.#destinations.hosted && isIP(literal) && !this.#destinations.allows(literal))
      return { error: `Not sent: ${literal} is ${NOT_PUBLIC}` };
    if (this.#destinations.hosted && !isIP(literal)) {
      const checked = await this.#destinations.addressOf(target.hostname, request.accountId, ended);
      if (timeUp.aborted) return { error: `Not sent: ${target.hostname} could not be resolved ${within}.` };
      if ("refusal" in checked) return { error: checked.refusal };
      address = checked.address;
    }
    try {
      const { headers, body } = request;
      return await post({ target, headers, body, signal: ended, address, keepFirstBytes: !this.#destinations.hosted });
    } catch (caught) {
      if (timeUp.aborted) return { error: `No answer ${within}.` };
      const { code, message } = caught as { code?: string; message: string };
      return { error: `The request failed: ${code ?? message}.` };
    }
  }

  /** Why the sandbox makes no connection to `hostname` for its name, or null when it may (decision D21). */
  #refusal(hostname: string): string | null {
    if (this.#allowedHosts.has("*") || this.#allowedHosts.has(hostname)) return null;
    // Embedded, loopback is where the tests' receivers are; hosted, it is the sandbox's own machine (destinations.ts).
    if (isLoopbackHost(hostname) && !this.#destinations.hosted) return null;
    return this.#destinations.hosted
      ? `Not sent: ${hostname} is none of the hosts this sandbox was started to deliver to (--allow-webhook-host).`
      : `Not sent: the sandbox delivers only to loopback hosts unless started with --allow-webhook-host ${hostname}.`;
  }
}

const unbracketed = (hostname: string) => hostname.replace(/^\[|\]$/g, "");
