// The example merchant, as its README runs it: copied out of the install, installed, started on
// the oldest Node the package supports beside the installed payin-sandbox, a checkout paid, and
// its endpoint checked with payin-conformance receiver.
import { spawn } from "node:child_process";
import { cpSync, readFileSync, symlinkSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { bin, floorNode, root } from "../../scripts/lib/paths.ts";
import { toolEnv } from "../../scripts/lib/tool-env.ts";
import { NODE_FLOOR } from "../../src/lib/node-floor.ts";
import { consumer, exec, installOffline, project, startBin, tarball, work } from "./support/consumer.ts";

describe(`the example merchant (examples/merchant/), copied out of the install and run on Node ${NODE_FLOOR}`, () => {
  it(
    "type-checks, its endpoint turns a checkout the customer pays into a paid order, " +
      "it passes payin-conformance receiver, and its npm scripts print no warning",
    async () => {
      // As its README says: copy it out of node_modules, install, npx payin-sandbox, npm start,
      // npm run checkout, pay, and check the endpoint with payin-conformance receiver.
      const dir = path.join(work, "merchant");
      cpSync(path.join(project, "node_modules", "payin-acceptance-contract", "examples", "merchant"), dir, { recursive: true });
      expect(JSON.parse(readFileSync(path.join(dir, "package.json"), "utf8")).engines).toEqual({ node: `>=${NODE_FLOOR}` });
      // Its dependency is the published version (test/versioning holds the range to this one): this
      // tarball instead, as its README installs it from the repository.
      await installOffline(dir, ["--no-save", tarball]);
      // Its own tsconfig.json, strict, against the package's declarations and Node's types.
      symlinkSync(path.join(root, "node_modules", "@types"), path.join(dir, "node_modules", "@types"));
      const typeErrors = exec(bin("tsc"), ["-p", "tsconfig.json"], { cwd: dir }).then(
        () => "",
        (error: { stdout: string }) => error.stdout,
      );

      const started = startBin("payin-sandbox", floorNode, dir);
      // npm, and the `node` of the example's scripts, are the first on PATH: the floor Node.
      const env = {
        ...consumer.npmEnv,
        PATH: `${path.dirname(floorNode)}${path.delimiter}${process.env.PATH}`,
        PAYIN_BASE_URL: await started.url,
        PAYIN_TOKEN: `consumer-merchant-${crypto.randomUUID()}`,
        PORT: "0",
      };
      // A process group of its own: npm start runs a shell that runs Node, and all three stop together.
      const merchant = spawn("npm", ["start"], { cwd: dir, env, stdio: ["ignore", "pipe", "pipe"], detached: true });
      let merchantStderr = "";
      merchant.stderr!.on("data", (chunk: Buffer) => void (merchantStderr += chunk));
      try {
        // It prints where it listens, then the command that checks its endpoint.
        let printed = "";
        const [merchantUrl, checkCommand] = await new Promise<[string, string]>((resolve, reject) => {
          merchant.stdout!.on("data", (chunk: Buffer) => {
            printed += chunk.toString();
            const url = printed.match(/merchant listening on (http:\/\/[\d.]+:\d+)/)?.[1];
            const command = printed.match(/check the endpoint: (npx payin-conformance receiver .*)\n/)?.[1];
            if (url && command) resolve([url, command]);
          });
          merchant.once("exit", (code) => reject(new Error(`the merchant exited with ${code}: ${merchantStderr}`)));
        });
        const { stdout, stderr } = await exec("npm", ["run", "checkout"], { cwd: dir, env: { ...env, MERCHANT_URL: merchantUrl } });
        expect(stderr).toBe("");
        const [, orderId, sessionId] = stdout.match(/order (\S+): pending, 49\.99 EUR, session (\S+)/)!;
        expect(stdout).toContain(`payment link: ${env.PAYIN_BASE_URL}/pay/${sessionId}`);

        const paid = await fetch(`${env.PAYIN_BASE_URL}/_sandbox/v1/payment-sessions/${sessionId}/simulate`, {
          method: "POST",
          headers: { Authorization: `Bearer ${env.PAYIN_TOKEN}`, "Content-Type": "application/json" },
          body: JSON.stringify({ outcome: "pay" }),
        });
        expect(paid.status).toBe(200);
        // The events come after simulate answers: wait for the order to say paid.
        let order: { status?: string } = {};
        for (let i = 0; i < 200 && order.status !== "paid"; i++) {
          await new Promise((resolve) => setTimeout(resolve, 25));
          order = await (await fetch(`${merchantUrl}/orders/${orderId}`)).json();
        }
        expect(order).toMatchObject({ order_id: orderId, session_id: sessionId, status: "paid", amount: 49.99, currency: "EUR" });

        // The last step of its README: the command it printed, from the project, passes.
        const [npx, ...args] = checkCommand.split(" ");
        expect([npx, args.slice(0, 3)]).toEqual(["npx", ["payin-conformance", "receiver", "--url"]]);
        // The contract's 15 s scaled down: the check of a fetch that hangs waits it out.
        const checked = await exec("npx", ["--no-install", ...args, "--timeout-ms", "3000"], { cwd: dir, env: toolEnv() });
        expect(checked.stdout).toContain(`endpoint: ${merchantUrl}/webhooks/payin`);
        expect(checked.stdout).toMatch(/^✓ receiver\.processing-fails\.fetch-dropped /m);
        expect(checked.stdout.trimEnd().split("\n").at(-1)).toMatch(/^(\d+) passed, 0 failed, 0 warned \(advisory\), 0 skipped$/);
        // The same command with a secret that is not the endpoint's: said once, first.
        const wrong = args.map((arg, i) => (args[i - 1] === "--secret" ? "whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw" : arg));
        const refused = await exec("npx", ["--no-install", ...wrong], { cwd: dir, env: toolEnv() }).then(
          () => ({ code: 0, stdout: "" }),
          (error: { code: number; stdout: string }) => error,
        );
        expect(refused.code).toBe(1);
        // After the line that says what the checks make in the account, and take back.
        expect(refused.stdout.split("\n")[2]).toBe(
          "The endpoint refused every validly signed delivery with 4xx: " +
            "the secret given with --secret is most likely not the one it verifies with.",
        );
        expect(await typeErrors).toBe("");
        // Node's warnings start with its process id, npm's with its name: the endpoint may log its own failures there.
        expect(merchantStderr).not.toMatch(/^(\(node:\d+\) |npm warn )/m);
      } finally {
        try {
          process.kill(-merchant.pid!, "SIGTERM");
        } catch {
          // Its group has ended already (it failed to start).
        }
        started.child.kill("SIGTERM");
      }
    },
  );
});
