// A merchant's webhook endpoint on loopback for the tests: it keeps every attempt as it came (raw
// body and headers, for other verifiers too), answers what `answer` says (204 by default; "hang"
// never answers, as a receiver that hangs would) and, given the signing secret, verifies each
// delivery it would accept with verifyWebhook, answering the rejection's problem when it fails.
import { createServer, type IncomingHttpHeaders } from "node:http";
import { verifyWebhook, WebhookVerificationError, type PayinEvent } from "../../src/webhooks/index.ts";

export interface ReceivedAttempt {
  id: string;
  type: string;
  method: string;
  headers: IncomingHttpHeaders;
  body: string;
  status: number;
}

export interface Receiver {
  url: string;
  attempts: ReceivedAttempt[];
  /** With a secret: the events that verified, in arrival order (a retried event once per accepted attempt). */
  events: PayinEvent[];
  /** The status for the next attempt (`n` counts from 1); "hang" never answers. */
  answer: (attempt: { id: string; type: string; n: number }) => number | "hang";
  /** Resolves once `count` attempts answered 2xx. */
  delivered(count: number, timeoutMs?: number): Promise<ReceivedAttempt[]>;
  close(): Promise<void>;
}

export async function startReceiver({ secret }: { secret?: string } = {}): Promise<Receiver> {
  const attempts: ReceivedAttempt[] = [];
  const events: PayinEvent[] = [];
  let waiters: Array<() => void> = [];
  const server = createServer(async (req, res) => {
    const chunks: Buffer[] = [];
    for await (const chunk of req) chunks.push(chunk as Buffer);
    const raw = Buffer.concat(chunks);
    const body = raw.toString("utf8");
    const id = String(req.headers["webhook-id"]);
    const type = String((parsed(body) as { type?: unknown } | undefined)?.type);
    let status = receiver.answer({ id, type, n: attempts.length + 1 });
    if (status === "hang") return;
    let answer = "";
    if (secret !== undefined && status >= 200 && status < 300) {
      try {
        events.push(await verifyWebhook(raw, req.headers, secret));
      } catch (error) {
        if (!(error instanceof WebhookVerificationError)) throw error;
        const problem = error.toProblem();
        [status, answer] = [problem.status, JSON.stringify(problem)];
      }
    }
    attempts.push({ id, type, method: req.method!, headers: req.headers, body, status });
    res.writeHead(status, answer ? { "Content-Type": "application/problem+json" } : {}).end(answer);
    for (const wake of waiters) wake();
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const ok = () => attempts.filter((a) => a.status >= 200 && a.status < 300);
  const receiver: Receiver = {
    url: `http://127.0.0.1:${(server.address() as { port: number }).port}/webhooks/payin`,
    attempts,
    events,
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
  return receiver;
}

function parsed(body: string): unknown {
  try {
    return JSON.parse(body);
  } catch {
    return undefined;
  }
}
