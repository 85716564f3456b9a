// A merchant's webhook endpoint that fetches the transaction of every transaction event, run in a
// process of its own (a crash must take it down, as it would a merchant's), with one of the
// commonest bugs of the field switched on, or none. Started by processing-failures.test.ts:
//   node fetching-endpoint.ts FLAW|correct SECRET BASE_URL TOKEN
// prints `listening on URL`. The receiver checks of the endpoint's own failures are proven on it.
import { createServer } from "node:http";
import { createPayinClient } from "../../src/index.ts";
import { verifyWebhook, WebhookVerificationError } from "../../src/webhooks/index.ts";

export const PROCESSING_FLAWS = [
  // Checks and records the event id at once, before processing: the retry of a failed event is taken for a duplicate.
  "records-before-processing",
  // Rethrows what is not a verification error, from an async request handler: an unhandled rejection, and Node exits.
  "rethrows",
  // Swallows its own failure and acknowledges: the service never sends the event again.
  "acknowledges-failure",
  // Processes one delivery at a time: a fetch that hangs holds every delivery after it.
  "one-at-a-time",
] as const;
export type ProcessingFlaw = (typeof PROCESSING_FLAWS)[number];

const [flaw, secret, baseUrl, token] = process.argv.slice(2) as [ProcessingFlaw | "correct", string, string, string];
const payin = createPayinClient({ baseUrl, token });
const processed = new Set<string>();
let queue: Promise<unknown> = Promise.resolve();

async function processEvent(data: object) {
  if (!("transaction_id" in data)) return;
  const transaction_id = data.transaction_id as string;
  const { error } = await payin.GET("/api/v1/earn/transactions/{transaction_id}/", { params: { path: { transaction_id } } });
  if (error) throw new Error(`transaction ${transaction_id}: ${error.status}`);
}

const server = createServer(async (req, res) => {
  const chunks: Buffer[] = [];
  for await (const chunk of req) chunks.push(chunk as Buffer);
  try {
    const event = await verifyWebhook(Buffer.concat(chunks), req.headers, secret);
    if (flaw === "records-before-processing") {
      if (processed.has(event.id)) return void res.writeHead(204).end();
      processed.add(event.id);
      await processEvent(event.data);
    } else if (!processed.has(event.id)) {
      const work =
        flaw === "one-at-a-time" ? (queue = queue.catch(() => {}).then(() => processEvent(event.data))) : processEvent(event.data);
      await work;
      processed.add(event.id);
    }
    res.writeHead(204).end();
  } catch (error) {
    if (error instanceof WebhookVerificationError) {
      const status = error.code === "unknown_event_type" ? 204 : error.toProblem().status;
      return void res.writeHead(status).end();
    }
    if (flaw === "rethrows") throw error;
    res.writeHead(flaw === "acknowledges-failure" ? 204 : 503).end();
  }
});
server.listen(0, "127.0.0.1", () => console.log(`listening on http://127.0.0.1:${(server.address() as { port: number }).port}/webhooks`));
