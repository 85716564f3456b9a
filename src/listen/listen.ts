// `listen()`: a hosted sandbox's webhooks on this machine (payin-listen, like `stripe listen`).
// Connects to the sandbox's listen stream as the account of the token, passes each delivery on to
// a local endpoint exactly as it came (the Standard Webhooks headers, signed with the account's
// secret, which it gives first), and reports the endpoint's answer back as the delivery's answer:
// the sandbox logs, retries and orders it as any endpoint's (decision D23). A dropped connection
// is made again, with a growing pause, and a sandbox that answers 429 or 503 is waited out (its
// Retry-After), both on the clock it is given; what was sent meanwhile waits in the sandbox. What
// the stream says is not trusted: a delivery passes on only the headers a delivery needs
// (delivery.ts), and one it cannot pass on is answered as failed, with a line, never the end of it.
import { pauseOn, systemClock, type Clock } from "../lib/clock.ts";
import { DELIVERY_TIMEOUT_MS } from "../lib/contract-facts.ts";
import { retryAfterMs } from "../retry.ts";
import { sendsInClear } from "./clear-text.ts";
import { deliveryOf, type Delivery } from "./delivery.ts";
import { serverEvents } from "./sse.ts";

export interface ListenOptions {
  /** The sandbox. */
  baseUrl: string;
  /** The bearer token of the account to listen to. */
  token: string;
  /** The local endpoint each delivery is passed on to. */
  forwardTo: string;
  /** Only these event types are passed on; the others are acknowledged here, unseen. All by default. */
  events?: readonly string[];
  /** Where its lines go: the secret, one per delivery, reconnections. Default console.log. */
  log?: (line: string) => void;
  /** Where it says that something the stream sent could not be passed on, a line each. Default console.error. */
  warn?: (line: string) => void;
  /** The clock its waits are on: a Retry-After, the pause before connecting again. The system's by default. */
  clock?: Clock;
  /** Send the token over http:// to a host other than loopback, where anyone on the way can read it. Refused unless true. */
  insecureHttp?: boolean;
  /**
   * How long the local endpoint has to answer, at most: each delivery has the sandbox's delivery timeout (the contract's
   * 15 s unless the sandbox was started with another), and a shorter one given here wins.
   */
  timeoutMs?: number;
}

export interface Listener {
  /** The account's signing secret, `whsec_…`: every delivery is signed with it. */
  secret: string;
  /** Resolves once the listener stops: closed, or another listener took the account over (its reason). */
  done: Promise<string>;
  close(): Promise<void>;
}

/** The sandbox refused to connect the listener, or cannot be reached: nothing will be delivered. */
export class ListenRefused extends Error {
  override readonly name = "ListenRefused";
  /** The sandbox's status, when it answered. */
  readonly status: number | undefined;
  /** How long its Retry-After asked to wait, when it said. */
  readonly retryAfterMs: number | undefined;
  constructor(message: string, status?: number, retryAfterMs?: number) {
    super(message);
    this.status = status;
    this.retryAfterMs = retryAfterMs;
  }
}

/** A sandbox (or its load balancer) that is busy or restarting: connect again later, as for a dropped connection. */
const transient = (status: number | undefined) => status === undefined || status === 429 || status >= 500;
/**
 * At the first connection, only a 429 or a 503 is tried again: a sandbox whose rate limit or database says not now, or a
 * load balancer with no process to send to, will take the listener shortly; anything else (a token refused, a server that
 * is no sandbox) will not.
 */
const unavailable = (error: unknown) => error instanceof ListenRefused && (error.status === 429 || error.status === 503);

/** The pauses between connections: the first, doubled after each failure up to the most. */
const FIRST_PAUSE_MS = 500;
const MAX_PAUSE_MS = 10_000;
/** The sandbox pings every 10 s: a stream silent for longer than this is dead (a laptop's sleep, a NAT that forgot it). */
const SILENCE_MS = 30_000;
/** How long the first connection may take to give the secret before the sandbox counts as unreachable. */
const READY_MS = 15_000;
/** The longest Retry-After waited out: a sandbox that asks for longer is tried again after this. */
const MAX_RETRY_AFTER_MS = 10 * 60_000;

/**
 * Connects, and resolves once the sandbox gave the secret; rejects with ListenRefused when it cannot connect at first,
 * unless the sandbox answers 503: that is tried again, with a growing pause, and each time said in one line.
 */
export async function listen(options: ListenOptions): Promise<Listener> {
  const base = options.baseUrl.replace(/\/+$/, "");
  if (sendsInClear(base) && !options.insecureHttp)
    throw new ListenRefused(
      `${base} is http:// to a host that is not loopback: the token would cross the network in clear. ` +
        "Use https://, or insecureHttp to send it anyway.",
    );
  const log = options.log ?? console.log;
  const warn = options.warn ?? console.error;
  const clock = options.clock ?? systemClock;
  const auth = { Authorization: `Bearer ${options.token}` };
  const stopping = new AbortController();
  let secret: ((value: string) => void) | undefined;
  const ready = new Promise<string>((resolve) => (secret = resolve));

  /** One connection's stream: resolves with why it ended (a takeover stops listening; anything else reconnects). */
  async function connection(): Promise<{ replaced?: string } | { busy: string }> {
    const url = `${base}/_sandbox/v1/listen?${new URLSearchParams({ forward_to: options.forwardTo })}`;
    // Its own abort: the listener's stop, or the stream's silence.
    const cut = new AbortController();
    const stop = () => cut.abort();
    stopping.signal.addEventListener("abort", stop, { once: true });
    let silence = setTimeout(stop, SILENCE_MS);
    try {
      return await read(url, cut.signal, () => {
        clearTimeout(silence);
        silence = setTimeout(stop, SILENCE_MS);
      });
    } finally {
      clearTimeout(silence);
      stopping.signal.removeEventListener("abort", stop);
    }
  }

  async function read(url: string, signal: AbortSignal, heard: () => void): Promise<{ replaced?: string } | { busy: string }> {
    const response = await fetch(url, { headers: { ...auth, Accept: "text/event-stream" }, signal });
    if (response.status !== 200) {
      const text = await response.text().catch(() => "");
      const detail = (() => {
        try {
          return (JSON.parse(text) as { detail?: string }).detail;
        } catch {
          return undefined;
        }
      })();
      const wait = retryAfterMs(response.headers.get("retry-after"), clock.now());
      throw new ListenRefused(
        `${base} answered ${response.status} to the listener${detail ? `: ${detail}` : ""}`,
        response.status,
        wait === undefined ? undefined : Math.min(wait, MAX_RETRY_AFTER_MS),
      );
    }
    if (!response.headers.get("content-type")?.startsWith("text/event-stream")) {
      await response.body?.cancel();
      throw new ListenRefused(`${base} answered 200, but not with a stream of events: is it a payin sandbox?`, 400);
    }
    // Node's web streams are async iterable; the DOM's types do not say so. Each chunk, pings too, is a sign of life.
    const body = response.body as unknown as AsyncIterable<Uint8Array>;
    const alive = (async function* () {
      for await (const chunk of body) {
        heard();
        yield chunk;
      }
    })();
    for await (const { event, data } of serverEvents(alive)) {
      let value: any;
      try {
        value = JSON.parse(data);
      } catch {
        warn(`payin-listen: ${base} sent a ${JSON.stringify(event.slice(0, 40))} event that is not JSON: ignored`);
        continue;
      }
      if (event === "ready") {
        if (typeof value?.signing_secret !== "string") {
          warn(`payin-listen: ${base} sent a ready event without a signing secret: ignored`);
          continue;
        }
        if (secret) secret(value.signing_secret);
        else log(`Connected again to ${base}.`);
        secret = undefined;
      } else if (event === "delivery")
        // Nothing a delivery holds ends the listener: what goes wrong with one is its line.
        void take(value).catch((error: Error) => warn(`payin-listen: a delivery from ${base} failed: ${error.message}`));
      // A process that stops sends its listener elsewhere; a newer listener, or a reset, ends it.
      else if (event === "end") return value?.reconnect ? { busy: String(value.reason) } : { replaced: String(value?.reason) };
    }
    return {};
  }

  /** Passes a delivery on, or answers one it cannot pass on as failed, saying why in one line. */
  async function take(data: unknown) {
    const delivery = deliveryOf(data);
    if ("why" in delivery) {
      warn(`payin-listen: a delivery from ${base} was not passed on: ${delivery.why}`);
      if (delivery.id !== undefined) await report(delivery.id, "?", "?", { error: `payin-listen did not pass it on: ${delivery.why}.` });
      return;
    }
    await pass(delivery);
  }

  /** Passes a delivery on to the local endpoint and reports its answer, or why there was none, to the sandbox. */
  async function pass(delivery: Delivery) {
    const { type } = delivery;
    const id = delivery.headers["webhook-id"]!;
    const started = performance.now();
    // The sandbox waits for the answer no longer than its own timeout (and a grace for the report to travel back).
    const timeoutMs = Math.min(options.timeoutMs ?? Infinity, delivery.timeoutMs ?? DELIVERY_TIMEOUT_MS);
    let answer: { status: number } | { error: string };
    if (options.events && !options.events.includes(type)) answer = { status: 204 };
    else {
      try {
        const response = await fetch(options.forwardTo, {
          method: "POST",
          headers: delivery.headers,
          body: delivery.body,
          redirect: "manual",
          signal: AbortSignal.any([stopping.signal, AbortSignal.timeout(timeoutMs)]),
        });
        await response.body?.cancel();
        answer = { status: response.status };
      } catch (error) {
        if (stopping.signal.aborted) return;
        const { name, cause, message } = error as Error & { cause?: Error & { code?: string } };
        const why = cause?.code ?? cause?.message ?? message;
        answer = { error: name === "TimeoutError" ? `No answer within ${timeoutMs / 1000} s.` : `The request failed: ${why}.` };
      }
    }
    const took = `${Math.round(performance.now() - started)} ms`;
    const outcome =
      options.events && !options.events.includes(type) ? "skipped (--events)" : "status" in answer ? String(answer.status) : answer.error;
    log(`${new Date().toISOString()}  ${type}  ${id}  ${outcome}  ${took}`);
    await report(delivery.id, type, id, answer);
  }

  /** Reports what became of a delivery to the sandbox. */
  async function report(deliveryId: string, type: string, id: string, answer: { status: number } | { error: string }) {
    // Not reported, the sandbox gives up waiting, fails the attempt and retries it: nothing is lost, and the line says so.
    const unreported = (why: string) => log(`${new Date().toISOString()}  ${type}  ${id}  answer not reported (${why}): it comes again`);
    await fetch(`${base}/_sandbox/v1/listen/deliveries/${encodeURIComponent(deliveryId)}`, {
      method: "POST",
      headers: { ...auth, "Content-Type": "application/json" },
      body: JSON.stringify(answer),
      signal: stopping.signal,
    }).then(
      async (response) => {
        await response.body?.cancel();
        if (!response.ok) unreported(`the sandbox answered ${response.status}`);
      },
      (error: Error) => stopping.signal.aborted || unreported((error.cause as Error)?.message ?? error.message),
    );
  }

  /** The first connection's outcome: the secret it gave, or why it gave none. */
  async function firstConnection(first: Promise<unknown>): Promise<{ value: string } | { error: Error }> {
    const refused = first.then(
      () => undefined,
      (error: unknown) => error,
    );
    let timer: NodeJS.Timeout | undefined;
    const slow = new Promise<{ error: Error }>((resolve) => {
      timer = setTimeout(
        () => resolve({ error: new ListenRefused(`${base} gave no signing secret within ${READY_MS / 1000} s: is it a payin sandbox?`) }),
        READY_MS,
      );
    });
    try {
      return await Promise.race([
        ready.then((value) => ({ value })),
        refused.then((error) => ({
          error: (error ?? new ListenRefused(`${base} ended the stream before it gave a signing secret.`)) as Error,
        })),
        slow,
      ]);
    } finally {
      clearTimeout(timer);
    }
  }

  /** Says that it connects again in `pauseMs`, and why. */
  const again = (why: string, pauseMs: number) => log(`${why.replace(/\.$/, "")}; connecting again in ${pauseMs / 1000} s.`);
  /** The wait before connecting again: what the sandbox's Retry-After asked for, or the pause. */
  const waitFor = (error: unknown, pauseMs: number) => (error instanceof ListenRefused ? error.retryAfterMs : undefined) ?? pauseMs;

  // The first connection says whether the sandbox takes the listener at all; a 429 or a 503 says not yet.
  let first = connection();
  for (let pauseMs = FIRST_PAUSE_MS; ; pauseMs = Math.min(pauseMs * 2, MAX_PAUSE_MS)) {
    const outcome = await firstConnection(first);
    if ("value" in outcome) break;
    if (!unavailable(outcome.error)) {
      stopping.abort();
      const error = outcome.error;
      throw error instanceof ListenRefused
        ? error
        : new ListenRefused(`${base} cannot be reached: ${(error.cause as Error)?.message ?? error.message}`);
    }
    const waitMs = waitFor(outcome.error, pauseMs);
    again(outcome.error.message, waitMs);
    await pauseOn(clock, waitMs);
    first = connection();
  }
  const signingSecret = await ready;
  log(`Ready! Your webhook signing secret is ${signingSecret} (deliveries go to ${options.forwardTo}; Ctrl-C to stop)`);

  const done = (async () => {
    let ended: { replaced?: string } | { busy: string; retryAfterMs?: number } = await first.catch(() => ({}));
    for (let pauseMs = FIRST_PAUSE_MS; !stopping.signal.aborted; pauseMs = Math.min(pauseMs * 2, MAX_PAUSE_MS)) {
      if ("replaced" in ended && ended.replaced) {
        log(`Stopped: ${ended.replaced}`);
        return ended.replaced;
      }
      const waitMs = ("retryAfterMs" in ended ? ended.retryAfterMs : undefined) ?? pauseMs;
      again("busy" in ended ? ended.busy : `The connection to ${base} was lost`, waitMs);
      await pauseOn(clock, waitMs, stopping.signal);
      if (stopping.signal.aborted) break;
      ended = await connection().then(
        (result) => {
          pauseMs = 250;
          return result;
        },
        (error: unknown) =>
          !(error instanceof ListenRefused)
            ? {}
            : transient(error.status)
              ? { busy: error.message, retryAfterMs: error.retryAfterMs }
              : { replaced: error.message },
      );
    }
    return "closed";
  })();

  return {
    secret: signingSecret,
    done,
    async close() {
      stopping.abort();
      await done;
    },
  };
}
