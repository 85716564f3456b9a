// payin-listen's side of the sandbox (decision D23): a transport that hands an account's
// deliveries to the listener connected to it, wherever it is connected, and brings back the
// answer its local endpoint gave; without a listener, the registered URL's transport carries
// them. The listener's connection is held by one process (its lease in the listeners table,
// renewed with every other lease that process holds, in one statement); a delivery made by
// another, and the answer the listener posts to any, travel on the database's channel (NOTIFY on
// PostgreSQL, in process on SQLite). A lease that ran out is not a listener gone: the account's
// events wait for its holder to renew it, so that a database away from every process for longer
// than a lease sends nothing to the URL while the listener is still connected; a holder that has
// renewed nothing for DEAD_AFTER_MS while the database answered is dead, and its rows are dropped.
//
// An answer costs the database nothing unless it is one a delivery waits for. A delivery's id is
// signed (an HMAC, with a key every process of the sandbox reads from the database once, at start)
// over its account, the time it was made and a random part: whichever process the answer reaches
// checks it in memory, and refuses one that is forged, another account's, or past the time anyone
// waits for it, with no statement and no message. Each delivery is taken once per process, and
// every process hears the answers taken elsewhere: a second answer is refused too. Only an answer
// taken travels on the channel, to the process that waits for it, and none is a transaction.
import { createHmac, randomBytes, randomUUID, timingSafeEqual } from "node:crypto";
import { every } from "../../lib/clock.ts";
import { reportUnlessUnavailable, type Subscription } from "../store/database.ts";
import type { Store } from "../store/index.ts";
import { EventQueue } from "./event-queue.ts";
import type { Transport, TransportResult, WebhookRequest } from "./transport.ts";

const CHANNEL = "payin_listen";
/** A listener's lease: the process holding its connection renews it; once it runs out, the account's events wait for that. */
const LEASE_MS = 6000;
const RENEW_MS = 2000;
/**
 * A holder that renewed nothing for this long is dead (its process died without a word): its rows are dropped, and its
 * accounts' events go to their URLs again. Judged only by a process that had its database all that time: after an outage
 * every lease has run out, and each holder renews its own once the database answers again.
 */
const DEAD_AFTER_MS = 30_000;
/** Every this many rounds: a comment line keeps a proxy from closing a stream it sees idle, and the dead holders' rows go. */
const PING_EVERY = 5;
/** Beyond the receiver's own timeout: the listener's report of it travels back. */
const ANSWER_GRACE_MS = 5000;
const GONE = "The listener disconnected before it answered.";
/** A delivery's id, after its prefix: when it was made (ms, 6 bytes), a random part, and the MAC of both with the account. */
const MADE_BYTES = 6;
const RANDOM_BYTES = 9;
const MAC_BYTES = 12;
/** The processes' clocks may differ by this much (kept in step by NTP): a delivery made by another is judged with it. */
const CLOCK_SKEW_MS = 1000;
/** The name of the key delivery ids are signed with, the same for every process of the sandbox. */
const KEY_NAME = "listener-deliveries";

/** What became of a listener's answer: taken, or refused as none of the account's waiting deliveries, or as answered already. */
export type AnswerTaken = "taken" | "unknown" | "answered";

/** One event of a listener's stream: its name and its JSON data. */
export interface ListenerEvent {
  event: "ready" | "delivery" | "end";
  data: object;
}

/**
 * A delivery as its listener gets it: the request to pass on to its endpoint, the id to answer it by, and how long the
 * endpoint has (this process's delivery timeout: the listener's report of it comes back within the grace).
 */
type Delivery = Omit<WebhookRequest, "accountId" | "url" | "listening"> & { delivery_id: string; timeout_ms: number };

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
  /** Connections ended whose row is still to drop (the database was away): each round tries again. */
  readonly #undropped = new Map<string, number>();
  /** The deliveries answered, here or elsewhere, until no one can wait for them any more, oldest first. */
  readonly #answeredIds = new Map<string, number>();
  /** The key delivery ids are signed with: read once, at start. */
  #key: Buffer | undefined;
  #channel: Subscription | undefined;
  #stopRenewing: (() => void) | undefined;
  #beats = 0;
  /** Since when this process's rounds have had the database, without a failure; undefined while they fail. */
  #upSince: number | undefined;

  /** `http` carries the deliveries of an account with no listener connected. */
  constructor(store: Store, http: Transport) {
    this.#store = store;
    this.#http = http;
    this.timeoutMs = http.timeoutMs + ANSWER_GRACE_MS;
  }

  async start() {
    this.#key = await this.#store.listeners.sharedKey(KEY_NAME);
    this.#channel = await this.#store.subscribe(CHANNEL, (text) => this.#hear(JSON.parse(text) as Message));
    this.#upSince = this.#store.clock.now();
    this.#stopRenewing = every(this.#store.clock, RENEW_MS, () => this.#round());
  }

  async close() {
    this.#stopRenewing?.();
    // A process that stops (a deploy, a drain) sends its listeners elsewhere: they connect again, through the balancer.
    for (const [id] of this.#connections)
      await this.#end(id, "This sandbox process is stopping.", { reconnect: true }).catch(reportUnlessUnavailable);
    await this.#channel?.close();
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

  /**
   * The listener's answer to a delivery, from whichever process it reached: taken, and sent to the process that waits for
   * it, only if the delivery is one this sandbox made for the account, within the time its attempt waits, and not answered
   * yet as far as this process knows. Nothing is written, and nothing sent for an answer refused.
   */
  async answerFromListener(accountId: number, delivery: string, result: TransportResult): Promise<AnswerTaken> {
    const madeAt = this.#madeAt(accountId, delivery);
    const now = this.#store.clock.now();
    if (madeAt === undefined || now - madeAt > this.timeoutMs + CLOCK_SKEW_MS || madeAt - now > CLOCK_SKEW_MS) return "unknown";
    if (this.#answeredIds.has(delivery)) return "answered";
    await this.#answer(accountId, delivery, result);
    return "taken";
  }

  /** An answer to a delivery (the listener's, or its failure when it went): to the process that waits for it. */
  async #answer(accountId: number, delivery: string, result: TransportResult) {
    const message: Message = { kind: "answer", delivery, accountId, result };
    this.#answered(accountId, delivery);
    if (this.#waiting.has(delivery)) this.#hear(message);
    else await this.#store.notify(CHANNEL, JSON.stringify(message));
  }

  /** A new delivery's id for the account: when it is made, a random part, and their MAC with the account's id. */
  #deliveryId(accountId: number): string {
    const body = Buffer.alloc(MADE_BYTES + RANDOM_BYTES);
    body.writeUIntBE(this.#store.clock.now(), 0, MADE_BYTES);
    randomBytes(RANDOM_BYTES).copy(body, MADE_BYTES);
    return `dlv_${Buffer.concat([body, this.#mac(accountId, body)]).toString("base64url")}`;
  }

  /** When the delivery was made, if its id is one this sandbox made for the account; undefined for any other text. */
  #madeAt(accountId: number, delivery: string): number | undefined {
    const text = delivery.startsWith("dlv_") ? delivery.slice(4) : "";
    const raw = Buffer.from(text, "base64url");
    // Only the one spelling of the bytes: another (base64url's lenient last character) would be a second id for one delivery.
    if (raw.length !== MADE_BYTES + RANDOM_BYTES + MAC_BYTES || raw.toString("base64url") !== text) return undefined;
    const body = raw.subarray(0, MADE_BYTES + RANDOM_BYTES);
    if (!timingSafeEqual(raw.subarray(MADE_BYTES + RANDOM_BYTES), this.#mac(accountId, body))) return undefined;
    return body.readUIntBE(0, MADE_BYTES);
  }

  #mac(accountId: number, body: Buffer): Buffer {
    return createHmac("sha256", this.#key!).update(`${accountId}:`).update(body).digest().subarray(0, MAC_BYTES);
  }

  async send(request: WebhookRequest, signal: AbortSignal): Promise<TransportResult> {
    // Without a listener row, as the claim read it, none is looked for: the URL's.
    const listener = request.listening ? await this.#store.listeners.held(request.accountId) : undefined;
    if (!listener) return this.#http.send(request, signal);
    // Its lease ran out, its holder yet to renew it: the event waits for it (or for its row to go with a dead holder),
    // rather than go to the URL while the listener may still be connected.
    if (!listener.live) return { nowhere: true };
    const { accountId, url: _, listening: __, ...signed } = request;
    const delivery = { ...signed, delivery_id: this.#deliveryId(accountId), timeout_ms: this.#http.timeoutMs };
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
      void this.#answer(message.accountId, message.delivery.delivery_id, { error: GONE }).catch(reportUnlessUnavailable);
      return;
    }
    connection.open.add(message.delivery.delivery_id);
    connection.events.push({ event: "delivery", data: message.delivery });
  }

  /**
   * A delivery answered, wherever the answer came: no connection of its account owes it any more, and another answer to it
   * is refused here until no one could wait for it.
   */
  #answered(accountId: number, delivery: string) {
    for (const connection of this.#connections.values()) if (connection.accountId === accountId) connection.open.delete(delivery);
    const now = this.#store.clock.now();
    for (const [id, until] of this.#answeredIds) {
      if (until > now) break;
      this.#answeredIds.delete(id);
    }
    this.#answeredIds.delete(delivery);
    this.#answeredIds.set(delivery, now + this.timeoutMs + 2 * CLOCK_SKEW_MS);
  }

  /**
   * Every RENEW_MS: the streams pinged now and then, whatever the database's state; the leases held here renewed; and,
   * once this process has had its database for DEAD_AFTER_MS, the rows of dead holders dropped.
   */
  async #round() {
    const beat = ++this.#beats % PING_EVERY === 0;
    if (beat) for (const connection of this.#connections.values()) connection.events.push(": ping\n\n");
    const now = this.#store.clock.now();
    try {
      await this.#renew(now + LEASE_MS);
      this.#upSince ??= now;
      if (beat && now - this.#upSince >= DEAD_AFTER_MS) await this.#dropDead(now - DEAD_AFTER_MS + LEASE_MS);
    } catch (error) {
      // Every lease runs out while the database is away; their holders renew them once it is back, and have
      // DEAD_AFTER_MS from then before this process takes any of them for dead.
      this.#upSince = undefined;
      reportUnlessUnavailable(error);
    }
  }

  /**
   * Renews every lease held here with one statement, and handles one by one the connections it did not renew: a lease
   * that ran out is renewed, and what waited for it goes now, in each session's order; one another listener took over
   * (or the account's reset dropped) is ended; one dropped while this process was away is sent to connect again. Then
   * the rows of connections ended while the database was away go.
   */
  async #renew(untilMs: number) {
    const renewed = await this.#store.listeners.renewAll(this.#process, untilMs);
    for (const [id, connection] of [...this.#connections]) {
      if (renewed.has(id) || !this.#connections.has(id)) continue;
      const revived = await this.#store.transaction(async () => {
        if (!(await this.#store.listeners.revive(connection.accountId, id, untilMs))) return false;
        await this.#store.outbox.release(connection.accountId);
        return true;
      });
      if (revived) continue;
      // Dropped as a dead holder's while this process was cut off from the database, and others were not: the
      // listener connects again, through the balancer, and takes the account back. Else it was replaced, or reset.
      if (this.#upSince === undefined && !(await this.#store.listeners.held(connection.accountId)))
        await this.#end(id, "This sandbox process was away from its database, and its hold on the listener was dropped.", {
          reconnect: true,
        });
      else await this.#end(id, "Another listener connected to this account, or the account was reset.");
    }
    for (const [id, accountId] of this.#undropped) await this.#drop(accountId, id);
  }

  /** Drops the rows of the leases that ran out by real time `ranOutByMs`: their accounts' events go to their URLs again. */
  async #dropDead(ranOutByMs: number) {
    await this.#store.transaction(async () => {
      for (const accountId of await this.#store.listeners.dropRunOut(ranOutByMs)) await this.#store.outbox.release(accountId);
    });
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
    this.#undropped.set(id, connection.accountId);
    for (const delivery of [...connection.open]) await this.#answer(connection.accountId, delivery, { error: GONE });
    await this.#drop(connection.accountId, id);
  }

  /** Drops the connection's row: the account's events that waited while its lease had run out go to its URL. */
  async #drop(accountId: number, id: string) {
    await this.#store.transaction(async () => {
      await this.#store.listeners.drop(accountId, id);
      await this.#store.outbox.release(accountId);
    });
    this.#undropped.delete(id);
  }
}
