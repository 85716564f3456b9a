// The webhook handlers of the README and the Quickstart, taken from their Markdown as a user
// copies them: compiled with strict tsc, run against the installed sandbox, and checked by the
// installed payin-conformance receiver, their own failures included.
import { spawn, type ChildProcess } from "node:child_process";
import { writeFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { bin } from "../../scripts/lib/paths.ts";
import { receiverChecks } from "../../src/conformance/index.ts";
import { buildEvent, signedDelivery } from "../../src/testing/index.ts";
import { handlerSamples } from "./handler-samples.ts";
import { cli, exec, project, run, startBin } from "./support/consumer.ts";

describe("the README's and the Quickstart's webhook handlers, taken from their Markdown", () => {
  it("compile under strict tsc, and pass every receiver check against the installed sandbox, its own failures included", async () => {
    const samples = handlerSamples();
    for (const sample of samples) writeFileSync(path.join(project, `${sample.name}.ts`), sample.source);
    writeFileSync(
      path.join(project, "tsconfig.samples.json"),
      JSON.stringify({ extends: "./tsconfig.json", compilerOptions: { noEmit: true }, files: samples.map((s) => `${s.name}.ts`) }),
    );
    const typeErrors = exec(bin("tsc"), ["-p", "tsconfig.samples.json"], { cwd: project }).then(
      () => "",
      (error: { stdout: string }) => error.stdout,
    );
    const installedSandbox = startBin("payin-sandbox", process.execPath);
    const baseUrl = await installedSandbox.url;
    const handlers: ChildProcess[] = [];
    try {
      const verdicts = await Promise.all(
        samples.map(async (sample) => {
          // The account's secret comes with its first registration, and stays when the Quickstart registers its own URL.
          const token = `consumer-${sample.name}-${crypto.randomUUID()}`;
          const registered = await fetch(`${baseUrl}/webhooks`, {
            method: "POST",
            headers: { Authorization: `Bearer ${token}`, "Content-Type": "application/json" },
            body: JSON.stringify({ url: "http://127.0.0.1:9/elsewhere" }),
          });
          const secret: string = (await registered.json()).signing_secret;
          const file = path.join(project, `${sample.name}.run.ts`);
          writeFileSync(file, sample.runnable);
          const env = { ...process.env, PAYIN_BASE_URL: baseUrl, PAYIN_TOKEN: token, PAYIN_WEBHOOK_SECRET: secret };
          const handler = spawn(process.execPath, [file], { cwd: project, env, stdio: ["ignore", "pipe", "inherit"] });
          handlers.push(handler);
          const port = await new Promise<string>((resolve, reject) => {
            handler.stdout!.on("data", (chunk: Buffer) => {
              const found = /listening on (\d+)/.exec(chunk.toString())?.[1];
              if (found) resolve(found);
            });
            handler.once("exit", (code) => reject(new Error(`the ${sample.name} handler exited with ${code}`)));
          });
          const url = `http://127.0.0.1:${port}/webhooks`;
          // The contract's 15 s scaled down: the check of a fetch that hangs waits it out.
          const kit = [cli("conformance"), "receiver", "--url", url, "--secret", secret, "--base-url", baseUrl, "--token", token];
          const checked = await run(process.execPath, [...kit, "--timeout-ms", "3000"]);
          // Still serving after every failure the checks made.
          const { headers, body } = await signedDelivery(buildEvent("session-created"), secret);
          const after = await fetch(url, { method: "POST", headers, body });
          return { sample: sample.name, code: checked.code, last: checked.stdout.trimEnd().split("\n").at(-1), after: after.status };
        }),
      );
      expect(verdicts).toEqual(
        samples.map((sample) => ({
          sample: sample.name,
          code: 0,
          last: `${receiverChecks.length} passed, 0 failed, 0 warned (advisory), 0 skipped`,
          after: 204,
        })),
      );
      expect(await typeErrors).toBe("");
    } finally {
      for (const handler of handlers) handler.kill("SIGTERM");
      installedSandbox.child.kill("SIGTERM");
    }
  });
});
