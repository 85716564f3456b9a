// The installed payin-listen given a stream that is not a sandbox's (test/listen/forged-stream.ts):
// the local endpoint gets no Cookie or Authorization the stream names, and a delivery whose body is
// not JSON is answered as failed, in a line on stderr, and the ones after it are passed on still.
import { spawn } from "node:child_process";
import { afterAll, describe, expect, it } from "vitest";
import { startReceiver } from "../support/receiver.ts";
import { startForgedStream } from "../listen/forged-stream.ts";
import { cli, project } from "./support/consumer.ts";

const SIGNATURE = { "webhook-id": "msg_forged1", "webhook-timestamp": "1767225600", "webhook-signature": "v1,Zm9yZ2Vk" };
const BODY = JSON.stringify({ id: "msg_forged1", type: "session-created", data: {} });
const stopped: Array<() => unknown> = [];
afterAll(async () => {
  for (const stop of stopped) await stop();
});

describe("the installed payin-listen on a forged stream", () => {
  it("passes on no Cookie or Authorization, and keeps running after a delivery whose body is not JSON", async () => {
    const [stream, receiver] = await Promise.all([startForgedStream(), startReceiver()]);
    const child = spawn(process.execPath, [cli("listen"), "--base-url", stream.url, "--token", "t", "--forward-to", receiver.url], {
      cwd: project,
      stdio: ["ignore", "pipe", "pipe"],
    });
    stopped.push(
      () => child.kill("SIGKILL"),
      () => stream.close(),
      () => receiver.close(),
    );
    let [stdout, stderr] = ["", ""];
    child.stdout!.on("data", (chunk: Buffer) => void (stdout += chunk));
    child.stderr!.on("data", (chunk: Buffer) => void (stderr += chunk));
    await expect.poll(() => stdout, { timeout: 10_000 }).toMatch(/^Ready! /);

    stream.send("delivery", JSON.stringify({ delivery_id: "d1", headers: SIGNATURE, body: "not JSON {" }));
    const headers = { ...SIGNATURE, "content-type": "application/json", cookie: "session=stolen", authorization: "Bearer x" };
    stream.send("delivery", JSON.stringify({ delivery_id: "d2", headers, body: BODY }));
    const [arrived] = await receiver.delivered(1);
    expect(arrived!.headers).not.toHaveProperty("cookie");
    expect(arrived!.headers).not.toHaveProperty("authorization");
    await stream.answered(2);
    expect(stream.answers).toEqual([
      { id: "d1", answer: { error: "payin-listen did not pass it on: its body is not JSON." } },
      { id: "d2", answer: { status: 204 } },
    ]);
    expect(stderr).toBe(`payin-listen: a delivery from ${stream.url} was not passed on: its body is not JSON\n`);
    expect(child.exitCode).toBeNull();
  }, 30_000);
});
