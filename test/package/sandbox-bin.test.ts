// The installed payin-sandbox and startSandbox(): on the oldest Node the package supports and on
// this one, each passes every check of payin-conformance; and what it says when it cannot start,
// to a path a slash away, to a URL it refuses, and to a token over its rate.
import { createServer } from "node:http";
import type { AddressInfo } from "node:net";
import { writeFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { cli, NODES, project, run, startBin, work } from "./support/consumer.ts";

describe.each(Object.entries(NODES))("on %s, from a fresh consumer project", (_, node) => {
  it("startSandbox() serves the data it is sent, and says nothing else", async () => {
    const result = await run(node, ["sandbox.js"]);
    expect(result).toEqual({ code: 0, stdout: expect.any(String), stderr: "" });
    expect(JSON.parse(result.stdout)).toEqual({ created: 201, again: 409, code: "counterparty_exists", same: true });
  });

  it("payin-sandbox passes every check of payin-conformance, with --control and the whole coverage", async () => {
    const started = startBin("payin-sandbox", node);
    try {
      const url = await started.url;
      const conformance = path.join(project, "node_modules", "payin-acceptance-contract", "dist", "src", "conformance", "cli.js");
      const { code, stdout, stderr } = await run(node, [
        conformance,
        "service",
        "--base-url",
        url,
        "--token",
        "consumer",
        "--control",
        "--min-coverage",
        "100",
      ]);
      expect(code, `${stdout}\n${stderr}`).toBe(0);
      expect(stdout).toMatch(/^coverage: 100 % /m);
      expect(stdout.trimEnd().split("\n").at(-1)).toMatch(/^[1-9]\d* passed, 0 failed, 0 skipped$/);
    } finally {
      started.child.kill("SIGTERM");
    }
  });
});

describe("errors that say what to do, from the installed bins", () => {
  const lastLine = (text: string) => text.trimEnd().split("\n").at(-1);

  it("payin-sandbox --db where no database can be: exit 1, one line naming the path and the reason", async () => {
    writeFileSync(path.join(work, "a-file"), "");
    const cases: Array<[string, RegExp]> = [
      [path.join(work, "missing", "sandbox.db"), /the folder \S+missing does not exist; create it/],
      [path.join(work, "a-file", "sandbox.db"), /\S+a-file is a file, not a folder/],
      [work, /it is a folder, not a file/],
    ];
    for (const [db, reason] of cases) {
      const result = await run(process.execPath, [cli("sandbox"), "--port", "0", "--db", db]);
      expect(result.code, db).toBe(1);
      expect(result.stderr.trimEnd().split("\n"), db).toEqual([
        expect.stringMatching(
          new RegExp(`^payin-sandbox: The sandbox cannot open its database ${db.replace(/[.*+?^${}()|[\]\\]/g, "\\$&")}: ${reason.source}`),
        ),
      ]);
    }
  });

  it.each([
    ["payin-sandbox", "sandbox"],
    ["payin-mock", "mock"],
  ])("%s on a taken port: exit 1, naming the port and --port", async (name, dir) => {
    const taken = createServer().listen(0, "127.0.0.1");
    await new Promise((resolve) => taken.once("listening", resolve));
    const { port } = taken.address() as AddressInfo;
    try {
      const result = await run(process.execPath, [cli(dir), "--port", String(port)]);
      expect(result.code).toBe(1);
      expect(lastLine(result.stderr)).toBe(
        `${name}: port ${port} on 127.0.0.1 is taken by another process; pick another with --port N, or --port 0 for any free port`,
      );
    } finally {
      taken.close();
    }
  });

  it("the installed sandbox names the contract's path a slash away, the https:// rule for webhooks, and what metrics need", async () => {
    const started = startBin("payin-sandbox", process.execPath);
    try {
      const url = await started.url;
      const headers = { Authorization: "Bearer consumer-errors", "Content-Type": "application/json" };
      const noSlash = await fetch(`${url}/api/v1/earn/payment-sessions`, { method: "POST", headers, body: "{}" });
      expect([noSlash.status, (await noSlash.json()).detail]).toEqual([
        404,
        "No operation at /api/v1/earn/payment-sessions; the contract's path is /api/v1/earn/payment-sessions/ (with the trailing slash).",
      ]);
      const http = await fetch(`${url}/webhooks`, {
        method: "POST",
        headers,
        body: JSON.stringify({ url: "http://shop.example.com/hooks" }),
      });
      expect(http.status).toBe(422);
      expect((await http.json()).errors).toEqual([
        {
          field: "url",
          message: expect.stringContaining(
            "the sandbox also accepts loopback http:// URLs (localhost, 127.0.0.0/8, [::1]), but every other host needs https://",
          ),
        },
      ]);
      // Without the optional peer installed (this project has none yet): what to install.
      const metrics = await fetch(`${url}/_sandbox/metrics`);
      expect([metrics.status, (await metrics.json()).detail]).toEqual([
        501,
        "GET /_sandbox/metrics needs prom-client, an optional peer dependency of the package: npm install prom-client.",
      ]);
    } finally {
      started.child.kill("SIGTERM");
    }
  });

  it("the installed sandbox, --rate-limit 20 --min-token-length 24: 429s to one token's burst, none to another; 401 to test", async () => {
    const started = startBin("payin-sandbox", process.execPath, project, ["--rate-limit", "20", "--min-token-length", "24"]);
    try {
      const url = await started.url;
      const get = (token: string) => fetch(`${url}/webhooks`, { headers: { Authorization: `Bearer ${token}` } });
      const short = await get("test");
      expect([short.status, (await short.json()).detail]).toEqual([
        401,
        "This sandbox takes bearer tokens of at least 24 characters, so that no one finds an account by guessing; this one has 4.",
      ]);
      const [busy, calm] = ["consumer-busy-0123456789abcdef", "consumer-calm-0123456789abcdef"];
      const calmAnswers: number[] = [];
      const calmRun = (async () => {
        for (let i = 0; i < 10; i++) calmAnswers.push((await get(calm)).status);
      })();
      const burst = await Promise.all(Array.from({ length: 200 }, () => get(busy)));
      await calmRun;
      const limited = burst.filter((res) => res.status === 429);
      expect(limited.length).toBeGreaterThan(100);
      expect(limited.every((res) => res.headers.get("retry-after") === "1")).toBe(true);
      expect(calmAnswers).toEqual(Array(10).fill(404));
    } finally {
      started.child.kill("SIGTERM");
    }
  });

  it("the installed sandbox, --rate-limit 2: a signed-in dashboard loaded 20 times at once gets 429 as the API does", async () => {
    const started = startBin("payin-sandbox", process.execPath, project, ["--rate-limit", "2"]);
    try {
      const url = await started.url;
      const token = `consumer-dashboard-${crypto.randomUUID()}`;
      const form = (body: string) => ({
        method: "POST",
        headers: { "content-type": "application/x-www-form-urlencoded", origin: url },
        body,
        redirect: "manual" as const,
      });
      const signIn = await fetch(`${url}/_sandbox/dashboard/sign-in`, form(`token=${token}`));
      const cookie = signIn.headers.get("set-cookie")!.split(";")[0]!;
      const loads = await Promise.all(Array.from({ length: 20 }, () => fetch(`${url}/_sandbox/dashboard`, { headers: { cookie } })));
      const refused = loads.filter((res) => res.status === 429);
      expect(refused.length).toBeGreaterThanOrEqual(17);
      expect(refused.every((res) => res.headers.get("retry-after") === "1")).toBe(true);
      const api = await fetch(`${url}/webhooks`, { headers: { Authorization: `Bearer ${token}` } });
      expect(api.status).toBe(429);
    } finally {
      started.child.kill("SIGTERM");
    }
  });

  it("the installed sandbox's dashboard advances the clock as far as the control API does: 315,360,000 s", async () => {
    const started = startBin("payin-sandbox", process.execPath);
    try {
      const url = await started.url;
      const token = `consumer-advance-${crypto.randomUUID()}`;
      const post = (route: string, body: string, cookie = "") =>
        fetch(`${url}/_sandbox/dashboard/${route}`, {
          method: "POST",
          headers: { "content-type": "application/x-www-form-urlencoded", origin: url, cookie },
          body,
          redirect: "manual",
        });
      const cookie = (await post("sign-in", `token=${token}`)).headers.get("set-cookie")!.split(";")[0]!;
      const advanced = await post("advance", "seconds=315360000", cookie);
      // What the button did, in the cookie the page reads once.
      const note = /^payin_sandbox_note=ok\.([^;]*)/.exec(advanced.headers.get("set-cookie")!)![1]!;
      expect(decodeURIComponent(note)).toBe("The clock moved 315360000 s.");
      const clock = await fetch(`${url}/_sandbox/v1/clock/advance`, {
        method: "POST",
        headers: { Authorization: `Bearer ${token}`, "Content-Type": "application/json" },
        body: JSON.stringify({ seconds: 1 }),
      });
      expect((await clock.json()).offset_seconds).toBe(315360001);
    } finally {
      started.child.kill("SIGTERM");
    }
  });
});
