// The conformance kit's whole run against the compiled sandbox with --control and a short retry
// schedule, as an implementer's CI would run it: the compiled bin, every check.
import { execFile, spawn } from "node:child_process";
import path from "node:path";
import { promisify } from "node:util";
import { root } from "../lib/paths.ts";

export interface ConformanceFigures {
  ms: number;
  summary: string;
}

export async function benchConformance(): Promise<ConformanceFigures> {
  const sandbox = spawn(process.execPath, [path.join(root, "dist/src/sandbox/cli.js"), "--port", "0", "--retry-schedule", "1,1,1"], {
    stdio: ["ignore", "pipe", "inherit"],
  });
  try {
    const url = await new Promise<string>((resolve, reject) => {
      sandbox.stdout!.on("data", (chunk: Buffer) => {
        const found = chunk.toString().match(/listening on (http:\/\/\S+)/)?.[1];
        if (found) resolve(found);
      });
      sandbox.once("exit", (code) => reject(new Error(`payin-sandbox exited with ${code}`)));
    });
    const started = performance.now();
    const { stdout } = await promisify(execFile)(process.execPath, [
      path.join(root, "dist/src/conformance/cli.js"),
      "service",
      "--base-url",
      url,
      "--token",
      "bench",
      "--control",
    ]);
    return { ms: performance.now() - started, summary: stdout.trimEnd().split("\n").at(-1)! };
  } finally {
    sandbox.kill("SIGTERM");
  }
}
