// A kept-alive connection whose next request came in time is served, however late the process
// gets to it: on a loaded machine the server's keep-alive timer runs late, and closing the socket
// then, with the request unread, sends the client a reset (what `npm test` under load, the bench's
// open loop and a chaos run met). Stalling this process stands for that load, deterministically:
// the request is written on the socket, then nothing runs until the keep-alive has passed. The
// keep-alive is made short (node:http holds it a second beyond) rather than waited out at 5 s.
// Raw sockets, so that no client's own keep-alive logic decides for it.
import { connect, type Socket } from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startSandbox, type RunningSandbox } from "../../src/sandbox/index.ts";

let sandbox: RunningSandbox;
beforeAll(async () => {
  sandbox = await startSandbox({ port: 0, keepAliveTimeoutMs: 1 });
});
afterAll(() => sandbox.close());

const REQUEST = "GET /_sandbox/health HTTP/1.1\r\nHost: sandbox\r\n\r\n";
/** node:http holds an idle connection a second beyond its keep-alive timeout: a stall this long outlasts it. */
const PAST_KEEP_ALIVE_MS = 1300;

/** Blocks this process (the sandbox's and the client's) as a loaded machine does: no timer, no I/O runs meanwhile. */
const stall = (ms: number) => Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, ms);

/** A connection's status lines as they come, and how it ended: closed by the server, or the error it met. */
function connection(port: number) {
  const socket: Socket = connect(port, "127.0.0.1");
  const statuses: string[] = [];
  const ended = new Promise<string>((resolve) => {
    socket.on("error", (error: NodeJS.ErrnoException) => resolve(error.code ?? error.message));
    socket.on("close", () => resolve("closed"));
  });
  return { socket, statuses, ended };
}

describe("a kept-alive connection", () => {
  it("serves a request sent within the keep-alive though the process stalls past it before reading it", async () => {
    const { socket, statuses, ended } = connection(sandbox.port);
    const bothAnswered = new Promise<void>((resolve) =>
      socket.on("data", (chunk: Buffer) => {
        statuses.push(...(chunk.toString().match(/^HTTP\/1\.1 \d+/gm) ?? []));
        if (statuses.length === 1) {
          socket.write(REQUEST);
          stall(PAST_KEEP_ALIVE_MS);
        }
        if (statuses.length === 2) resolve();
      }),
    );
    socket.write(REQUEST);
    const outcome = await Promise.race([bothAnswered.then(() => "answered"), ended]);
    socket.destroy();
    expect([outcome, statuses]).toEqual(["answered", ["HTTP/1.1 200", "HTTP/1.1 200"]]);
  });

  it("is still closed by the server once idle past the keep-alive, without a reset", async () => {
    const { socket, statuses, ended } = connection(sandbox.port);
    socket.on("data", (chunk: Buffer) => statuses.push(...(chunk.toString().match(/^HTTP\/1\.1 \d+/gm) ?? [])));
    socket.write(REQUEST);
    expect([await ended, statuses]).toEqual(["closed", ["HTTP/1.1 200"]]);
  });
});
