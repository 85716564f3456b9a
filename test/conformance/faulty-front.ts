// A deliberately broken implementation for the conformance kit's tests: a front that passes
// every request on to a sandbox and every webhook delivery on to the URL registered through
// it, with one fault. The front registers its own relay with the sandbox, so it sees (and can
// spoil) each delivery before the registered receiver does.
import { createServer, request, type IncomingHttpHeaders } from "node:http";
import { request as tlsRequest } from "node:https";
import { bindPort } from "../../src/lib/bind-port.ts";
import { isLoopbackHost } from "../../src/sandbox/flow/urls.ts";
import { signWebhook } from "../../src/webhooks/index.ts";

export interface Answer {
  status: number;
  headers: Record<string, string>;
  body: string;
}

export interface Delivery {
  headers: Record<string, string>;
  body: string;
}

export interface Fault {
  /** Rewrites the sandbox's answer to a request. */
  answer?(request: { method: string; path: string; body: string }, answer: Answer): Answer;
  /** Rewrites a delivery before it goes on (the secret is the registration's); null drops it. */
  delivery?(delivery: Delivery, secret: string, attempt: number): Promise<Delivery | null> | Delivery | null;
}

export interface FaultyFront {
  url: string;
  close(): Promise<void>;
}

export async function startFaultyFront(sandboxUrl: string, fault: Fault): Promise<FaultyFront> {
  let registered: { url: string; secret: string } | undefined;
  const attempts = new Map<string, number>();

  const relay = createServer(async (req, res) => {
    const body = (await bytes(req)).toString("utf8");
    const headers = pick(req.headers, ["webhook-id", "webhook-timestamp", "webhook-signature", "content-type"]);
    const attempt = (attempts.get(headers["webhook-id"]!) ?? 0) + 1;
    attempts.set(headers["webhook-id"]!, attempt);
    const spoiled =
      registered && (fault.delivery ? await fault.delivery({ headers, body }, registered.secret, attempt) : { headers, body });
    // Only to loopback, as every test: a shop's URL registered by a check gets nothing.
    if (!registered || !spoiled || !isLoopbackHost(new URL(registered.url).hostname)) return res.writeHead(204).end();
    res.writeHead(await post(registered.url, spoiled)).end();
  });
  const relayUrl = `http://127.0.0.1:${await bindPort(relay, 0, "127.0.0.1")}/relay`;

  const front = createServer(async (req, res) => {
    // The bytes as they came (a test sends some that are not UTF-8); the text for the fault.
    const raw = await bytes(req);
    const body = raw.toString("utf8");
    const path = req.url!;
    const headers = pick(req.headers, ["authorization", "content-type", "idempotency-key"]);
    const forwarded = await fetch(sandboxUrl + path, {
      method: req.method,
      headers,
      ...(raw.length > 0 ? { body: new Uint8Array(raw) } : {}),
    });
    let answer: Answer = {
      status: forwarded.status,
      headers: pick(Object.fromEntries(forwarded.headers), ["content-type", "www-authenticate", "allow", "retry-after"]),
      body: await forwarded.text(),
    };
    if (req.method === "POST" && path === "/webhooks" && forwarded.ok) {
      // The URL the sandbox took is registered again as the relay; the caller sees its own.
      const json = JSON.parse(answer.body) as { url: string; signing_secret: string };
      registered = { url: json.url, secret: json.signing_secret };
      await fetch(sandboxUrl + path, { method: "POST", headers, body: JSON.stringify({ url: relayUrl }) });
    }
    if (path === "/webhooks" && req.method === "GET" && registered && forwarded.ok)
      answer = { ...answer, body: JSON.stringify({ ...JSON.parse(answer.body), url: registered.url }) };
    if (fault.answer) answer = fault.answer({ method: req.method!, path, body }, answer);
    res.writeHead(answer.status, answer.headers).end(answer.body);
  });
  const url = `http://127.0.0.1:${await bindPort(front, 0, "127.0.0.1")}`;
  return {
    url,
    close: async () => {
      for (const server of [front, relay]) {
        server.closeAllConnections();
        await new Promise((resolve) => server.close(resolve));
      }
    },
  };
}

/** Signs a delivery's body again under `secret`, as the service would have sent it. */
export async function resigned(delivery: Delivery, secret: string, id = delivery.headers["webhook-id"]!): Promise<Delivery> {
  const signed = await signWebhook({ id, timestamp: new Date(), payload: delivery.body, secret });
  return { headers: { ...delivery.headers, ...signed }, body: delivery.body };
}

/** POSTs a delivery on and resolves to the status answered; a loopback https:// receiver's certificate is not checked (D21). */
function post(url: string, { headers, body }: Delivery): Promise<number> {
  return new Promise((resolve, reject) => {
    const send = url.startsWith("https:") ? tlsRequest : request;
    const req = send(url, { method: "POST", headers, rejectUnauthorized: false }, (res) => {
      res.resume();
      resolve(res.statusCode!);
    });
    req.on("error", reject);
    req.end(body);
  });
}

async function bytes(req: AsyncIterable<unknown>): Promise<Buffer> {
  const chunks: Buffer[] = [];
  for await (const chunk of req) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks);
}

function pick(headers: IncomingHttpHeaders | Record<string, string>, names: string[]): Record<string, string> {
  return Object.fromEntries(names.flatMap((name) => (typeof headers[name] === "string" ? [[name, headers[name] as string]] : [])));
}
