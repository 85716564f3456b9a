// The guard that keeps every test run on loopback (test/support/loopback-guard.mjs): preloaded
// into every process the suite starts by the global setup, and installed in each worker by the
// setup file. What leaves loopback is refused at once and recorded (in the process, and in the
// log every process appends to); what stays there goes through.
import { execFile } from "node:child_process";
import dns from "node:dns";
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { createServer, get, type Server } from "node:http";
import { tmpdir } from "node:os";
import path from "node:path";
import { promisify } from "node:util";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import setupLoopbackRun, { withLoopbackPreload } from "../support/loopback-global-setup.ts";
import { isLoopback, outsideLoopback, readLoopbackLog } from "../support/loopback-guard.mjs";
import { startDnsServer } from "../support/dns-server.ts";

// Each test leaves the list empty, so that the setup file's own check passes for this file.
afterEach(() => void (outsideLoopback.length = 0));

const httpGet = (url: string) =>
  new Promise<number>((resolve, reject) => get(url, (res) => resolve(res.resume().statusCode!)).on("error", reject));

let server: Server;
let port: number;
beforeAll(async () => {
  server = createServer((_, res) => res.end("ok")).listen(0, "127.0.0.1");
  await new Promise((resolve) => server.once("listening", resolve));
  port = (server.address() as { port: number }).port;
});
afterAll(() => void server.close());

describe("the loopback guard, in this worker", () => {
  it("refuses a connection to another host itself, without looking it up, and remembers it", async () => {
    await expect(httpGet("http://shop.example.com:8080/hooks")).rejects.toMatchObject({
      code: "ECONNREFUSED",
      message: expect.stringContaining("loopback guard refused shop.example.com"),
    });
    await expect(fetch("https://203.0.113.9:8443/")).rejects.toThrow();
    expect(outsideLoopback).toEqual(["shop.example.com", "203.0.113.9"]);
  });

  it("refuses a look-up of another host, in every form of node:dns", async () => {
    await expect(
      new Promise((resolve, reject) => dns.lookup("shop.example.com", (error, address) => (error ? reject(error) : resolve(address)))),
    ).rejects.toMatchObject({ code: "ENOTFOUND" });
    await expect(dns.promises.lookup("api.example.com")).rejects.toMatchObject({ code: "ENOTFOUND" });
    await expect(dns.promises.resolve4("mx.example.com")).rejects.toMatchObject({ code: "ENOTFOUND" });
    await expect(new dns.promises.Resolver().resolveTxt("txt.example.com")).rejects.toMatchObject({ code: "ENOTFOUND" });
    await expect(
      new Promise((resolve, reject) =>
        new dns.Resolver().resolve6("six.example.com", (error, found) => (error ? reject(error) : resolve(found))),
      ),
    ).rejects.toMatchObject({ code: "ENOTFOUND" });
    expect(outsideLoopback).toEqual(["shop.example.com", "api.example.com", "mx.example.com", "txt.example.com", "six.example.com"]);
  });

  it("lets a resolver pointed at a DNS server of the test's own on loopback ask about any name, and no other resolver", async () => {
    const server = await startDnsServer({ "shop.example.com": { A: ["203.0.113.7"] } });
    try {
      const own = new dns.promises.Resolver();
      own.setServers([server.address]);
      expect(await own.resolve4("shop.example.com")).toEqual(["203.0.113.7"]);
      const ownCallback = new dns.Resolver();
      ownCallback.setServers([server.address]);
      await expect(
        new Promise((resolve, reject) =>
          ownCallback.resolve4("shop.example.com", (error, found) => (error ? reject(error) : resolve(found))),
        ),
      ).resolves.toEqual(["203.0.113.7"]);
      expect(outsideLoopback).toEqual([]);
      const partly = new dns.promises.Resolver();
      partly.setServers([server.address, "10.0.0.53"]);
      await expect(partly.resolve4("api.example.com")).rejects.toMatchObject({ code: "ENOTFOUND" });
      expect([outsideLoopback, server.asked("api.example.com")]).toEqual([["api.example.com"], 0]);
    } finally {
      await server.close();
    }
  });

  it("lets loopback through, by address and by name", async () => {
    expect(await httpGet(`http://127.0.0.1:${port}/`)).toBe(200);
    expect(await httpGet(`http://localhost:${port}/`)).toBe(200);
    expect((await dns.promises.lookup("localhost")).address).toMatch(/^(127\.|::1)/);
    expect(outsideLoopback).toEqual([]);
  });

  it("knows loopback in every spelling, and nothing else", () => {
    for (const host of ["localhost", "LOCALHOST", "127.0.0.1", "127.8.9.10", "::1", "[::1]", "0:0:0:0:0:0:0:1", "::ffff:127.0.0.1"])
      expect(isLoopback(host), host).toBe(true);
    for (const host of [
      "0.0.0.0",
      "::",
      "128.0.0.1",
      "10.0.0.1",
      "::2",
      "::ffff:10.0.0.1",
      "localhost.example.com",
      "127.0.0.1.example.com",
      "example.com",
    ])
      expect(isLoopback(host), host).toBe(false);
  });
});

// The guard is plain JavaScript so that every Node a test may start can preload it: the Node of
// these tests, and Debian's Node 20 when the machine has one.
const SYSTEM_NODE = "/usr/bin/node";
const nodes = [{ name: `this Node (${process.version})`, node: process.execPath }];
if (existsSync(SYSTEM_NODE)) nodes.push({ name: `Node at ${SYSTEM_NODE}`, node: SYSTEM_NODE });

// The child does not import the guard: only the preload in NODE_OPTIONS can stop it.
const CHILD = `
import dns from "node:dns";
import net from "node:net";
import { Worker } from "node:worker_threads";
const port = Number(process.argv[2]);
const outcomeOf = async (what) => {
  try {
    return { ok: await what() };
  } catch (error) {
    return { code: error.code ?? error.cause?.code, message: String(error.message) };
  }
};
const connect = (host) =>
  new Promise((resolve, reject) =>
    net.connect({ host, port: 443 }).once("connect", () => resolve("connected")).once("error", reject),
  );
const inWorker = (code) =>
  new Promise((resolve, reject) => {
    const worker = new Worker(
      code +
        ".then((r) => require('node:worker_threads').parentPort.postMessage({ r }), " +
        "(e) => require('node:worker_threads').parentPort.postMessage({ e: { code: e.code, message: e.message } }))",
      { eval: true },
    );
    worker.once("message", ({ r, e }) => (worker.terminate(), e ? reject(e) : resolve(r)));
  });
console.log(JSON.stringify({
  requireModule: Boolean(process.features.require_module),
  lookup: await outcomeOf(() =>
    new Promise((resolve, reject) => dns.lookup("registry.example.org", (e, a) => (e ? reject(e) : resolve(a)))),
  ),
  lookupPromise: await outcomeOf(() => dns.promises.lookup("telemetry.example.org").then((r) => r.address)),
  resolve: await outcomeOf(() => new dns.promises.Resolver().resolveAny("any.example.org")),
  connect: await outcomeOf(() => connect("203.0.113.7")),
  fetch: await outcomeOf(() => fetch("https://api.example.org/v1").then((r) => r.status)),
  loopback: await outcomeOf(async () => [
    (await fetch("http://127.0.0.1:" + port + "/")).status,
    (await fetch("http://localhost:" + port + "/")).status,
    (await dns.promises.lookup("localhost")).address,
  ]),
  baseUrl: await outcomeOf(async () => (await fetch("http://0.0.0.0:" + port + "/")).status),
  worker: await outcomeOf(() => inWorker("require('node:dns').promises.lookup('thread.example.org')")),
}));
`;

describe.each(nodes)("the loopback guard, preloaded into a child process: $name", ({ node }) => {
  let dir: string;
  let script: string;
  beforeAll(() => {
    dir = mkdtempSync(path.join(tmpdir(), "payin-loopback-"));
    script = path.join(dir, "child.mjs");
    writeFileSync(script, CHILD);
  });
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  /** Runs the child with the guard preloaded, its log in a file of this test, not the run's. */
  async function runChild(env: Record<string, string> = {}) {
    const log = path.join(dir, `${crypto.randomUUID()}.log`);
    const { PAYIN_BASE_URL: _, ...inherited } = process.env;
    const { stdout } = await promisify(execFile)(node, [script, String(port)], {
      env: { ...inherited, NODE_OPTIONS: withLoopbackPreload(process.env.NODE_OPTIONS), PAYIN_LOOPBACK_LOG: log, ...env },
    });
    return { results: JSON.parse(stdout), log: existsSync(log) ? readFileSync(log, "utf8") : "" };
  }

  it("refuses a look-up and a connection outside loopback itself, and writes each to the log", async () => {
    const { results, log } = await runChild();
    for (const kind of ["lookup", "lookupPromise", "resolve"])
      expect(results[kind], kind).toMatchObject({ code: "ENOTFOUND", message: expect.stringContaining("loopback guard refused") });
    expect(results.connect).toMatchObject({ code: "ECONNREFUSED", message: expect.stringContaining("loopback guard refused 203.0.113.7") });
    expect(results.fetch).toMatchObject({ code: "ECONNREFUSED" });
    // A worker thread too, where the Node can require an ES module (20.19, 22.12 and later).
    if (node === process.execPath) expect(results.requireModule).toBe(true);
    if (results.requireModule)
      expect(results.worker).toMatchObject({
        code: "ENOTFOUND",
        message: expect.stringContaining("loopback guard refused thread.example.org"),
      });

    const entries = readLoopbackLog(log);
    expect(entries.map(({ process, kind, host }) => ({ process, kind, host }))).toEqual([
      { process: "child.mjs", kind: "lookup", host: "registry.example.org" },
      { process: "child.mjs", kind: "lookup", host: "telemetry.example.org" },
      { process: "child.mjs", kind: "resolveAny", host: "any.example.org" },
      { process: "child.mjs", kind: "connect", host: "203.0.113.7" },
      { process: "child.mjs", kind: "connect", host: "api.example.org" },
      { process: "child.mjs", kind: "connect", host: "0.0.0.0" },
      ...(results.requireModule ? [{ process: "[worker eval]", kind: "lookup", host: "thread.example.org" }] : []),
    ]);
    expect(new Set(entries.map((e) => e.pid)).size).toBe(1);
    expect(entries[0]!.pid).not.toBe(process.pid);
    // The test file that started the child is named in its lines.
    expect(entries[0]!.where).toBe(path.join("test", "lib", "loopback-guard.test.ts"));
  });

  it("lets a resolver pointed at a DNS server of the test's own on loopback ask about any name, and no other resolver", async () => {
    const server = await startDnsServer({ "shop.example.com": { A: ["203.0.113.7"] } });
    try {
      const own = new dns.promises.Resolver();
      own.setServers([server.address]);
      expect(await own.resolve4("shop.example.com")).toEqual(["203.0.113.7"]);
      const ownCallback = new dns.Resolver();
      ownCallback.setServers([server.address]);
      await expect(
        new Promise((resolve, reject) =>
          ownCallback.resolve4("shop.example.com", (error, found) => (error ? reject(error) : resolve(found))),
        ),
      ).resolves.toEqual(["203.0.113.7"]);
      expect(outsideLoopback).toEqual([]);
      const partly = new dns.promises.Resolver();
      partly.setServers([server.address, "10.0.0.53"]);
      await expect(partly.resolve4("api.example.com")).rejects.toMatchObject({ code: "ENOTFOUND" });
      expect([outsideLoopback, server.asked("api.example.com")]).toEqual([["api.example.com"], 0]);
    } finally {
      await server.close();
    }
  });

  it("lets loopback through, by address and by name", async () => {
    const { results } = await runChild();
    expect(results.loopback.ok).toEqual([200, 200, expect.stringMatching(/^(127\.|::1)/)]);
  });

  it("lets through the host PAYIN_BASE_URL names, and only that one", async () => {
    const { results, log } = await runChild({ PAYIN_BASE_URL: `http://0.0.0.0:${port}` });
    expect(results.baseUrl.ok).toBe(200);
    expect(readLoopbackLog(log).map((e) => e.host)).not.toContain("0.0.0.0");
    expect(readLoopbackLog(log).map((e) => e.host)).toContain("api.example.org");
  });
});

describe("the loopback log", () => {
  it("fails the run at the global setup's teardown, naming each process and host no test acknowledged", () => {
    const saved = { ...process.env };
    const dir = mkdtempSync(path.join(tmpdir(), "payin-loopback-"));
    const log = path.join(dir, "run.log");
    try {
      // A log named beforehand is kept, and read only from where it ended when the run began.
      writeFileSync(log, "9\told.1\tbefore.js\tlookup\tbefore.example\t\n");
      process.env.PAYIN_LOOPBACK_LOG = log;
      process.env.NODE_OPTIONS = "--max-old-space-size=4096";
      delete process.env.STRYKER_MUTATOR_WORKER;
      const teardown = setupLoopbackRun();
      expect(process.env.NODE_OPTIONS).toBe(withLoopbackPreload("--max-old-space-size=4096"));
      expect(process.env.NODE_OPTIONS).toMatch(/^--max-old-space-size=4096 --import=file:\/\/\/.*\/test\/support\/loopback-guard\.mjs$/);
      writeFileSync(
        log,
        "42\tz.1\tredocly\tconnect\totel.example\ttest/x.test.ts\n" +
          "42\tz.2\tredocly\tconnect\totel.example\ttest/x.test.ts\n" +
          "43\ty.1\tforks.js (vitest)\tlookup\tseen.example\t\n" +
          "43\ty.1\tforks.js (vitest)\tacknowledged\tseen.example\t\n",
        { flag: "a" },
      );
      expect(teardown).toThrow(
        "The loopback guard refused 2 look-up(s) or connection(s) outside loopback during the run:\n" +
          "  redocly [test/x.test.ts] → otel.example (connect): 2 time(s), pid 42",
      );
      expect(process.env.NODE_OPTIONS).toBe("--max-old-space-size=4096");
    } finally {
      for (const name of Object.keys(process.env)) if (!(name in saved)) delete process.env[name];
      Object.assign(process.env, saved);
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it("leaves out the refusals a test acknowledged by emptying outsideLoopback", () => {
    const text = [
      "1\ta.1\tx.mjs\tlookup\tone.example\t",
      "1\ta.2\tx.mjs\tconnect\ttwo.example\t",
      "2\tb.1\ty.mjs\tlookup\tthree.example\tt.test.ts",
      "1\ta.1\tx.mjs\tacknowledged\tone.example\t",
    ].join("\n");
    expect(readLoopbackLog(text).map((e) => e.host)).toEqual(["two.example", "three.example"]);
  });
});
