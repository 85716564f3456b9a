// A server that speaks the sandbox's listen stream as a forger would: it answers each connect as
// the test says (a status, with its Retry-After, or the stream), sends whatever events the test
// writes, byte for byte, and keeps every answer payin-listen posts back.
import { createServer, type ServerResponse } from "node:http";
import { bindPort } from "../../src/lib/bind-port.ts";

export interface ForgedStream {
  url: string;
  /** Each connect's answer, in turn: a status with its Retry-After, or the stream. The stream once they are used up. */
  connects: Array<{ status: number; retryAfter?: string }>;
  /** How many connects came. */
  readonly connected: number;
  /** Writes one event to the stream now open: `data` as it is, JSON or not. */
  send(event: string, data: string): void;
  /** Ends the stream now open, as a lost connection would. */
  drop(): void;
  /** Every answer posted back, by delivery id. */
  readonly answers: Array<{ id: string; answer: unknown }>;
  /** Resolves once `count` answers came. */
  answered(count: number): Promise<void>;
  close(): Promise<void>;
}

export async function startForgedStream(): Promise<ForgedStream> {
  let stream: ServerResponse | undefined;
  let connected = 0;
  const answers: ForgedStream["answers"] = [];
  const waiters = new Set<() => void>();
  const server = createServer(async (req, res) => {
    const url = new URL(req.url!, "http://forged");
    if (req.method === "GET" && url.pathname === "/_sandbox/v1/listen") {
      connected++;
      const refusal = forged.connects.shift();
      if (refusal) {
        const headers = {
          "content-type": "application/problem+json",
          ...(refusal.retryAfter ? { "retry-after": refusal.retryAfter } : {}),
        };
        res.writeHead(refusal.status, headers).end(JSON.stringify({ status: refusal.status, detail: "Not now." }));
        return;
      }
      res.writeHead(200, { "content-type": "text/event-stream", "cache-control": "no-store" });
      res.write("event: ready\ndata: " + JSON.stringify({ signing_secret: "whsec_Zm9yZ2VkIHN0cmVhbSBzZWNyZXQgMTIzNDU2Nzg=" }) + "\n\n");
      stream = res;
      return;
    }
    const answered = /^\/_sandbox\/v1\/listen\/deliveries\/(.+)$/.exec(url.pathname);
    if (req.method === "POST" && answered) {
      const chunks: Buffer[] = [];
      for await (const chunk of req) chunks.push(chunk as Buffer);
      answers.push({ id: decodeURIComponent(answered[1]!), answer: JSON.parse(Buffer.concat(chunks).toString()) });
      res.writeHead(204).end();
      for (const wake of waiters) wake();
      return;
    }
    res.writeHead(404).end();
  });
  const port = await bindPort(server, 0, "127.0.0.1");
  const forged: ForgedStream = {
    url: `http://127.0.0.1:${port}`,
    connects: [],
    get connected() {
      return connected;
    },
    send: (event, data) => void stream!.write(`event: ${event}\ndata: ${data}\n\n`),
    drop: () => {
      stream?.destroy();
      stream = undefined;
    },
    answers,
    answered: (count) =>
      new Promise((resolve) => {
        const check = () => {
          if (answers.length < count) return;
          waiters.delete(check);
          resolve();
        };
        waiters.add(check);
        check();
      }),
    close: () =>
      new Promise((resolve) => {
        stream?.destroy();
        server.close(() => resolve());
        server.closeAllConnections();
      }),
  };
  return forged;
}
