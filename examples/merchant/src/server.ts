// The merchant's webhook endpoint, on node:http. Three rules, in this order:
//   1. verify the delivery (signature, timestamp, event schema) with the signing secret;
//   2. dedupe on the event id (the webhook-id): deliveries come at least once;
//   3. on a transaction event, fetch the transaction and update the order from it: the
//      transaction is the truth, the event only says that something changed.
// Then answer 2xx. A delivery that fails verification is refused with 4xx; when our own work
// fails, the event is not recorded as handled and the answer is 503: the service delivers it again.
//
// Run it: npm start (PAYIN_BASE_URL, default http://127.0.0.1:4010; PAYIN_TOKEN, default example-merchant;
// PORT, default 3000).
import { realpathSync } from "node:fs";
import { createServer, type IncomingMessage, type ServerResponse } from "node:http";
import { createPayinClient, type PayinClientOptions } from "payin-acceptance-contract";
import { verifyWebhook, WebhookVerificationError, type PayinEvent, type PayinEventType } from "payin-acceptance-contract/webhooks";
import { createOrders, type OrderChange, type Orders } from "./orders.ts";

export interface MerchantOptions {
  /** Where the Payin service (or the sandbox) is. */
  baseUrl: string;
  /** The merchant's bearer token: on the sandbox, any token is an account of its own. */
  token: string;
  /** Port to listen on; 0 (the default) picks a free one. */
  port?: number;
  /** Where lines about orders go; console.log by default. */
  log?: (line: string) => void;
  /** The fetch the Payin client uses (a test watches the calls with it). */
  fetch?: (request: Request) => Promise<Response>;
  /** How the Payin client retries what may succeed later (a test has it retry at once, rather than wait). */
  retry?: PayinClientOptions["retry"];
}

export interface ReceivedEvent {
  id: string;
  type: PayinEventType;
  /** A delivery of an event already handled: answered 2xx, and nothing done. */
  duplicate: boolean;
}

export interface RunningMerchant {
  /** `http://127.0.0.1:<port>`: the webhook endpoint is `${url}/webhooks/payin`, the orders `${url}/orders`. */
  url: string;
  orders: Orders;
  /** Every delivery of a known event answered 2xx, in the order they were answered. */
  received: ReceivedEvent[];
  /** The secret deliveries are signed with, from the registration. */
  signingSecret: string;
  close(): Promise<void>;
}

export async function startMerchant({
  baseUrl,
  token,
  port = 0,
  log = console.log,
  fetch,
  retry,
}: MerchantOptions): Promise<RunningMerchant> {
  const payin = createPayinClient({ baseUrl, token, ...(fetch ? { fetch } : {}), ...(retry === undefined ? {} : { retry }) });
  const orders = createOrders();
  const received: ReceivedEvent[] = [];
  const handled = new Set<string>(); // in a real shop: a table with a unique key on the event id

  // The secret comes with the registration, which needs the URL, which needs the port: a
  // delivery that arrives in between waits for it.
  let setSecret: (secret: string) => void = () => {};
  const secret = new Promise<string>((resolve) => (setSecret = resolve));

  function report(change: OrderChange | undefined, why: string) {
    if (change) log(`order ${change.order.order_id}: ${change.from} -> ${change.order.status} (${why})`);
  }

  async function handle(event: PayinEvent) {
    if (
      event.type === "transaction-created" ||
      event.type === "transaction-completed" ||
      event.type === "transaction-failed" ||
      event.type === "transaction-settled"
    ) {
      const transaction_id = event.data.transaction_id;
      const { data, error } = await payin.GET("/api/v1/earn/transactions/{transaction_id}/", { params: { path: { transaction_id } } });
      if (error) throw new Error(`GET transaction ${transaction_id}: ${error.status} ${error.code}`);
      report(
        orders.applyTransaction(data),
        `${event.type}; ${data.id} is ${data.status}${data.failure_reason ? `: ${data.failure_reason}` : ""}`,
      );
    } else {
      report(orders.applySession(event.data), event.type);
    }
  }

  async function onWebhook(req: IncomingMessage, res: ServerResponse) {
    let event: PayinEvent | undefined;
    try {
      const chunks: Buffer[] = [];
      for await (const chunk of req) chunks.push(chunk as Buffer);
      // 1. Verify: the raw body, exactly as received.
      event = await verifyWebhook(Buffer.concat(chunks), req.headers, await secret);
      // 2. Dedupe: verifyWebhook has checked that event.id is the webhook-id.
      const duplicate = handled.has(event.id);
      // 3. Fetch the transaction (in handle), then remember the event as handled: had handle
      // failed, the event stays unhandled, and its redelivery does the work.
      if (!duplicate) {
        await handle(event);
        handled.add(event.id);
      }
      received.push({ id: event.id, type: event.type, duplicate });
      res.writeHead(204).end();
    } catch (error) {
      if (error instanceof WebhookVerificationError) {
        // Authentic, but of a type added after this version of the package: acknowledge it, or
        // the service retries it for days (decision D22). Upgrade the package to handle it.
        if (error.code === "unknown_event_type") {
          log(`ignored: ${error.message}`);
          return void res.writeHead(204).end();
        }
        // Not a delivery the service made (forged, changed, stale): refused with 4xx, nothing handled.
        return problem(res, error.toProblem());
      }
      // Our own failure (the service unreachable, a database down): 503, and the service delivers again.
      log(
        `${event ? `${event.type} ${event.id}` : "a delivery"} not handled, the service will deliver it again: ${(error as Error).message}`,
      );
      problem(res, { type: "about:blank", title: "Service Unavailable", status: 503, detail: "Not handled; deliver it again." });
    }
  }

  async function route(req: IncomingMessage, res: ServerResponse) {
    const path = new URL(req.url ?? "/", "http://merchant").pathname;
    if (req.method === "POST" && path === "/webhooks/payin") return onWebhook(req, res);
    req.resume();
    if (req.method === "GET" && path === "/orders") return json(res, 200, orders.list());
    const order =
      req.method === "GET" && path.startsWith("/orders/") ? orders.get(decodeURIComponent(path.slice("/orders/".length))) : undefined;
    if (order) return json(res, 200, order);
    // The session's redirect_url: where the customer lands after paying.
    if (req.method === "GET" && path === "/thanks") return text(res, 200, "Thank you! Your payment is being confirmed.\n");
    return text(res, 404, "Not found\n");
  }

  const server = createServer((req, res) => {
    // onWebhook answers its own failures; anything else that fails is this shop's bug.
    route(req, res).catch((error: unknown) => {
      log(`${req.method} ${req.url} failed: ${(error as Error).message}`);
      if (!res.headersSent) text(res, 500, "Internal error\n");
    });
  });
  await new Promise<void>((resolve, reject) => server.once("error", reject).listen(port, "127.0.0.1", resolve));
  const url = `http://127.0.0.1:${(server.address() as { port: number }).port}`;
  const close = () =>
    new Promise<void>((resolve) => {
      server.close(() => resolve());
      server.closeAllConnections();
    });

  // Registering again replaces the URL and keeps the secret.
  const registered = await payin.POST("/webhooks", { body: { url: `${url}/webhooks/payin` } }).catch(async (error: unknown) => {
    await close();
    throw error;
  });
  if (registered.error) {
    await close();
    throw new Error(`POST /webhooks answered ${registered.error.status} ${registered.error.code}: ${registered.error.detail ?? ""}`);
  }
  setSecret(registered.data.signing_secret);
  return { url, orders, received, signingSecret: registered.data.signing_secret, close };
}

function json(res: ServerResponse, status: number, body: unknown) {
  res.writeHead(status, { "Content-Type": "application/json" }).end(JSON.stringify(body, null, 2) + "\n");
}

function problem(res: ServerResponse, body: { status: number } & Record<string, unknown>) {
  res.writeHead(body.status, { "Content-Type": "application/problem+json" }).end(JSON.stringify(body));
}

function text(res: ServerResponse, status: number, body: string) {
  res.writeHead(status, { "Content-Type": "text/plain; charset=utf-8" }).end(body);
}

// Run directly (npm start), not imported.
if (process.argv[1] && realpathSync(process.argv[1]) === import.meta.filename) {
  const baseUrl = process.env.PAYIN_BASE_URL ?? "http://127.0.0.1:4010";
  const token = process.env.PAYIN_TOKEN ?? "example-merchant";
  const merchant = await startMerchant({ baseUrl, token, port: Number(process.env.PORT ?? 3000) });
  console.log(`merchant listening on ${merchant.url}: webhooks at ${merchant.url}/webhooks/payin, orders at ${merchant.url}/orders`);
  // As `stripe listen` does: the secret of a test account, so that the endpoint can be checked.
  // A shop that takes real payments keeps its secret out of its logs.
  console.log(
    `check the endpoint: npx payin-conformance receiver --url ${merchant.url}/webhooks/payin --secret ${merchant.signingSecret} ` +
      `--base-url ${baseUrl} --token ${token}`,
  );
  for (const signal of ["SIGINT", "SIGTERM"] as const) process.once(signal, () => void merchant.close().then(() => process.exit(0)));
}
