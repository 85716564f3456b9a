// The kit's webhook receiver: it keeps every delivery as it came (raw body, headers, when), and
// answers what `answer` says (204 unless told otherwise), so that checks can ask for a retry.
import { createServer, type IncomingHttpHeaders } from "node:http";
import { listen } from "../lib/listen.ts";

export interface Delivery {
  headers: IncomingHttpHeaders;
  body: string;
  receivedAtMs: number;
  /** The status the receiver answered. */
  status: number;
}

export interface Receiver {
  /** Where the target delivers: `--public-url` when given, else the receiver's own address. */
  url: string;
  deliveries: Delivery[];
  answer: (delivery: Omit<Delivery, "status">) => number;
  /** Resolves to the first delivery, past and to come, that `matches`; rejects after `timeoutMs`. */
  next(matches: (delivery: Delivery) => boolean, timeoutMs: number): Promise<Delivery>;
  close(): Promise<void>;
}

export async function startReceiver({ host = "127.0.0.1", port = 0, publicUrl }: { host?: string; port?: number; publicUrl?: string } = {}): Promise<Receiver> {
  const deliveries: Delivery[] = [];
  const waiters = new Set<() => void>();
  const server = createServer(async (req, res) => {
    const chunks: Buffer[] = [];
    for await (const chunk of req) chunks.push(chunk as Buffer);
    const arrived = { headers: req.headers, body: Buffer.concat(chunks).toString("utf8"), receivedAtMs: Date.now() };
    const status = receiver.answer(arrived);
    deliveries.push({ ...arrived, status });
    res.writeHead(status).end();
    for (const wake of waiters) wake();
  });
  const bound = await listen(server, port, host);
  const receiver: Receiver = {
    url: publicUrl ?? `http://${host.includes(":") ? `[${host}]` : host}:${bound}/payin-conformance/webhooks`,
    deliveries,
    answer: () => 204,
    next: (matches, timeoutMs) =>
      new Promise((resolve, reject) => {
        const check = () => {
          const found = deliveries.find(matches);
          if (!found) return;
          clearTimeout(timer);
          waiters.delete(check);
          resolve(found);
        };
        const timer = setTimeout(() => {
          waiters.delete(check);
          reject(new Error(`no such delivery within ${timeoutMs / 1000} s`));
        }, timeoutMs);
        waiters.add(check);
        check();
      }),
    close: () =>
      new Promise((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      }),
  };
  return receiver;
}
