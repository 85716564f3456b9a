// `payin-mock` as a command: the line it prints once it answers, Prism's log only when asked, and
// the one line it exits with when it cannot start.
import { execFile, spawn } from "node:child_process";
import { once } from "node:events";
import { createServer } from "node:net";
import path from "node:path";
import { promisify } from "node:util";
import { describe, expect, it } from "vitest";
import { root } from "../../scripts/lib/paths.ts";

const invalidCreate = {
  method: "POST",
  headers: { authorization: "Bearer tok_cli", "content-type": "application/json" },
  body: JSON.stringify({ name: 5 }),
};

/** Starts the command, sends one invalid request, and returns everything it printed by then. */
async function outputAround(args: string[]): Promise<string> {
  const child = spawn(process.execPath, [path.join(root, "src/mock/cli.ts"), "--port", "0", ...args], {
    stdio: ["ignore", "pipe", "inherit"],
  });
  let output = "";
  child.stdout.on("data", (chunk: Buffer) => (output += chunk));
  try {
    const url = await new Promise<string>((resolve, reject) => {
      child.stdout.on("data", () => {
        const found = output.match(/listening on (http:\/\/\S+)/)?.[1];
        if (found) resolve(found);
      });
      child.once("exit", (code) => reject(new Error(`payin-mock exited with ${code}: ${output}`)));
    });
    expect((await fetch(`${url}/api/v1/send/counterparties/`, invalidCreate)).status).toBe(422);
  } finally {
    // Prism's logger writes asynchronously: everything it wrote is read once the process has ended and its output closed.
    const closed = once(child, "close");
    child.kill("SIGTERM");
    await closed;
  }
  return output;
}

describe("payin-mock", () => {
  it("prints only where it listens, without --verbose", async () => {
    expect(await outputAround([])).toMatch(/^Payin Acceptance Service mock \(Prism\) listening on http:\/\/127\.0\.0\.1:\d+\n$/);
  });

  it("prints Prism's log as JSON lines with --verbose, its validation findings included", async () => {
    const lines = (await outputAround(["--verbose"])).trim().split("\n").slice(1);
    expect(lines.length).toBeGreaterThan(1);
    // pino repeats "name" for each child logger; Prism's own comes first.
    for (const line of lines) expect(line).toMatch(/^\{"level":\d+,"name":"PRISM",/);
    expect(lines.map((line) => JSON.parse(line))).toContainEqual(
      expect.objectContaining({ name: "VALIDATOR", level: 50, msg: "Request body must have required property 'type'" }),
    );
  });

  it("says that its port is taken, with how to pick another, in one line, and exits 1", async () => {
    const taken = createServer();
    await new Promise<void>((resolve) => taken.listen(0, "127.0.0.1", resolve));
    const port = (taken.address() as { port: number }).port;
    try {
      const error = await promisify(execFile)(process.execPath, [path.join(root, "src/mock/cli.ts"), "--port", String(port)]).then(
        () => undefined,
        (e: { code: number; stderr: string }) => e,
      );
      expect(error?.code).toBe(1);
      expect(error?.stderr).toBe(
        `payin-mock: port ${port} on 127.0.0.1 is taken by another process; pick another with --port N, or --port 0 for any free port\n`,
      );
    } finally {
      taken.close();
    }
  });
});
