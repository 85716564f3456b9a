// The sandbox's small parts, each on its own: event payloads made from the records, the URL
// rules, and the answer to what node:http cannot parse.
import { PassThrough } from "node:stream";
import { describe, expect, it } from "vitest";
import { eventPayload, type EventFacts } from "../../src/lib/event-payload.ts";
import { answerClientError } from "../../src/sandbox/edge/http.ts";
import { isLoopbackHttpUrl, unreachableUrls } from "../../src/sandbox/flow/urls.ts";

const facts = (type: EventFacts["type"], extra: Partial<EventFacts> = {}): EventFacts => ({
  id: "msg_1",
  type,
  timestamp: "2026-11-23T10:00:00.000Z",
  sessionId: "ps_1",
  counterpartyId: "cp_1",
  request: { amount: 12.5, currency: "EUR" },
  transactionId: null,
  failureReason: null,
  ...extra,
});

describe("an event's payload", () => {
  it("of a session event names the session and no transaction, with the state its type announces", () => {
    expect(JSON.parse(eventPayload(facts("session-completed", { request: { amount: 12.5, currency: "EUR", order_id: "ORD-1" } })))).toEqual(
      {
        id: "msg_1",
        type: "session-completed",
        timestamp: "2026-11-23T10:00:00.000Z",
        data: { session_id: "ps_1", counterparty_id: "cp_1", order_id: "ORD-1", status: "completed", amount: 12.5, currency: "EUR" },
      },
    );
  });

  it("of a transaction event names the transaction, and only transaction-failed carries the failure reason", () => {
    const failed = { transactionId: "txn_1", failureReason: "card_declined" };
    expect(JSON.parse(eventPayload(facts("transaction-created", failed))).data).toEqual({
      transaction_id: "txn_1",
      session_id: "ps_1",
      counterparty_id: "cp_1",
      status: "created",
      amount: 12.5,
      currency: "EUR",
    });
    expect(JSON.parse(eventPayload(facts("transaction-failed", failed))).data).toMatchObject({
      status: "failed",
      failure_reason: "card_declined",
    });
    expect(JSON.parse(eventPayload(facts("transaction-failed", { transactionId: "txn_1" }))).data).not.toHaveProperty("failure_reason");
  });

  it("is the same text for the same facts", () => {
    expect(eventPayload(facts("transaction-settled", { transactionId: "txn_1" }))).toBe(
      eventPayload(facts("transaction-settled", { transactionId: "txn_1" })),
    );
  });
});

describe("the sandbox's URL rules", () => {
  it("take http:// on a loopback host only, and nothing that is not a URL", () => {
    for (const url of ["http://localhost/x", "http://127.0.0.9:8/x", "http://[::1]/", "HTTP://LOCALHOST/"])
      expect(isLoopbackHttpUrl(url), url).toBe(true);
    for (const url of ["https://localhost/x", "http://localhost.example.com/", "http://[::1/", "not a url", 42, undefined, null])
      expect(isLoopbackHttpUrl(url), String(url)).toBe(false);
  });

  it("name each field whose URL no client could reach", () => {
    expect(unreachableUrls({ a: "https://x.example:0/", b: "https://x.example:443/", c: 5 }, "a", "b", "c", "missing")).toEqual([
      { field: "a", message: "must be a URL with a host and port (1-65535) a client can reach" },
    ]);
    expect(unreachableUrls(undefined, "a")).toEqual([]);
  });
});

describe("the answer to what node:http cannot parse", () => {
  const socketWith = (written: string[], writable = true, inFlight?: { headersSent: boolean }) => {
    const socket = new PassThrough();
    socket.write = ((chunk: string) => written.push(chunk) > 0) as never;
    socket.on("error", () => {}); // destroyed with the parser's error, as node:http's socket is
    Object.defineProperty(socket, "writable", { value: writable });
    if (inFlight) Object.assign(socket, { _httpMessage: inFlight });
    return socket;
  };
  const parse = (raw: string) => {
    const [head, body] = raw.split("\r\n\r\n");
    return { statusLine: head!.split("\r\n")[0], headers: head!.split("\r\n").slice(1), body: JSON.parse(body!) };
  };

  it("is a problem document on the socket, with its length, closing the connection", () => {
    const written: string[] = [];
    const socket = socketWith(written);
    answerClientError(Object.assign(new Error("Parse Error: Invalid method encountered"), { code: "HPE_INVALID_METHOD" }), socket);
    const answer = parse(written.join(""));
    expect(answer.statusLine).toBe("HTTP/1.1 400 Bad Request");
    expect(answer.headers).toEqual([
      "Content-Type: application/problem+json",
      `Content-Length: ${Buffer.byteLength(JSON.stringify(answer.body))}`,
      "Connection: close",
    ]);
    expect(answer.body).toMatchObject({
      status: 400,
      code: "malformed_request",
      detail: "The request is not valid HTTP/1.1 (HPE_INVALID_METHOD).",
    });
    expect(socket.destroyed).toBe(true);
  });

  it("names the error's message when it has no code, and the two known codes by their own status", () => {
    const written: string[] = [];
    answerClientError(new Error("odd"), socketWith(written));
    expect(parse(written.join("")).body.detail).toBe("The request is not valid HTTP/1.1 (odd).");
    for (const [code, statusLine] of [
      ["HPE_HEADER_OVERFLOW", "HTTP/1.1 431 Request Header Fields Too Large"],
      ["ERR_HTTP_REQUEST_TIMEOUT", "HTTP/1.1 408 Request Timeout"],
    ]) {
      const out: string[] = [];
      answerClientError(Object.assign(new Error(code!), { code }), socketWith(out));
      expect(parse(out.join("")).statusLine).toBe(statusLine);
    }
  });

  it("writes nothing to a connection the client reset, one no longer writable, or one whose answer has begun", () => {
    for (const [error, writable, inFlight] of [
      [Object.assign(new Error("reset"), { code: "ECONNRESET" }), true, undefined],
      [new Error("x"), false, undefined],
      [new Error("x"), true, { headersSent: true }],
    ] as const) {
      const written: string[] = [];
      const socket = socketWith(written, writable, inFlight);
      answerClientError(error, socket);
      expect(written).toEqual([]);
      expect(socket.destroyed).toBe(true);
    }
    const written: string[] = [];
    answerClientError(new Error("x"), socketWith(written, true, { headersSent: false }));
    expect(written.join("")).toMatch(/^HTTP\/1.1 400/);
  });
});
