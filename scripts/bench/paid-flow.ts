// One paid flow as a merchant's integration makes it, for the benches that count what a flow
// costs (cost.ts) and how flows queue (openloop.ts): create a counterparty and create a session,
// each with an Idempotency-Key, pay the session through `simulate`, and receive its five events
// (session-created, transaction-created, transaction-completed, session-completed, and
// transaction-settled once the settlement delay has passed) at an endpoint on loopback that
// answers 204. The client is node:http with kept-alive connections, the lightest there is: the
// load shares the machine with what it measures.
import { Agent, createServer, request } from "node:http";
import type { AddressInfo } from "node:net";

/** The events of a paid flow, the last one made by the settlement rather than by a request. */
export const FLOW_EVENTS = 5;
export const SETTLED = "transaction-settled";

export type Operation = "create counterparty" | "create session" | "simulate";
export const OPERATIONS: readonly Operation[] = ["create counterparty", "create session", "simulate"];

/** An endpoint that acknowledges every delivery at once, and tells who waits for a session's events when they are in. */
export interface Receiver {
  url: string;
  /** Deliveries received so far. */
  readonly received: number;
  /** Resolves once `count` events of the session have arrived (counted from the receiver's start). */
  events(sessionId: string, count: number): Promise<void>;
  /** How many events of the session have arrived. */
  count(sessionId: string): number;
  /** Each event's time to arrive, from its timestamp (taken in the transaction that committed it), in ms; settlements apart. */
  readonly delays: number[];
  close(): Promise<void>;
}

export async function startReceiver(): Promise<Receiver> {
  const bySession = new Map<string, number>();
  const waiting = new Map<string, { count: number; resolve: () => void }>();
  const delays: number[] = [];
  let received = 0;
  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on("data", (c: Buffer) => chunks.push(c));
    req.on("end", () => {
      const now = Date.now();
      res.writeHead(204).end();
      received++;
      const event = JSON.parse(Buffer.concat(chunks).toString()) as { type: string; timestamp: string; data: { session_id: string } };
      // A settlement waits for the sandbox's next look for due work (once a second) by design: not a delivery's delay.
      if (event.type !== SETTLED) delays.push(now - Date.parse(event.timestamp));
      const session = event.data.session_id;
      const count = (bySession.get(session) ?? 0) + 1;
      bySession.set(session, count);
      const waiter = waiting.get(session);
      if (waiter && count >= waiter.count) {
        waiting.delete(session);
        waiter.resolve();
      }
    });
  });
  server.keepAliveTimeout = 60_000;
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/webhooks`,
    get received() {
      return received;
    },
    events: (sessionId, count) =>
      (bySession.get(sessionId) ?? 0) >= count ? Promise.resolve() : new Promise((resolve) => waiting.set(sessionId, { count, resolve })),
    count: (sessionId) => bySession.get(sessionId) ?? 0,
    delays,
    close: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      }),
  };
}

export interface Answer {
  status: number;
  body: { id?: string };
  ms: number;
}

/** A client of one or more sandbox processes serving one sandbox: each request goes to the next in turn. */
export class FlowClient {
  readonly #urls: readonly string[];
  readonly #agent = new Agent({ keepAlive: true, maxSockets: 256 });
  #turn = 0;
  #keys = 0;
  /** Answers with a status of 500 or more, and requests that got no answer. */
  serverErrors = 0;
  /** What each of those was: the status and the problem's code and detail, or the request's error. */
  readonly errors: string[] = [];

  constructor(urls: readonly string[]) {
    this.#urls = urls;
  }

  call(token: string, route: string, body: unknown, headers: Record<string, string> = {}): Promise<Answer> {
    const json = JSON.stringify(body);
    const url = this.#urls[this.#turn++ % this.#urls.length]! + route;
    const sent = performance.now();
    return new Promise((resolve, reject) => {
      const req = request(
        url,
        {
          method: "POST",
          agent: this.#agent,
          headers: {
            Authorization: `Bearer ${token}`,
            "Content-Type": "application/json",
            "Content-Length": Buffer.byteLength(json),
            ...headers,
          },
        },
        (res) => {
          const chunks: Buffer[] = [];
          res.on("data", (c: Buffer) => chunks.push(c));
          res.on("end", () => {
            const ms = performance.now() - sent;
            const text = Buffer.concat(chunks).toString();
            if (res.statusCode! >= 500) {
              this.serverErrors++;
              this.errors.push(`${route}: ${res.statusCode} ${text.slice(0, 300)}`);
            }
            resolve({ status: res.statusCode!, body: text ? (JSON.parse(text) as { id?: string }) : {}, ms });
          });
        },
      );
      req.on("error", (error: NodeJS.ErrnoException) => {
        this.serverErrors++;
        this.errors.push(`${route}: no answer (${error.code ?? error.message})`);
        reject(error);
      });
      req.end(json);
    });
  }

  /** Registers the receiver for the account of `token`, so that its events are delivered. */
  async register(token: string, receiver: Receiver) {
    const answer = await this.call(token, "/webhooks", { url: receiver.url });
    if (answer.status >= 300) throw new Error(`register webhook answered ${answer.status}`);
  }

  /** A create with a fresh Idempotency-Key, as an integration that may retry sends it. */
  create(token: string, route: string, body: unknown) {
    return this.call(token, route, body, { "Idempotency-Key": `bench-${process.pid}-${++this.#keys}` });
  }

  close() {
    this.#agent.destroy();
  }
}

/** The three requests of a paid flow, each on its own (cost.ts counts them apart) and in order (paidFlow). */
export const steps = {
  "create counterparty": (client: FlowClient, token: string, n: number) =>
    client.create(token, "/api/v1/send/counterparties/", counterpartyBody(n)),
  "create session": (client: FlowClient, token: string, counterpartyId: string, n: number) =>
    client.create(token, "/api/v1/earn/payment-sessions/", {
      amount: 10,
      currency: "EUR",
      counterparty_id: counterpartyId,
      order_id: `order-${n}`,
      redirect_url: "https://shop.example.com/",
    }),
  simulate: (client: FlowClient, token: string, sessionId: string) =>
    client.call(token, `/_sandbox/v1/payment-sessions/${sessionId}/simulate`, { outcome: "pay" }),
};

/** The time each request of a flow took to its answer, in ms, for those that were made. */
export type Timings = Partial<Record<Operation, number>>;

/** The three requests of a paid flow in order, each timed; the session's id once paid (undefined when a step was refused). */
export async function paidFlow(client: FlowClient, token: string, n: number): Promise<{ sessionId?: string; timings: Timings }> {
  const timings: Timings = {};
  const counterparty = await steps["create counterparty"](client, token, n);
  timings["create counterparty"] = counterparty.ms;
  if (counterparty.status >= 300) return { timings };
  const session = await steps["create session"](client, token, counterparty.body.id!, n);
  timings["create session"] = session.ms;
  if (session.status >= 300) return { timings };
  const paid = await steps.simulate(client, token, session.body.id!);
  timings.simulate = paid.ms;
  return { sessionId: paid.status < 300 ? session.body.id : undefined, timings };
}

export const counterpartyBody = (n: number) => ({
  type: "INDIVIDUAL",
  payment_rail: "PAYIN",
  first_name: "Ana",
  last_name: "Li",
  email: `ana+${n}@example.com`,
  phone_number: `+346${String(n % 100_000_000).padStart(8, "0")}`,
});

export const percentile = (values: readonly number[], p: number) => {
  if (values.length === 0) return NaN;
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)]!;
};
