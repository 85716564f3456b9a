// A merchant's webhook endpoint written by hand with node:crypto, as a merchant without the
// package would write it, with one flaw switched on at a time: the broken endpoints the
// receiver checks are proven against. With no flaw it is correct (it does not fetch anything,
// so made-up objects do). Its time is a clock it is given: the kit's, in a test that moves it, so
// that a slow answer takes no time and a signature's age is counted as the kit counts it.
import { createHmac, timingSafeEqual } from "node:crypto";
import { createServer, type IncomingHttpHeaders } from "node:http";
import { sleepOn, systemClock, type Clock } from "../../src/lib/clock.ts";
import { EVENT_TYPES } from "../../src/webhooks/index.ts";

export const FLAWS = [
  "no-signature-check",
  "signature-over-reserialised-json",
  "no-timestamp-check",
  "500-on-redelivery",
  "500-on-non-json",
  "500-on-forgery",
  "crash-on-missing-header",
  "first-signature-only",
  "accepts-invalid-events",
  "refuses-out-of-order",
  "refuses-unknown-types",
  "slow",
  "redirects",
] as const;
export type Flaw = (typeof FLAWS)[number];

export interface FlawedEndpoint {
  url: string;
  close(): Promise<void>;
}

/** `slowMs`: how long the `slow` flaw takes over each authentic event, on `clock`. */
export async function startFlawedEndpoint(
  secret: string,
  flaw?: Flaw,
  { slowMs = 0, clock = systemClock }: { slowMs?: number; clock?: Clock } = {},
): Promise<FlawedEndpoint> {
  const key = Buffer.from(secret.slice("whsec_".length), "base64");
  const handled = new Set<string>();
  const sessionsWithTransaction = new Set<string>();

  function answer(headers: IncomingHttpHeaders, body: string): number | Promise<number> {
    // Behind a proxy that sends every request elsewhere: the service follows no redirect.
    if (flaw === "redirects") return 302;
    // The flaw reads each header as if it were there: a missing one throws, and answers 500.
    const header = (name: string) =>
      flaw === "crash-on-missing-header" ? (headers[name] as string).trim() : (headers[name] as string | undefined);
    const [id, timestamp, signatures] = [header("webhook-id"), header("webhook-timestamp"), header("webhook-signature")!];
    if (!id || !timestamp || (flaw !== "no-signature-check" && !signatures)) return 401;
    if (flaw !== "no-timestamp-check" && Math.abs(clock.now() / 1000 - Number(timestamp)) > 300) return 401;
    if (flaw !== "no-signature-check") {
      const signed = flaw === "signature-over-reserialised-json" ? JSON.stringify(JSON.parse(body)) : body;
      const expected = Buffer.from(`v1,${createHmac("sha256", key).update(`${id}.${timestamp}.${signed}`).digest("base64")}`);
      const candidates = signatures.split(" ").slice(0, flaw === "first-signature-only" ? 1 : undefined);
      const matched = candidates.some(
        (candidate) => candidate.length === expected.length && timingSafeEqual(Buffer.from(candidate), expected),
      );
      if (!matched) return flaw === "500-on-forgery" ? 500 : 401;
    }
    let event;
    try {
      event = JSON.parse(body);
    } catch (error) {
      if (flaw === "500-on-non-json") throw error;
      return 400;
    }
    if (typeof event?.type !== "string") return 400;
    if (!(EVENT_TYPES as readonly string[]).includes(event.type)) return flaw === "refuses-unknown-types" ? 400 : 204;
    if (flaw !== "accepts-invalid-events" && event.type.startsWith("transaction-") && typeof event.data?.transaction_id !== "string")
      return 400;
    if (handled.has(id!)) return flaw === "500-on-redelivery" ? 500 : 204;
    // A state machine where the contract promises no order: a transaction must be created first.
    if (event.type === "transaction-created") sessionsWithTransaction.add(event.data.session_id);
    else if (
      flaw === "refuses-out-of-order" &&
      event.type === "transaction-completed" &&
      !sessionsWithTransaction.has(event.data.session_id)
    )
      return 409;
    handled.add(id!);
    // Any 2xx acknowledges: 200 for session events, 204 for the others.
    const ok = event.type.startsWith("session-") ? 200 : 204;
    return flaw === "slow" ? sleepOn(clock, slowMs).then(() => ok) : ok;
  }

  const server = createServer(async (req, res) => {
    const chunks: Buffer[] = [];
    for await (const chunk of req) chunks.push(chunk as Buffer);
    try {
      // Where the redirect points answers a GET with 200, as the page a proxy redirects to would.
      if (req.method === "GET") return void res.writeHead(200).end("a page");
      const status = await answer(req.headers, Buffer.concat(chunks).toString("utf8"));
      res.writeHead(status, status === 302 ? { Location: "/elsewhere" } : {}).end();
    } catch {
      res.writeHead(500).end();
    }
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as { port: number }).port}/webhooks`,
    close: () =>
      new Promise((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      }),
  };
}
