// The guard that keeps every test run on loopback (test/support/loopback-guard.ts, installed in
// each worker by the setup file): what leaves loopback is refused at once and remembered, and
// what stays there goes through.
import dns from "node:dns";
import { createServer, get } from "node:http";
import { afterEach, describe, expect, it } from "vitest";
import { outsideLoopback } from "../support/loopback-guard.ts";

// Each test leaves the list empty, so that the setup file's own check passes for this file.
afterEach(() => void (outsideLoopback.length = 0));

const httpGet = (url: string) =>
  new Promise<number>((resolve, reject) => get(url, (res) => resolve(res.resume().statusCode!)).on("error", reject));

describe("the loopback guard", () => {
  it("refuses a connection to another host at once, without looking it up, and remembers it", async () => {
    const started = performance.now();
    await expect(httpGet("http://shop.example.com:8080/hooks")).rejects.toMatchObject({ code: "ECONNREFUSED", message: expect.stringContaining("loopback guard refused shop.example.com") });
    await expect(fetch("https://203.0.113.9:8443/")).rejects.toThrow();
    expect(outsideLoopback).toEqual(["shop.example.com", "203.0.113.9"]);
    expect(performance.now() - started).toBeLessThan(5000);
  });

  it("refuses a look-up of another host, in both of node:dns's forms", async () => {
    await expect(new Promise((resolve, reject) => dns.lookup("shop.example.com", (error, address) => (error ? reject(error) : resolve(address))))).rejects.toMatchObject({ code: "ENOTFOUND" });
    await expect(dns.promises.lookup("api.example.com")).rejects.toMatchObject({ code: "ENOTFOUND" });
    expect(outsideLoopback).toEqual(["shop.example.com", "api.example.com"]);
  });

  it("lets loopback through, by address and by name", async () => {
    const server = createServer((_, res) => res.end("ok")).listen(0, "127.0.0.1");
    await new Promise((resolve) => server.once("listening", resolve));
    const { port } = server.address() as { port: number };
    try {
      expect(await httpGet(`http://127.0.0.1:${port}/`)).toBe(200);
      expect(await httpGet(`http://localhost:${port}/`)).toBe(200);
      expect((await dns.promises.lookup("localhost")).address).toMatch(/^(127\.|::1)/);
      expect(outsideLoopback).toEqual([]);
    } finally {
      server.close();
    }
  });
});
