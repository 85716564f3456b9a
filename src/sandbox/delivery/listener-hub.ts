// payin-listen's side of the sandbox (decision D23): a transport that hands an account's
// deliveries to the listener connected to it, wherever it is connected, and brings back the
// answer its local endpoint gave; without a listener, the registered URL's transport carries
// them. The listener's connection is held by one process (its lease in the listeners table);
// a delivery made by another, and the answer the listener posts to any, travel on the
// database's channel (NOTIFY on PostgreSQL, in process on SQLite).
import { randomUUID } from "node:crypto";
import { every } from "../../lib/clock.ts";
import { newId } from "../../lib/ids.ts";
import { reportUnlessUnavailable } from "../store/database.ts";
import type { Store } from "../store/index.ts";
import { EventQueue } from "./event-queue.ts";
import type { Transport, TransportResult, WebhookRequest } from "./transport.ts";

const CHANNEL = "payin_listen";
/** A listener's lease: the process holding its connection renews it, and one that dies leaves it to run out. */
const LEASE_MS = 6000;
const RENEW_MS = 2000;
/** A comment line now and then keeps a proxy from closing a stream it sees idle. */
const PING_EVERY = 5;
/** Beyond the receiver's own timeout: the listener's report of it travels back. */
const ANSWER_GRACE_MS = 5000;
const GONE = "The listener disconnected before it answered.";

/** One event of a listener's stream: its name and its JSON data. */
export interface ListenerEvent {
  event: "ready" | "delivery" | "end";
  data: object;
}

/** A delivery as its listener gets it: the request to pass on to its endpoint, and the id to answer it by. */
type Delivery = Omit<WebhookRequest, "accountId" | "url" | "listening"> & { delivery_id: string };

type Message =
  | { kind: "deliver"; process: string; connection: string; accountId: number; delivery: Delivery }
  | { kind: "answer"; delivery: string; accountId: number; result: TransportResult };

interface Connection {
  accountId: number;
  events: EventQueue<ListenerEvent | string>;
  /** The deliveries sent on it and not answered here yet: failed when it ends (one answered elsewhere fails no one). */
  open: Set<string>;
}

export class ListenerHub implements Transport {
  readonly timeoutMs: number;
  readonly #store: Store;
  readonly #http: Transport;
  readonly #process = randomUUID();
  readonly #connections = new Map<string, Connection>();
  /** The attempts this process waits on, by delivery id: their answer may come from any process. */
  readonly #waiting = new Map<string, { accountId: number; answered: (result: TransportResult) => void }>();
  #unsubscribe: (() => Promise<void>) | undefined;
  #stopRenewing: (() => void) | undefined;
  #beats = 0;

  /** `http` carries the deliveries of an account with no listener connected. */
  constructor(store: Store, http: Transport) {
    this.#store = store;
    this.#http = http;
    this.timeoutMs = http.timeoutMs + ANSWER_GRACE_MS;
  }

  async start() {
    this.#unsubscribe = await this.#store.subscribe(CHANNEL, (text) => this.#hear(JSON.parse(text) as Message));
    this.#stopRenewing = every(this.#store.clock, RENEW_MS, () => this.#renew().catch(reportUnlessUnavailable));
  }

  async close() {
    this.#stopRenewing?.();
    // A process that stops (a deploy, a drain) sends its listeners elsewhere: they connect again, through the balancer.
    for (const [id] of this.#connections)
      await this.#end(id, "This sandbox process is stopping.", { reconnect: true }).catch(reportUnlessUnavailable);
    await this.#unsubscribe?.();
  }

  /**
   * Connects a listener to the account: it takes the account's deliveries from now on (one that
   * was connected is ended), the events that waited for somewhere to go are due, and its stream
   * starts with the secret every delivery is signed with.
   */
  async connect(accountId: number, forwardTo: string | null, nowMs: number): Promise<AsyncIterable<ListenerEvent | string>> {
    const id = randomUUID();
    const connection: Connection = {
      accountId,
      events: new EventQueue(() => void this.#end(id).catch(reportUnlessUnavailable)),
      open: new Set(),
    };
    const secret = await this.#store.transaction(async () => {
      const secret = await this.#store.webhooks.secret(accountId, nowMs);
      await this.#store.listeners.hold(accountId, this.#process, id, forwardTo, this.#store.clock.now() + LEASE_MS);
      await this.#store.outbox.release(accountId);
      return secret;
    });
    for (const [other, held] of this.#connections)
      if (held.accountId === accountId) await this.#end(other, "Another listener connected to this account.");
    this.#connections.set(id, connection);
    connection.events.push({ event: "ready", data: { signing_secret: secret, ...(forwardTo ? { forward_to: forwardTo } : {}) } });
    return connection.events;
  }

  /** The listener's answer to a delivery, from whichever process it reached: to the process that waits for it. */
  async answer(accountId: number, delivery: string, result: TransportResult) {
    const message: Message = { kind: "answer", delivery, accountId, result };
    this.#answered(accountId, delivery);
    if (this.#waiting.has(delivery)) this.#hear(message);
    else await this.#store.notify(CHANNEL, JSON.stringify(message));
  }

  async send(request: WebhookRequest, signal: AbortSignal): Promise<TransportResult> {
    const listener = request.listening ? await this.#store.listeners.active(request.accountId) : undefined;
    if (!listener) return this.#http.send(request, signal);
    const { accountId, url: _, listening: __, ...signed } = request;
    const delivery = { ...signed, delivery_id: newId("dlv") };
    const to = listener.forward_to ?? "urn:payin:listener";
    const answered = new Promise<TransportResult>((resolve) => {
      const cancel = this.#store.clock.setTimer(this.timeoutMs, () =>
        done({ error: `No answer from the listener within ${this.timeoutMs / 1000} s.` }),
      );
      const gone = () => done({ error: GONE });
      const done = (result: TransportResult) => {
        cancel();
        // The signal is the dispatcher's, for the life of the process: a listener left on it would keep the delivery.
        signal.removeEventListener("abort", gone);
        this.#waiting.delete(delivery.delivery_id);
        resolve(result);
      };
      signal.addEventListener("abort", gone, { once: true });
      this.#waiting.set(delivery.delivery_id, { accountId, answered: done });
    });
    const message: Message = {
      kind: "deliver",
      process: listener.process,
      connection: listener.connection,
      accountId,
      delivery,
    };
    if (listener.process === this.#process) this.#hear(message);
    else await this.#store.notify(CHANNEL, JSON.stringify(message));
    return { ...(await answered), to };
  }

  #hear(message: Message) {
    if (message.kind === "answer") {
      this.#answered(message.accountId, message.delivery);
      const waiting = this.#waiting.get(message.delivery);
      if (waiting?.accountId === message.accountId) waiting.answered(message.result);
      return;
    }
    if (message.process !== this.#process) return;
    const connection = this.#connections.get(message.connection);
    if (!connection) {
      void this.answer(message.accountId, message.delivery.delivery_id, { error: GONE }).catch(reportUnlessUnavailable);
      return;
    }
    connection.open.add(message.delivery.delivery_id);
    connection.events.push({ event: "delivery", data: message.delivery });
  }

  /** A delivery answered, wherever the answer came: no connection of its account owes it any more. */
  #answered(accountId: number, delivery: string) {
    for (const connection of this.#connections.values()) if (connection.accountId === accountId) connection.open.delete(delivery);
  }

  /** Renews the lease of each connection held here; one another listener took over is ended. */
  async #renew() {
    const ping = ++this.#beats % PING_EVERY === 0;
    for (const [id, connection] of this.#connections) {
      const renewed = await this.#store.listeners.renew(connection.accountId, id, this.#store.clock.now() + LEASE_MS);
      if (!renewed) await this.#end(id, "Another listener connected to this account, or the account was reset.");
      else {
        // What was made while the lease was out waited for somewhere to go: it goes now, in each session's order.
        if (renewed === "revived") await this.#store.transaction(() => this.#store.outbox.release(connection.accountId));
        if (ping) connection.events.push(": ping\n\n");
      }
    }
  }

  /**
   * Ends a connection: its lease dropped, the deliveries it had not answered failed (and retried).
   * With `reconnect`, the listener is told to connect again (this process stops); otherwise it stops.
   */
  async #end(id: string, reason?: string, { reconnect = false } = {}) {
    const connection = this.#connections.get(id);
    if (!connection) return;
    this.#connections.delete(id);
    if (reason) connection.events.push({ event: "end", data: { reason, ...(reconnect ? { reconnect: true } : {}) } });
    connection.events.end();
    for (const delivery of [...connection.open]) await this.answer(connection.accountId, delivery, { error: GONE });
    await this.#store.listeners.drop(connection.accountId, id);
  }
}
