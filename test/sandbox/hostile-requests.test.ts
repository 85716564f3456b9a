// What third-party tools sent the sandbox: a forged Host header, HTTP/1.0 without
// one, requests node:http cannot parse, and HEAD. Raw sockets, so that nothing on the way
// tidies the request up.
import { connect } from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startSandbox, type RunningSandbox } from "../../src/sandbox/index.ts";
import { newCounterparty } from "../../src/conformance/fixtures.ts";
import { accountOn } from "../support/sandbox-account.ts";

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

/** Writes `request` as it is on a new connection, ends the sending side, and reads the answer until the server closes. */
function raw(port: number, request: string | Buffer): Promise<RawAnswer> {
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
    socket.end(request);
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
