// What third-party tools sent the sandbox: a forged Host header, HTTP/1.0 without
// one, requests node:http cannot parse, and HEAD. Raw sockets, so that nothing on the way
// tidies the request up. And what an attacker sends a hosted sandbox on PostgreSQL, which takes
// no NUL in text: ids and strings that no id or text can be, at every path, page and query.
import { connect } from "node:net";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { postgresMissing, startPostgres, type TestPostgres } from "../../scripts/lib/temp-postgres.ts";
import { startSandbox, type RunningSandbox } from "../../src/sandbox/index.ts";
import { newCounterparty } from "../../src/conformance/fixtures.ts";
import { accountOn } from "../support/sandbox-account.ts";
import { startReceiver, type Receiver } from "../support/receiver.ts";

let sandbox: RunningSandbox;
beforeAll(async () => {
  sandbox = await startSandbox({ port: 0 });
});
afterAll(() => sandbox.close());

interface RawAnswer {
  status: number;
  headers: Record<string, string>;
  body: string;
}

/**
 * Writes `request` as it is on a new connection, ends the sending side (unless `halfClose` is false: node:http may close a
 * half-closed connection before an answer that waits on a database), and reads the answer until the server closes.
 */
function raw(port: number, request: string | Buffer, halfClose = true): Promise<RawAnswer> {
  return new Promise((resolve, reject) => {
    const socket = connect(port, "127.0.0.1");
    const chunks: Buffer[] = [];
    socket.on("data", (c: Buffer) => chunks.push(c));
    socket.on("error", reject);
    socket.on("close", () => {
      const text = Buffer.concat(chunks).toString("utf8");
      const [head = "", body = ""] = text.split(/\r\n\r\n(.*)/s);
      const [statusLine = "", ...lines] = head.split("\r\n");
      const headers = Object.fromEntries(lines.map((l) => [l.slice(0, l.indexOf(":")).toLowerCase(), l.slice(l.indexOf(":") + 1).trim()]));
      resolve({ status: Number(statusLine.split(" ")[1]), headers, body });
    });
    if (halfClose) socket.end(request);
    else socket.write(request);
  });
}

/** A request for a new session of `counterpartyId`, with the Host line given (none when undefined). */
function createSession(counterpartyId: string, token: string, host: string | undefined, version = "1.1") {
  const body = JSON.stringify({
    amount: 5,
    currency: "EUR",
    counterparty_id: counterpartyId,
    redirect_url: "https://shop.example.com/thanks",
  });
  return [
    `POST /api/v1/earn/payment-sessions/ HTTP/${version}`,
    ...(host === undefined ? [] : [`Host: ${host}`]),
    `Authorization: Bearer ${token}`,
    "Content-Type: application/json",
    `Content-Length: ${Buffer.byteLength(body)}`,
    "Connection: close",
    "",
    body,
  ].join("\r\n");
}

describe("the payment link's origin", () => {
  it("is the sandbox's own address, whatever the Host header says, and with its port when there is none", async () => {
    const account = accountOn(sandbox.url);
    const counterparty = (await account.call("POST", "/api/v1/send/counterparties/", newCounterparty())).body;
    for (const [host, version] of [
      ['evil.example.com"><script>alert(1)</script>', "1.1"],
      ["evil.example.com", "1.1"],
      [undefined, "1.0"],
    ] as const) {
      const answer = await raw(sandbox.port, createSession(counterparty.id, account.token, host, version));
      expect(answer.status, String(host)).toBe(201);
      const session = JSON.parse(answer.body);
      expect(session.payment_link, String(host)).toBe(`${sandbox.url}/pay/${session.id}`);
    }
  });

  it("is the public URL a sandbox reached through another name is given", async () => {
    const behind = await startSandbox({ port: 0, publicUrl: "https://sandbox.tunnel.example/payin/" });
    try {
      const session = await accountOn(behind.url).session();
      expect(session.payment_link).toBe(`https://sandbox.tunnel.example/payin/pay/${session.id}`);
    } finally {
      await behind.close();
    }
  });

  it("refuses a public URL that cannot be the base of a link, naming it", async () => {
    for (const publicUrl of ["ftp://sandbox.example/", "not a url", "https://user:secret@sandbox.example/", "https://sandbox.example/?x=1"])
      await expect(startSandbox({ port: 0, publicUrl }), publicUrl).rejects.toThrow(
        `publicUrl must be an http:// or https:// URL without credentials, query or fragment, not ${JSON.stringify(publicUrl)}`,
      );
  });
});

describe("requests node:http cannot parse", () => {
  const problemOf = (answer: RawAnswer) => {
    expect(answer.headers["content-type"]).toBe("application/problem+json");
    expect(Number(answer.headers["content-length"])).toBe(Buffer.byteLength(answer.body));
    return JSON.parse(answer.body);
  };

  it("answers a lower-case method with a 400 problem", async () => {
    const answer = await raw(sandbox.port, "get /webhooks HTTP/1.1\r\nHost: x\r\n\r\n");
    expect(answer.status).toBe(400);
    expect(problemOf(answer)).toMatchObject({
      status: 400,
      code: "malformed_request",
      title: "Malformed request",
      detail: expect.stringContaining("not valid HTTP/1.1"),
    });
  });

  it("answers headers over 16 KiB with a 431 problem", async () => {
    const answer = await raw(sandbox.port, `GET /webhooks HTTP/1.1\r\nHost: x\r\nX-Padding: ${"a".repeat(17 * 1024)}\r\n\r\n`);
    expect(answer.status).toBe(431);
    expect(problemOf(answer)).toMatchObject({
      status: 431,
      code: "request_header_fields_too_large",
      title: "Request header fields too large",
    });
  });

  it("answers a body cut short of its Content-Length with a 400 problem", async () => {
    const answer = await raw(
      sandbox.port,
      "POST /webhooks HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer short\r\n" +
        'Content-Type: application/json\r\nContent-Length: 100\r\n\r\n{"url":',
    );
    expect(answer.status).toBe(400);
    expect(problemOf(answer)).toMatchObject({ status: 400, code: "malformed_request" });
  });
});

describe("HEAD", () => {
  it("is served wherever GET is, with GET's status and headers and no body", async () => {
    const account = accountOn(sandbox.url);
    await account.register("http://127.0.0.1:1/hooks");
    const get = await fetch(`${sandbox.url}/webhooks`, { headers: { Authorization: `Bearer ${account.token}` } });
    const head = await fetch(`${sandbox.url}/webhooks`, { method: "HEAD", headers: { Authorization: `Bearer ${account.token}` } });
    expect(head.status).toBe(200);
    expect(head.headers.get("content-type")).toBe(get.headers.get("content-type"));
    expect(head.headers.get("content-length")).toBe(String(Buffer.byteLength(await get.text())));
    expect(await head.text()).toBe("");
    const missing = await fetch(`${sandbox.url}/api/v1/earn/transactions/txn_none/`, {
      method: "HEAD",
      headers: { Authorization: `Bearer ${account.token}` },
    });
    expect(missing.status).toBe(404);
  });

  it("is named in Allow beside GET, and only there", async () => {
    const res = await fetch(`${sandbox.url}/api/v1/earn/payment-sessions/`, { method: "HEAD", headers: { Authorization: "Bearer t" } });
    expect(res.status).toBe(405);
    expect(res.headers.get("allow")).toBe("POST");
  });
});

describe.skipIf(postgresMissing)("ids and text PostgreSQL cannot take, on a sandbox it keeps", () => {
  let cluster: TestPostgres;
  let hosted: RunningSandbox;
  let receiver: Receiver;
  beforeAll(async () => {
    cluster = startPostgres();
    hosted = await startSandbox({ port: 0, database: cluster.createDatabase() });
    receiver = await startReceiver();
  });
  afterAll(async () => {
    await hosted?.close();
    await receiver?.close();
    cluster?.stop();
  });

  /** What the database or the runtime would say: never in an answer. */
  const THEIR_WORDS = /invalid byte sequence|UTF8|0x00|at .*\.ts:\d+|postgres/i;

  it(
    "answers an id with a NUL, a byte that is not UTF-8 or another kind's prefix as one it does not have, " +
      "at every path, page and query; a NUL in a JSON string as a 422 naming its field",
    async () => {
      const account = accountOn(hosted.url);
      await account.register(receiver.url);
      const session = await account.session();
      await account.simulate(session.id, { outcome: "pay" });
      const headers = { Authorization: `Bearer ${account.token}` };
      const signIn = await fetch(`${hosted.url}/_sandbox/dashboard/sign-in`, {
        method: "POST",
        headers: { "content-type": "application/x-www-form-urlencoded" },
        body: new URLSearchParams({ token: account.token }),
        redirect: "manual",
      });
      const cookie = signIn.headers.get("set-cookie")!.split(";")[0]!;
      const form = (fields: Record<string, string>) => ({
        method: "POST",
        headers: { cookie, "content-type": "application/x-www-form-urlencoded" },
        body: new URLSearchParams(fields).toString(),
        redirect: "manual" as const,
      });
      const json = (body: unknown) => ({
        method: "POST",
        headers: { ...headers, "content-type": "application/json" },
        body: JSON.stringify(body),
      });
      // Each as a path's or a query's percent-encoding carries it: a NUL, bytes that are not UTF-8 (a lone 0xFF, an encoded
      // surrogate, a cut sequence), another kind's prefix, and markup.
      const bad = (prefix: string) => [
        `${prefix}_%00x`,
        "%00",
        `${prefix}_%FFx`,
        "%FF",
        `${prefix}_%ED%A0%80`,
        `${prefix}_%C3`,
        "cp_x",
        "%3Cb%3E",
      ];
      const errors: string[] = [];
      const spy = vi.spyOn(console, "error").mockImplementation((...args: unknown[]) => void errors.push(args.join(" ")));
      /** The text a form carries for the encoding: a byte that is not UTF-8 becomes U+FFFD, as a browser's form would send it. */
      const decoded = (encoded: string) => new URLSearchParams(`v=${encoded}`).get("v")!;
      const answers: Array<{ request: string; status: number; body: string }> = [];
      const ask = async (request: string, init?: RequestInit) => {
        const res = await fetch(`${hosted.url}${request.replace(/^\w+ /, "")}`, { headers, ...init });
        answers.push({ request, status: res.status, body: await res.text() });
        return answers.at(-1)!;
      };
      try {
        for (const id of bad("ps")) {
          expect((await ask(`GET /pay/${id}`)).status).toBe(404);
          expect((await ask(`POST /pay/${id}`, form({ outcome: "pay" }))).status).toBe(404);
          expect((await ask(`GET /_sandbox/v1/payment-sessions/${id}`)).status).toBe(404);
          expect((await ask(`POST /_sandbox/v1/payment-sessions/${id}/simulate`, json({ outcome: "pay" }))).status).toBe(404);
          expect(await ask(`GET /_sandbox/v1/deliveries?session_id=${id}`)).toMatchObject({
            status: 200,
            body: '{"data":[],"next_cursor":null}',
          });
          const page = await ask(`GET /_sandbox/dashboard?session=${id}&open=${id}`, { headers: { cookie } });
          expect([page.status, page.body]).toEqual([200, expect.stringContaining("Not applied: session ")]);
          expect((await ask(`POST /_sandbox/dashboard/pay`, form({ session_id: decoded(id) }))).status).toBe(303);
        }
        for (const id of bad("txn")) expect((await ask(`GET /api/v1/earn/transactions/${id}/`)).status).toBe(404);
        for (const id of bad("msg")) {
          expect((await ask(`POST /_sandbox/v1/deliveries/${id}/redeliver`, { method: "POST", headers })).status).toBe(404);
          expect((await ask(`POST /_sandbox/dashboard/redeliver`, form({ event_id: decoded(id) }))).status).toBe(303);
        }
        for (const id of bad("flt"))
          expect((await ask(`DELETE /_sandbox/v1/faults/${id}`, { method: "DELETE", headers })).status).toBeLessThan(500);
        for (const id of bad("dlv"))
          expect((await ask(`POST /_sandbox/v1/listen/deliveries/${id}`, json({ status: 200 }))).status).toBeLessThan(500);
        for (const cursor of ["%00", "%FF", "a%00b"]) expect((await ask(`GET /_sandbox/v1/deliveries?cursor=${cursor}`)).status).toBe(422);
        // A NUL in a JSON string: the field it is in, named in a 422.
        const nul = "a\u0000b";
        const person = newCounterparty();
        const fields = [
          ["/api/v1/send/counterparties/", { ...person, first_name: nul }, "first_name"],
          ["/api/v1/send/counterparties/", { ...person, email: `a${nul}@example.com` }, "email"],
          [
            "/api/v1/earn/payment-sessions/",
            { amount: 5, currency: "EUR", counterparty_id: `cp_${nul}`, redirect_url: "https://shop.example.com/" },
            "counterparty_id",
          ],
          [
            "/api/v1/earn/payment-sessions/",
            {
              amount: 5,
              currency: "EUR",
              counterparty_id: session.counterparty_id,
              order_id: nul,
              redirect_url: "https://shop.example.com/",
            },
            "order_id",
          ],
          [
            "/api/v1/earn/payment-sessions/",
            { amount: 5, currency: "EUR", counterparty_id: session.counterparty_id, redirect_url: `https://shop.example.com/${nul}` },
            "redirect_url",
          ],
          ["/webhooks", { url: `https://shop.example.com/${nul}` }, "url"],
          ["/_sandbox/v1/listen/deliveries/dlv_AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA", { error: nul }, "error"],
          ["/_sandbox/v1/faults", { target: "request", effect: "drop", operation_id: nul }, "operation_id"],
        ] as const;
        for (const [route, body, field] of fields) {
          const { status, body: text } = await ask(`POST ${route}`, json(body));
          expect([route, field, status, JSON.parse(text).errors?.map((e: { field: string }) => e.field)]).toEqual([
            route,
            field,
            422,
            [field],
          ]);
        }
        // Another kind's id where a counterparty's goes: refused as an unknown one, the database not asked.
        const misplaced = await ask(
          "POST /api/v1/earn/payment-sessions/",
          json({ ...{ amount: 5, currency: "EUR" }, counterparty_id: session.id, redirect_url: "https://shop.example.com/" }),
        );
        expect([misplaced.status, JSON.parse(misplaced.body).errors]).toEqual([
          422,
          [{ field: "counterparty_id", message: "must be the id of an existing PAYIN counterparty" }],
        ]);
        // A header node:http takes: an Idempotency-Key of bytes that are not ASCII (read as Latin-1); one with a NUL it refuses itself.
        const created = JSON.stringify(newCounterparty());
        const keyed = await raw(
          hosted.port,
          Buffer.concat([
            Buffer.from(`POST /api/v1/send/counterparties/ HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer ${account.token}\r\n`),
            Buffer.from([...Buffer.from("Idempotency-Key: k"), 0xff, 0xfe]),
            Buffer.from(`\r\nContent-Type: application/json\r\nConnection: close\r\nContent-Length: ${created.length}\r\n\r\n${created}`),
          ]),
          false,
        );
        expect(keyed.status).toBe(201);
        const nulKey = await raw(
          hosted.port,
          `GET /webhooks HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer ${account.token}\r\nIdempotency-Key: a\0b\r\n\r\n`,
        );
        expect(nulKey.status).toBe(400);
        // The dashboard's cookie: a token that is not percent-encoded UTF-8, or that holds a NUL (only its hash is kept).
        for (const token of ["%FF", "%00x"])
          expect((await ask("GET /_sandbox/dashboard", { headers: { cookie: `payin_sandbox_token=${token}` } })).status).toBe(200);
      } finally {
        spy.mockRestore();
      }
      expect(answers.filter((a) => a.status >= 500)).toEqual([]);
      expect(answers.filter((a) => THEIR_WORDS.test(a.body))).toEqual([]);
      expect(errors).toEqual([]);
      const metrics = await (await fetch(`${hosted.url}/_sandbox/metrics`)).text();
      expect(metrics).not.toMatch(/status="5\d\d"/);
    },
  );
});
