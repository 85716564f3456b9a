// The kit's webhook receiver: it keeps every delivery as it came (method, raw body, headers,
// when) with the status it answered, which `answer` decides (204 unless told otherwise; "hang"
// never answers, as a receiver that hangs would), so that checks can ask for a retry. Given a
// key and certificate, it listens with TLS: its URL is then `https://`. When a delivery came and
// how long a wait for one lasts are its clock's, the kit's.
import { createServer, type IncomingHttpHeaders, type RequestListener } from "node:http";
import { createServer as createTlsServer } from "node:https";
import { bindPort } from "../lib/bind-port.ts";
import { systemClock, type Clock } from "../lib/clock.ts";

export interface Arrival {
  method: string;
  headers: IncomingHttpHeaders;
  body: string;
  receivedAtMs: number;
}

export interface Delivery extends Arrival {
  /** The status the receiver answered. */
  status: number;
}

export interface Receiver {
  /** Where the target delivers: `--public-url` when given, else the receiver's own address. */
  url: string;
  /** Every delivery answered, in the order they were. */
  deliveries: Delivery[];
  answer: (arrival: Arrival) => number | "hang" | Promise<number | "hang">;
  /** Resolves to what `found` gives once it gives something (checked on every delivery); rejects after `timeoutMs`. */
  until<T>(found: () => T | undefined, timeoutMs: number): Promise<T>;
  /** Resolves to the first delivery, past and to come, that `matches`; rejects after `timeoutMs`. */
  next(matches: (delivery: Delivery) => boolean, timeoutMs: number): Promise<Delivery>;
  close(): Promise<void>;
}

export async function startReceiver({
  host = "127.0.0.1",
  port = 0,
  publicUrl,
  tls,
  clock = systemClock,
}: {
  host?: string;
  port?: number;
  publicUrl?: string;
  tls?: { key: string; cert: string };
  clock?: Clock;
} = {}): Promise<Receiver> {
  const deliveries: Delivery[] = [];
  const waiters = new Set<() => void>();
  const listener: RequestListener = async (req, res) => {
    const chunks: Buffer[] = [];
    for await (const chunk of req) chunks.push(chunk as Buffer);
    const arrival: Arrival = {
      method: req.method!,
      headers: req.headers,
      body: Buffer.concat(chunks).toString("utf8"),
      receivedAtMs: clock.now(),
    };
    const status = await receiver.answer(arrival);
    if (status === "hang") return;
    deliveries.push({ ...arrival, status });
    res.writeHead(status).end();
    for (const wake of waiters) wake();
  };
  const server = tls ? createTlsServer(tls, listener) : createServer(listener);
  const bound = await bindPort(server, port, host);
  const receiver: Receiver = {
    url: publicUrl ?? `${tls ? "https" : "http"}://${host.includes(":") ? `[${host}]` : host}:${bound}/payin-conformance/webhooks`,
    deliveries,
    answer: () => 204,
    until: (found, timeoutMs) =>
      new Promise((resolve, reject) => {
        const check = () => {
          const result = found();
          if (result === undefined) return;
          cancel();
          waiters.delete(check);
          resolve(result);
        };
        const cancel = clock.setTimer(timeoutMs, () => {
          waiters.delete(check);
          reject(new Error(`not within ${timeoutMs / 1000} s`));
        });
        waiters.add(check);
        check();
      }),
    next: (matches, timeoutMs) => receiver.until(() => deliveries.find(matches), timeoutMs),
    close: () =>
      new Promise((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      }),
  };
  return receiver;
}
