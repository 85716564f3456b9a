// Every rejection the sandbox makes, word for word: the status, the problem document's code and
// detail, and the headers that go with it. Raw node:http requests, so that a body can arrive in
// pieces, be endless, or carry any Content-Type.
import { request, type IncomingHttpHeaders } from "node:http";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startSandbox, type RunningSandbox } from "../../src/sandbox/index.ts";
import { isJsonType } from "../../src/lib/request-body.ts";
import { bearerToken } from "../../src/sandbox/edge/http.ts";
import { newCounterparty } from "../../src/conformance/fixtures.ts";

let sandbox: RunningSandbox;
beforeAll(async () => {
  sandbox = await startSandbox({ port: 0 });
});
afterAll(() => sandbox.close());

interface Answer {
  status: number;
  headers: IncomingHttpHeaders;
  body: any;
}

/** Sends the body in the pieces given (each its own write), and reads the whole answer. */
function send(
  method: string,
  path: string,
  { headers = {}, pieces = [] as (string | Buffer)[], token = "rejections" as string | null } = {},
): Promise<Answer> {
  return new Promise((resolve, reject) => {
    // A connection of its own: a kept-alive one the server closes as idle, just as a request goes
    // out on it after a slow moment, would fail the request with "socket hang up".
    const req = request(
      sandbox.url + path,
      { method, agent: false, headers: { ...(token ? { Authorization: `Bearer ${token}` } : {}), ...headers } },
      (res) => {
        const chunks: Buffer[] = [];
        res.on("data", (c: Buffer) => chunks.push(c));
        res.on("end", () => {
          const text = Buffer.concat(chunks).toString();
          resolve({ status: res.statusCode!, headers: res.headers, body: text ? JSON.parse(text) : undefined });
        });
      },
    );
    req.on("error", reject);
    const write = (i: number) => {
      if (i === pieces.length) return req.end();
      req.write(pieces[i]);
      setTimeout(() => write(i + 1), 5);
    };
    write(0);
  });
}

const json = { "Content-Type": "application/json" };
const person = () => JSON.stringify(newCounterparty());

describe("the sandbox's rejections", () => {
  it("names the path it does not know, with or without a query", async () => {
    for (const path of ["/nowhere", "/nowhere?x=1"]) {
      const { status, headers, body } = await send("GET", path);
      expect(status).toBe(404);
      expect(headers["content-type"]).toBe("application/problem+json");
      expect(body).toMatchObject({
        status: 404,
        code: "not_found",
        title: expect.any(String),
        detail: "No operation has the path /nowhere.",
      });
    }
  });

  it("names the path a slash away that an operation has, in either direction, and in both documents", async () => {
    for (const [method, path, near, whose, slash] of [
      ["POST", "/api/v1/earn/payment-sessions", "/api/v1/earn/payment-sessions/", "the contract's", "with"],
      ["POST", "/api/v1/send/counterparties", "/api/v1/send/counterparties/", "the contract's", "with"],
      ["GET", "/api/v1/earn/transactions/txn_1", "/api/v1/earn/transactions/txn_1/", "the contract's", "with"],
      ["GET", "/webhooks/?x=1", "/webhooks", "the contract's", "without"],
      ["POST", "/_sandbox/v1/reset/", "/_sandbox/v1/reset", "the control API's", "without"],
    ]) {
      const { status, headers, body } = await send(method!, path!, { headers: json, pieces: ["{}"] });
      expect(status, path).toBe(404);
      expect(headers["content-type"]).toBe("application/problem+json");
      const asked = path!.split("?")[0];
      expect(body).toMatchObject({
        status: 404,
        code: "not_found",
        detail: `No operation at ${asked}; ${whose} path is ${near} (${slash} the trailing slash).`,
      });
    }
    // Two slashes away, or nothing near: the plain 404.
    for (const path of ["/api/v1/earn/payment-sessions//", "/api/v1/earn/transactions/", "/"])
      expect((await send("GET", path)).body, path).toMatchObject({ status: 404, detail: `No operation has the path ${path}.` });
  });

  it("says which methods a path takes", async () => {
    const { status, headers, body } = await send("DELETE", "/webhooks", { headers: json, pieces: ["{}"] });
    expect(status).toBe(405);
    expect(headers.allow).toBe("GET, HEAD, POST");
    expect(body).toMatchObject({
      code: "method_not_allowed",
      title: "Method not allowed",
      detail: "/webhooks takes GET, HEAD, POST, not DELETE.",
    });
  });

  it("tells a missing token from an invalid one (RFC 6750)", async () => {
    const missing = await send("GET", "/webhooks", { token: null });
    expect(missing.status).toBe(401);
    expect(missing.headers["www-authenticate"]).toBe('Bearer realm="payin"');
    expect(missing.body).toMatchObject({
      code: "unauthorized",
      detail: "The Authorization header is missing or its bearer token is not valid.",
    });
    const invalid = await send("GET", "/webhooks", { token: null, headers: { Authorization: "Basic abc" } });
    expect(invalid.status).toBe(401);
    expect(invalid.headers["www-authenticate"]).toBe('Bearer realm="payin", error="invalid_token"');
  });

  it("wants JSON bodies as application/json or a +json type", async () => {
    const refused = await send("POST", "/api/v1/send/counterparties/", { headers: { "Content-Type": "text/plain" }, pieces: [person()] });
    expect(refused.status).toBe(415);
    expect(refused.body).toMatchObject({ code: "unsupported_media_type", detail: "Send the body as application/json." });
    const plusJson = await send("POST", "/api/v1/send/counterparties/", {
      headers: { "Content-Type": "application/vnd.payin+json; charset=utf-8" },
      pieces: [person()],
    });
    expect(plusJson.status).toBe(201);
  });

  it("reads a body that arrives in several pieces", async () => {
    const body = person();
    const answer = await send("POST", "/api/v1/send/counterparties/", {
      headers: json,
      pieces: [body.slice(0, 20), body.slice(20, 60), body.slice(60)],
    });
    expect(answer.status).toBe(201);
    expect(answer.body.email).toBe(JSON.parse(body).email);
  });

  it("takes a body of exactly 64 KiB, refuses one byte more, and closes the connection after", async () => {
    const sized = (bytes: number) => {
      const base = JSON.parse(person());
      const padding = bytes - JSON.stringify({ ...base, pad: "" }).length;
      return JSON.stringify({ ...base, pad: "x".repeat(padding) });
    };
    const exact = await send("POST", "/api/v1/send/counterparties/", { headers: json, pieces: [sized(64 * 1024)] });
    expect(exact.status).toBe(422); // read and judged: `pad` is no field of the request
    expect(exact.body.errors).toEqual([{ field: "pad", message: "is not a field of this request" }]);
    const over = await send("POST", "/api/v1/send/counterparties/", { headers: json, pieces: [sized(64 * 1024 + 1)] });
    expect(over.status).toBe(413);
    expect(over.headers.connection).toBe("close");
    expect(over.body).toMatchObject({ code: "payload_too_large", detail: "Request bodies are limited to 64 KiB." });
  });

  it("answers an endless body with 413 once it passes 16 MiB, without waiting for its end", async () => {
    // The sandbox answers and closes while the body still comes; the client may then see the
    // connection reset before it reads the answer (TCP drops what it had not read). A reset is
    // tried again; a 413 must come within a few tries, before 64 MiB were sent.
    const attempt = () =>
      new Promise<{ status: number; sentMiB: number } | "reset">((resolve, reject) => {
        let sent = 0;
        const req = request(
          sandbox.url + "/webhooks",
          { method: "POST", agent: false, headers: { Authorization: "Bearer rejections", ...json } },
          (res) => {
            res.resume();
            resolve({ status: res.statusCode!, sentMiB: sent / 2 ** 20 });
            req.destroy();
          },
        );
        req.on("error", (error) => (sent > 0 ? resolve("reset") : reject(error)));
        const chunk = Buffer.alloc(2 ** 20, 0x20);
        const pump = () => {
          // Never ends on its own; a sandbox that waited for the end would never answer.
          while (sent < 64 * 2 ** 20 && req.write(chunk)) sent += chunk.length;
          if (sent < 64 * 2 ** 20) req.once("drain", () => ((sent += chunk.length), pump()));
        };
        pump();
      });
    let answer: Awaited<ReturnType<typeof attempt>> = "reset";
    for (let tries = 0; answer === "reset" && tries < 5; tries++) answer = await attempt();
    expect(answer).toMatchObject({ status: 413 });
    expect((answer as { sentMiB: number }).sentMiB).toBeLessThan(64);
  });

  it("quotes the JSON parser on a malformed body", async () => {
    const { status, body } = await send("POST", "/webhooks", { headers: json, pieces: ["{"] });
    expect(status).toBe(400);
    expect(body.code).toBe("malformed_request");
    expect(body.detail).toMatch(/^The request body is not valid JSON: .+\.$/);
  });

  it(
    "tells a webhook URL, redirect_url or source_url refused for its scheme " +
      "that loopback http:// is taken and every other host needs https://",
    async () => {
      const rule =
        "must be an https:// URL; the sandbox also accepts loopback http:// URLs (localhost, 127.0.0.0/8, [::1]), " +
        "but every other host needs https://";
      for (const url of ["http://shop.example.com/hooks", "http://10.0.0.1/hooks", "ftp://localhost/hooks"]) {
        const { status, headers, body } = await send("POST", "/webhooks", { headers: json, pieces: [JSON.stringify({ url })] });
        expect(status, url).toBe(422);
        expect(headers["content-type"]).toBe("application/problem+json");
        expect(body).toMatchObject({ code: "validation_failed", errors: [{ field: "url", message: rule }] });
      }
      const session = {
        amount: 1,
        currency: "EUR",
        counterparty_id: "cp_nobody",
        redirect_url: "http://shop.example.com/thanks",
        source_url: "http://shop.example.com/",
      };
      const { body } = await send("POST", "/api/v1/earn/payment-sessions/", { headers: json, pieces: [JSON.stringify(session)] });
      expect(body.errors).toHaveLength(2);
      expect(body.errors).toEqual(
        expect.arrayContaining([
          { field: "redirect_url", message: rule },
          { field: "source_url", message: rule },
        ]),
      );
      // Other faults of a URL keep the schema's words.
      const long = await send("POST", "/webhooks", {
        headers: json,
        pieces: [JSON.stringify({ url: `https://shop.example.com/${"a".repeat(2048)}` })],
      });
      expect(long.body.errors).toEqual([{ field: "url", message: "must NOT have more than 2048 characters" }]);
    },
  );

  it("counts the invalid fields in the detail, one and several", async () => {
    const one = await send("POST", "/webhooks", { headers: json, pieces: [JSON.stringify({})] });
    expect(one.body).toMatchObject({
      code: "validation_failed",
      detail: "The request has 1 invalid field.",
      errors: [{ field: "url", message: "is required" }],
    });
    const two = await send("POST", "/webhooks", { headers: json, pieces: [JSON.stringify({ url: 5, extra: true })] });
    expect(two.body.detail).toBe("The request has 2 invalid fields.");
    expect(two.body.errors).toEqual(
      expect.arrayContaining([{ field: "extra", message: "is not a field of this request" }, expect.objectContaining({ field: "url" })]),
    );
  });
});

describe("the sandbox's refusals of what the state does not allow", () => {
  const as = (token: string) => ({ token, headers: json });
  it("says what is missing or taken, in words a merchant's log can show", async () => {
    const token = `refusals-${crypto.randomUUID()}`;
    const taken = person();
    const first = await send("POST", "/api/v1/send/counterparties/", { ...as(token), pieces: [taken] });
    const again = await send("POST", "/api/v1/send/counterparties/", { ...as(token), pieces: [taken] });
    expect(again.body).toMatchObject({
      status: 409,
      code: "counterparty_exists",
      existing_id: first.body.id,
      detail: "A PAYIN counterparty with this email and phone_number already exists.",
    });

    const session = await send("POST", "/api/v1/earn/payment-sessions/", {
      ...as(token),
      pieces: [JSON.stringify({ amount: 1, currency: "EUR", counterparty_id: "cp_nobody", redirect_url: "https://shop.example.com/" })],
    });
    expect(session.body).toMatchObject({
      status: 422,
      detail: "The request has 1 invalid field.",
      errors: [{ field: "counterparty_id", message: "must be the id of an existing PAYIN counterparty" }],
    });

    const transaction = await send("GET", "/api/v1/earn/transactions/txn_nobody/", as(token));
    expect(transaction.body).toMatchObject({
      status: 404,
      code: "not_found",
      detail: "No transaction with id txn_nobody exists for this account.",
    });
    const webhook = await send("GET", "/webhooks", as(token));
    expect(webhook.body).toMatchObject({
      status: 404,
      code: "webhook_not_registered",
      detail: "This account has no webhook URL; register one with POST /webhooks.",
    });
    const sandboxSession = await send("GET", "/_sandbox/v1/payment-sessions/ps_nobody", as(token));
    expect(sandboxSession.body).toMatchObject({
      status: 404,
      code: "not_found",
      detail: "No payment session with id ps_nobody exists for this account.",
    });
    const event = await send("POST", "/_sandbox/v1/deliveries/msg_nobody/redeliver", as(token));
    expect(event.body).toMatchObject({ status: 404, code: "not_found", detail: "No event with id msg_nobody exists for this account." });
  });

  it("refuses an Idempotency-Key reused with another body, and says so", async () => {
    const token = `refusals-${crypto.randomUUID()}`;
    const headers = { ...json, "Idempotency-Key": "k-1" };
    expect((await send("POST", "/api/v1/send/counterparties/", { token, headers, pieces: [person()] })).status).toBe(201);
    const reused = await send("POST", "/api/v1/send/counterparties/", { token, headers, pieces: [person()] });
    expect(reused.body).toMatchObject({
      status: 409,
      code: "idempotency_key_reused",
      detail: "This Idempotency-Key was first used with a different request body.",
    });
  });

  it("names the body itself when it is not an object", async () => {
    const { status, body } = await send("POST", "/webhooks", { headers: json, pieces: ["[]"] });
    expect(status).toBe(422);
    expect(body.errors).toEqual([{ field: "body", message: "must be object" }]);
  });
});

describe("the sandbox's reading of request headers", () => {
  it("knows JSON media types", () => {
    for (const type of [
      "application/json",
      "APPLICATION/JSON",
      "application/json; charset=utf-8",
      "application/json ;x",
      "application/problem+json",
      "application/vnd.a.b-c+json",
    ])
      expect(isJsonType(type), type).toBe(true);
    for (const type of [
      undefined,
      "",
      "text/json",
      "application/jsonx",
      "application/json-seq",
      "xapplication/json",
      "application/+json",
      "application/a b+json",
    ])
      expect(isJsonType(type), String(type)).toBe(false);
  });

  it("takes a bearer token after one or more spaces, and nothing else", () => {
    expect(bearerToken("Bearer abc")).toBe("abc");
    expect(bearerToken("bearer   a.b-c_d~e+f/g==  ")).toBe("a.b-c_d~e+f/g==");
    for (const header of [undefined, "", "Bearer", "Bearer ", "xBearer abc", "Basic abc", "Bearer a b", "Bearer a=b"])
      expect(bearerToken(header), String(header)).toBeUndefined();
  });
});
