// On a Node older than the package's floor, every entry point says what it needs, in one line.
import { existsSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { atLeast, NODE_FLOOR } from "../../src/lib/node-floor.ts";
import { cli, exec, OLD_NODE, run } from "./support/consumer.ts";

describe(`on a Node older than ${NODE_FLOOR}`, () => {
  // CI must have one (Debian's); a machine without it says so in the test list instead of dropping the run.
  if (!existsSync(OLD_NODE) && !process.env.CI) it.skip(`runs on an old Node: there is no ${OLD_NODE} on this machine`, () => {});
  it.runIf(process.env.CI)(`finds an old Node at ${OLD_NODE}, as CI installs it`, async () => {
    expect(existsSync(OLD_NODE), `${OLD_NODE} is missing: CI must install Debian's nodejs`).toBe(true);
    expect(atLeast((await exec(OLD_NODE, ["--version"])).stdout.trim(), NODE_FLOOR), `${OLD_NODE} is not older than ${NODE_FLOOR}`).toBe(
      false,
    );
  });
  const oldOnly = existsSync(OLD_NODE) ? it : it.skip;
  const entryPoints: Array<[string, string[]]> = [
    ["payin-sandbox", [cli("sandbox"), "--port", "0"]],
    ["payin-mock", [cli("mock"), "--port", "0"]],
    ["payin-conformance service", [cli("conformance"), "service", "--base-url", "http://127.0.0.1:1", "--token", "t"]],
    ["payin-trigger", [cli("trigger"), "success", "--url", "http://127.0.0.1:1/", "--secret", "whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw"]],
    ["startSandbox()", ["sandbox.js"]],
  ];
  oldOnly.each(entryPoints)("%s exits 1 with one line naming the Node it found and the one it needs", async (name, args) => {
    const found = (await exec(OLD_NODE, ["--version"])).stdout.trim().slice(1);
    const result = await run(OLD_NODE, args);
    expect(result.code).toBe(1);
    const prefix = name === "startSandbox()" ? "UnsupportedNodeError ERR_PAYIN_UNSUPPORTED_NODE: " : "";
    expect(result.stderr.trimEnd().split("\n")).toEqual([
      `${prefix}${name} needs Node.js ${NODE_FLOOR} or newer, and this is Node.js ${found}: ` +
        "install a maintained Node.js (https://nodejs.org/en/about/previous-releases).",
    ]);
  });
});
