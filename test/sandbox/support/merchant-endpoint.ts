// A webhook receiver on loopback for the sandbox's deliveries: it keeps every attempt as it
// came (raw body and headers, for other verifiers too), answers with what `answer` says (204
// by default), and can hold attempts unanswered, as a receiver that hangs would.
import { createServer, type IncomingHttpHeaders } from "node:http";

export interface ReceivedAttempt {
  id: string;
  type: string;
  method: string;
  headers: IncomingHttpHeaders;
  body: string;
  status: number;
}

export interface Endpoint {
  url: string;
  attempts: ReceivedAttempt[];
  /** The status for the next attempt; "hang" never answers. */
  answer: (attempt: { id: string; type: string; n: number }) => number | "hang";
  /** Resolves once `count` attempts answered 2xx. */
  delivered(count: number, timeoutMs?: number): Promise<ReceivedAttempt[]>;
  close(): Promise<void>;
}

export async function startEndpoint(): Promise<Endpoint> {
  const attempts: ReceivedAttempt[] = [];
  let waiters: Array<() => void> = [];
  const server = createServer(async (req, res) => {
    const chunks: Buffer[] = [];
    for await (const chunk of req) chunks.push(chunk as Buffer);
    const body = Buffer.concat(chunks).toString("utf8");
    const id = String(req.headers["webhook-id"]);
    const type = (JSON.parse(body) as { type: string }).type;
    const status = endpoint.answer({ id, type, n: attempts.length + 1 });
    if (status === "hang") return;
    attempts.push({ id, type, method: req.method!, headers: req.headers, body, status });
    res.writeHead(status).end();
    for (const wake of waiters) wake();
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const ok = () => attempts.filter((a) => a.status >= 200 && a.status < 300);
  const endpoint: Endpoint = {
    url: `http://127.0.0.1:${(server.address() as { port: number }).port}/webhooks/payin`,
    attempts,
    answer: () => 204,
    delivered: (count, timeoutMs = 10_000) =>
      new Promise((resolve, reject) => {
        const timer = setTimeout(() => reject(new Error(`${ok().length} of ${count} deliveries arrived: ${JSON.stringify(attempts.map((a) => [a.type, a.status]))}`)), timeoutMs);
        const check = () => {
          if (ok().length < count) return;
          clearTimeout(timer);
          waiters = waiters.filter((w) => w !== check);
          resolve(ok());
        };
        waiters.push(check);
        check();
      }),
    close: () =>
      new Promise((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      }),
  };
  return endpoint;
}
