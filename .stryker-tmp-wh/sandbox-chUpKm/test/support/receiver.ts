// @ts-nocheck
import { createServer } from "node:http";
import { verifyWebhook, WebhookVerificationError, type PayinEvent } from "../../src/webhooks/index.ts";

export interface Receiver {
  url: string;
  /** Events that verified, in arrival order (a retried delivery appears once per accepted attempt). */
  events: PayinEvent[];
  /** Every attempt: its webhook-id and the status answered. */
  attempts: Array<{ id: string | undefined; status: number }>;
  close(): Promise<void>;
}

/**
 * A merchant endpoint on loopback that verifies every delivery with verifyWebhook, answering
 * 204 when it verifies and the problem of the rejection otherwise. `failFirst` answers 500 to
 * that many attempts first, to exercise retries.
 */
export async function startReceiver(secret: string, { failFirst = 0 } = {}): Promise<Receiver> {
  const events: PayinEvent[] = [];
  const attempts: Receiver["attempts"] = [];
  let toFail = failFirst;
  const server = createServer(async (req, res) => {
    const chunks: Buffer[] = [];
    for await (const chunk of req) chunks.push(chunk as Buffer);
    const id = req.headers["webhook-id"] as string | undefined;
    let status = 204;
    let body = "";
    if (toFail > 0) {
      toFail--;
      status = 500;
    } else {
      try {
        events.push(await verifyWebhook(Buffer.concat(chunks), req.headers, secret));
      } catch (error) {
        if (!(error instanceof WebhookVerificationError)) throw error;
        const problem = error.toProblem();
        status = problem.status;
        body = JSON.stringify(problem);
      }
    }
    attempts.push({ id, status });
    res.writeHead(status, body ? { "Content-Type": "application/problem+json" } : {}).end(body);
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as { port: number };
  return {
    url: `http://127.0.0.1:${port}/webhooks/payins`,
    events,
    attempts,
    close: () => new Promise((resolve) => server.close(() => resolve())),
  };
}
