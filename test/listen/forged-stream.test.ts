// payin-listen given a stream that is not a sandbox's (a wrong --base-url, a forger on the way):
// it passes on only the headers a delivery needs, so that a Cookie or an Authorization the stream
// names never reaches the developer's own server; it answers a delivery it cannot pass on as
// failed, with a line, and keeps running; it waits out a 429 or a 503 at connect, and its pause
// before connecting again, on the clock it is given; and it sends no token in clear off loopback.
import { execFile } from "node:child_process";
import path from "node:path";
import { promisify } from "node:util";
import { afterEach, describe, expect, it } from "vitest";
import { listen, ListenRefused, type Listener } from "../../src/listen/index.ts";
import { ManualClock } from "../support/manual-clock.ts";
import { startReceiver, type Receiver } from "../support/receiver.ts";
import { startForgedStream, type ForgedStream } from "./forged-stream.ts";

const CLI = path.resolve("src/listen/cli.ts");
const BODY = JSON.stringify({ id: "msg_forged1", type: "session-created", data: {} });
const SIGNATURE = { "webhook-id": "msg_forged1", "webhook-timestamp": "1767225600", "webhook-signature": "v1,Zm9yZ2Vk" };

let stream: ForgedStream;
let receiver: Receiver;
let listener: Listener | undefined;
afterEach(async () => {
  await listener?.close();
  listener = undefined;
  await Promise.all([stream?.close(), receiver?.close()]);
});

/** A listener on the forged stream, its lines and warnings kept; the clock the test's when given. */
async function listening(clock?: ManualClock) {
  const lines: string[] = [];
  const warnings: string[] = [];
  const started = listen({
    baseUrl: stream.url,
    token: "t",
    forwardTo: receiver.url,
    log: (line) => lines.push(line),
    warn: (line) => warnings.push(line),
    ...(clock ? { clock } : {}),
  });
  return { started, lines, warnings };
}

describe("payin-listen on a forged stream", () => {
  it("passes on the signature's headers and Content-Type only: no Cookie, Authorization or other header the stream names", async () => {
    [stream, receiver] = await Promise.all([startForgedStream(), startReceiver()]);
    const { started } = await listening();
    listener = await started;
    const headers = {
      ...SIGNATURE,
      "Content-Type": "application/json",
      Cookie: "session=stolen",
      Authorization: "Bearer x",
      "X-Other": "1",
    };
    stream.send("delivery", JSON.stringify({ delivery_id: "d1", headers, body: BODY }));
    const [arrived] = await receiver.delivered(1);
    expect(arrived!.body).toBe(BODY);
    expect(arrived!.headers).toMatchObject({ ...SIGNATURE, "content-type": "application/json" });
    for (const name of ["cookie", "authorization", "x-other"]) expect(arrived!.headers, name).not.toHaveProperty(name);
    await stream.answered(1);
    expect(stream.answers).toEqual([{ id: "d1", answer: { status: 204 } }]);
  });

  it("answers as failed, a line each, a delivery whose body is not JSON or with no headers; skips one not JSON; goes on", async () => {
    [stream, receiver] = await Promise.all([startForgedStream(), startReceiver()]);
    const { started, warnings } = await listening();
    listener = await started;
    stream.send("delivery", JSON.stringify({ delivery_id: "d1", headers: SIGNATURE, body: "not JSON {" }));
    stream.send("delivery", JSON.stringify({ delivery_id: "d2", body: BODY }));
    stream.send("delivery", "not JSON either");
    stream.send("delivery", JSON.stringify({ delivery_id: "d3", headers: SIGNATURE, body: BODY }));
    await stream.answered(3);
    expect(stream.answers).toEqual([
      { id: "d1", answer: { error: "payin-listen did not pass it on: its body is not JSON." } },
      { id: "d2", answer: { error: "payin-listen did not pass it on: it has no headers." } },
      { id: "d3", answer: { status: 204 } },
    ]);
    expect(receiver.attempts.map((a) => a.id)).toEqual(["msg_forged1"]);
    expect(warnings).toEqual([
      `payin-listen: a delivery from ${stream.url} was not passed on: its body is not JSON`,
      `payin-listen: a delivery from ${stream.url} was not passed on: it has no headers`,
      `payin-listen: ${stream.url} sent a "delivery" event that is not JSON: ignored`,
    ]);
  });

  it("waits out a 429 and a 503 at connect for their Retry-After, on its clock, then connects", async () => {
    [stream, receiver] = await Promise.all([startForgedStream(), startReceiver()]);
    stream.connects.push({ status: 429, retryAfter: "30" }, { status: 503, retryAfter: "120" });
    const clock = new ManualClock();
    const { started, lines } = await listening(clock);
    await expect.poll(() => clock.dueIn()).toContain(30_000);
    expect(lines).toEqual([`${stream.url} answered 429 to the listener: Not now; connecting again in 30 s.`]);
    await clock.advance(29_999);
    expect(stream.connected).toBe(1);
    await clock.advance(1);
    await expect.poll(() => clock.dueIn()).toContain(120_000);
    expect(stream.connected).toBe(2);
    expect(lines[1]).toBe(`${stream.url} answered 503 to the listener: Not now; connecting again in 120 s.`);
    await clock.advance(120_000);
    listener = await started;
    expect(stream.connected).toBe(3);
  });

  it("pauses before connecting again, once the stream drops, on its clock", async () => {
    [stream, receiver] = await Promise.all([startForgedStream(), startReceiver()]);
    const clock = new ManualClock();
    const { started, lines } = await listening(clock);
    listener = await started;
    stream.drop();
    await expect.poll(() => lines.at(-1)).toBe(`The connection to ${stream.url} was lost; connecting again in 0.5 s.`);
    expect(stream.connected).toBe(1);
    await clock.advance(500);
    await expect.poll(() => stream.connected).toBe(2);
    await expect.poll(() => lines.at(-1)).toBe(`Connected again to ${stream.url}.`);
  });
});

describe("a --base-url off this machine over http://", () => {
  it("is refused, the token unsent: by listen() unless insecureHttp, by the bin in one line naming --insecure-http, exit 2", async () => {
    await expect(listen({ baseUrl: "http://sandbox.example.com", token: "t", forwardTo: "http://127.0.0.1:3000/" })).rejects.toThrow(
      new ListenRefused(
        "http://sandbox.example.com is http:// to a host that is not loopback: the token would cross the network in clear. " +
          "Use https://, or insecureHttp to send it anyway.",
      ),
    );
    const ran = await promisify(execFile)(process.execPath, [
      CLI,
      "--base-url",
      "http://sandbox.example.com",
      "--token",
      "t",
      "--forward-to",
      "http://127.0.0.1:3000/",
    ]).catch((error: { code: number; stdout: string; stderr: string }) => error);
    expect(ran).toMatchObject({
      code: 2,
      stdout: "",
      stderr:
        "payin-listen: --base-url http://sandbox.example.com is http:// to a host that is not loopback: the token would cross the " +
        "network in clear; use https://, or --insecure-http to send it anyway\n",
    });
  });
});
