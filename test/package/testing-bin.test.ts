// The installed testing toolkit and payin-trigger, and the installed flows run by redocly respect,
// against the installed payin-sandbox.
import { readFileSync } from "node:fs";
import { createServer } from "node:http";
import type { AddressInfo } from "node:net";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { root } from "../../scripts/lib/paths.ts";
import { cli, exec, project, run, startBin } from "./support/consumer.ts";

describe("the installed testing toolkit", () => {
  it("retries with one key, drives the sandbox typed, and builds events that verify and bent ones that do not", async () => {
    const result = await run(process.execPath, ["toolkit.js"]);
    expect(result).toMatchObject({ code: 0, stderr: "" });
    expect(JSON.parse(result.stdout)).toEqual({ created: 201, attempts: [201, 503], sameKey: true, verified: true, refused: 9 });
  });

  it("payin-trigger success runs on the installed payin-sandbox, every event acknowledged, and its dashboard shows them", async () => {
    const started = startBin("payin-sandbox", process.execPath);
    const receiver = createServer((req, res) => {
      req.resume();
      res.writeHead(204).end();
    });
    try {
      const url = await started.url;
      await new Promise<void>((resolve) => receiver.listen(0, "127.0.0.1", resolve));
      const hook = `http://127.0.0.1:${(receiver.address() as AddressInfo).port}/hook`;
      const trigger = path.join(project, "node_modules", "payin-acceptance-contract", "dist", "src", "trigger", "cli.js");
      const result = await run(process.execPath, [trigger, "success", "--base-url", url, "--token", "consumer", "--url", hook]);
      expect(result).toMatchObject({ code: 0, stdout: expect.stringMatching(/: 5 of 5 events acknowledged\n$/) });
      // The installed sandbox's dashboard shows that session to the token's browser.
      const sessionId = /^session (ps_\S+): /m.exec(result.stdout)![1]!;
      const signIn = await fetch(`${url}/_sandbox/dashboard/sign-in`, {
        method: "POST",
        headers: { "content-type": "application/x-www-form-urlencoded" },
        body: "token=consumer",
        redirect: "manual",
      });
      const cookie = signIn.headers.get("set-cookie")!.split(";")[0]!;
      const page = await (await fetch(`${url}/_sandbox/dashboard`, { headers: { cookie } })).text();
      expect(page).toContain(sessionId);
      expect(page).toContain('<span class="kind">transaction-settled</span>');
    } finally {
      receiver.close();
      started.child.kill("SIGTERM");
    }
  });

  it("payin-trigger takes a secret with or without whsec_, and refuses one that is not base64 (exit 2)", async () => {
    const bad = await run(process.execPath, [cli("trigger"), "session-created", "--url", "http://127.0.0.1:1/", "--secret", "not base64!"]);
    expect([bad.code, bad.stderr.split("\n")[0]]).toEqual([
      2,
      "payin-trigger: --secret must be the endpoint's signing secret: whsec_ followed by base64, " +
        "as POST /webhooks returns it (the whsec_ prefix may be left off)",
    ]);
    const bare = await run(process.execPath, [
      cli("trigger"),
      "session-created",
      "--url",
      "http://127.0.0.1:1/",
      "--secret",
      "MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw",
      "--attempts",
      "1",
    ]);
    expect(bare.stderr).not.toMatch(/--secret/);
  });
});

describe("the installed flows", () => {
  it("run green with redocly respect against the installed payin-sandbox, every workflow", async () => {
    const started = startBin("payin-sandbox", process.execPath);
    try {
      const url = await started.url;
      const conformance = path.join(project, "node_modules", "payin-acceptance-contract", "dist", "src", "conformance", "cli.js");
      const { stdout } = await exec(process.execPath, [conformance, "flows", "--base-url", url, "--token", "consumer", "--control"], {
        cwd: project,
      });
      const workflows = JSON.parse(readFileSync(path.join(root, "generated", "payin.arazzo.json"), "utf8")).workflows;
      expect(stdout.trimEnd().split("\n").at(-1)).toBe(`${workflows.length} passed, 0 failed, 0 skipped`);
    } finally {
      started.child.kill("SIGTERM");
    }
  });
});
