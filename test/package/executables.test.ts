// The single executables (`npm run package`: dist/payin-<command>-<platform>-<arch>), built once by
// the global setup, as a merchant's CI runs them: with no Node.js or npm on PATH. They answer as
// the installed bins do, flag for flag and error for error; the CI guide's plain-shell recipe runs
// a Python test against the sandbox's, which pays a session and verifies its signed events; the
// kit's checks a Python endpoint, payin-listen passes deliveries on, and SQLite, PostgreSQL, the
// payment page, the dashboard and the metrics all work from inside the one file. (NODE_OPTIONS'
// loopback guard does not load into an executable: these tests name only loopback addresses.)
import { spawnSync } from "node:child_process";
import { cpSync, existsSync, linkSync, mkdirSync, mkdtempSync, readFileSync, rmSync, statSync, symlinkSync, writeFileSync } from "node:fs";
import { createServer } from "node:http";
import type { AddressInfo } from "node:net";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { TARGET } from "../../scripts/executables/build.ts";
import { root } from "../../scripts/lib/paths.ts";
import { postgresMissing, startPostgres } from "../../scripts/lib/temp-postgres.ts";
import { cli, consumer, tarball, withPeers } from "./support/consumer.ts";
import { executables, freePort, guideBlock, runFile, start, startSandbox } from "./support/executables.ts";

const { files } = executables;
const { version } = JSON.parse(readFileSync(path.join(root, "package.json"), "utf8")) as { version: string };
/** The installed bin of a command, run on this Node, in the project that has the optional peers (pg). */
const bin = (command: string) => ({ file: process.execPath, args: [path.join(withPeers, cli(command))] });
/** Debian's Python, as a Python CI image has one. */
const PYTHON3 = "/usr/bin/python3";
const python3Missing = spawnSync(PYTHON3, ["--version"]).status !== 0;
if (python3Missing && process.env.CI) throw new Error("python3 is missing: CI installs it (.ci/run), and these tests may not skip there");

let dir: string;
beforeAll(() => void (dir = mkdtempSync(path.join(tmpdir(), "payin-executables-test-"))));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe("the executables, as built", () => {
  it("are one file under three names, for this machine's platform, and the npm tarball holds none of it", () => {
    expect(Object.values(files).map((file) => path.basename(file))).toEqual(
      ["sandbox", "conformance", "listen"].map((command) => `payin-${command}-${TARGET}`),
    );
    expect(new Set(Object.values(files).map((file) => statSync(file).ino)).size).toBe(1);
    expect(consumer.files.filter((file) => /payin-(sandbox|conformance|listen)-|image-(root|data)/.test(file))).toEqual([]);
    expect(statSync(tarball).size).toBeLessThan(executables.bytes / 100);
  });

  it("print the usage on --help and the package's version on --version, exit 0, as the installed bins do", async () => {
    const cases: Array<[keyof typeof files, string[]]> = [
      ["sandbox", ["--help"]],
      ["sandbox", ["--version"]],
      ["sandbox", ["health", "--help"]],
      ["sandbox", ["accounts", "--help"]],
      ["conformance", ["--help"]],
      ["conformance", ["--version"]],
      ["conformance", ["receiver", "--help"]],
      ["listen", ["--help"]],
      ["listen", ["--version"]],
    ];
    for (const [command, args] of cases) {
      const { file, args: binArgs } = bin(command);
      const [executable, installed] = await Promise.all([runFile(files[command], args), runFile(file, [...binArgs, ...args])]);
      expect(executable, `${command} ${args.join(" ")}`).toEqual(installed);
      expect(executable.code).toBe(0);
      expect(executable.stdout).toMatch(args.includes("--version") ? new RegExp(`^${version}\\n$`) : /^usage: payin-/);
    }
  });

  it("refuse what the bins refuse, with the same lines and exit codes: a --db that cannot be, a taken port, no PostgreSQL", async () => {
    writeFileSync(path.join(dir, "a-file"), "");
    const taken = createServer().listen(0, "127.0.0.1");
    await new Promise((resolve) => taken.once("listening", resolve));
    const port = String((taken.address() as AddressInfo).port);
    // A port on loopback that nothing listens on: a connection is refused at once.
    const nowhere = `http://127.0.0.1:${await freePort()}`;
    const cases: Array<[keyof typeof files, string[], number, RegExp?]> = [
      ["sandbox", ["--no-such-flag"], 2],
      ["sandbox", ["--port", "70000"], 2],
      [
        "sandbox",
        ["--port", "0", "--db", path.join(dir, "missing", "sandbox.db")],
        1,
        /cannot open its database .*does not exist; create it/,
      ],
      ["sandbox", ["--port", "0", "--db", path.join(dir, "a-file", "sandbox.db")], 1, /cannot open its database .*is a file, not a folder/],
      [
        "sandbox",
        ["--port", "0", "--db", "/proc/sandbox.db"],
        1,
        /cannot open its database \/proc\/sandbox\.db: the folder \/proc is read-only/,
      ],
      ["sandbox", ["--port", port], 1, new RegExp(`port ${port} on 127\\.0\\.0\\.1 is taken by another process`)],
      [
        "sandbox",
        ["--port", "0", "--database", "postgres://payin@127.0.0.1:1/sandbox"],
        1,
        /cannot use its database at 127\.0\.0\.1:1: connect ECONNREFUSED/,
      ],
      ["sandbox", ["--db", "sandbox.db", "--database", "postgres://payin@127.0.0.1:1/sandbox"], 2],
      ["sandbox", ["accounts", "list"], 2],
      ["sandbox", ["health", "--url", nowhere], 1, /^payin-sandbox health: http:\S+\/_sandbox\/health cannot be reached \(ECONNREFUSED\)$/],
      ["conformance", [], 2],
      ["conformance", ["receiver"], 2],
      ["conformance", ["receiver", "--url", `${nowhere}/webhooks`, "--secret", "not-a-secret"], 2],
      ["conformance", ["service", "--base-url", nowhere, "--token", "t"], 2],
      ["listen", ["--base-url", "not a url"], 2],
      ["listen", ["--base-url", nowhere, "--token", "t", "--forward-to", `${nowhere}/webhooks`], 2],
    ];
    try {
      for (const [command, args, code, line] of cases) {
        const { file, args: binArgs } = bin(command);
        const [executable, installed] = await Promise.all([
          runFile(files[command], args, { cwd: dir }),
          runFile(file, [...binArgs, ...args], { cwd: dir }),
        ]);
        const name = `${command} ${args.join(" ")}`;
        expect(executable, name).toEqual(installed);
        expect(executable.code, name).toBe(code);
        // What cannot start says so in one line; a flag it refuses, in one line before the usage.
        if (line) expect(executable.stderr.trimEnd().split("\n"), name).toEqual([expect.stringMatching(line)]);
      }
    } finally {
      taken.close();
    }
  });
});

describe("with no Node.js or npm on PATH", () => {
  /** A PATH of Python alone, as in a Python CI image (not Debian's /usr/bin, where a node may lie beside python3). */
  let onlyPython: string;
  beforeAll(() => {
    onlyPython = path.join(dir, "bin");
    mkdirSync(onlyPython);
    if (!python3Missing) symlinkSync(PYTHON3, path.join(onlyPython, "python3"));
  });

  it.skipIf(python3Missing)(
    "the CI guide's plain-shell recipe, as written: a Python test pays a session and verifies its signed events",
    async () => {
      const job = path.join(dir, "job");
      mkdirSync(job);
      // The executable under the name the recipe gives it, and the suite the guide's recipes run.
      linkSync(files.sandbox, path.join(job, "payin-sandbox-linux-x64"));
      cpSync(path.join(root, "examples", "ci", "tests"), path.join(job, "tests"), { recursive: true });
      const env = { PATH: onlyPython, HOME: job, PORT: String(await freePort()), PYTHONDONTWRITEBYTECODE: "1" };
      expect((await runFile("/bin/bash", ["-c", "command -v node || command -v npm"], { env })).code).toBe(1);
      const ran = await runFile("/bin/bash", ["-c", guideBlock("In a plain shell", "sh")], { cwd: job, env });
      const log = existsSync(path.join(job, "sandbox.log")) ? readFileSync(path.join(job, "sandbox.log"), "utf8") : "";
      expect(ran.code, `${ran.stdout}\n${ran.stderr}\n${log}`).toBe(0);
      expect(ran.stderr).toMatch(/^test_a_paid_session_sends_its_events_signed .* \.\.\. ok$/m);
      expect(ran.stderr).toMatch(/^Ran 1 test in [\d.]+s\n\nOK\n$/m);
      expect(log).toMatch(/^Payin sandbox \(stateful, in memory\) listening on http:\/\/127\.0\.0\.1:\d+$/m);
    },
  );

  it.skipIf(python3Missing)(
    "payin-listen passes the deliveries on to the Python test's endpoint, as in the services' recipes",
    async () => {
      const sandbox = await startSandbox(files.sandbox, ["--retry-schedule", "1,1,1"], { PATH: onlyPython });
      const [webhookPort, token] = [String(await freePort()), `ci-listen-${crypto.randomUUID()}`];
      const listen = start(
        files.listen,
        ["--base-url", sandbox.url, "--token", token, "--forward-to", `http://127.0.0.1:${webhookPort}/webhooks`],
        {
          env: { PATH: onlyPython },
        },
      );
      try {
        await listen.printed(/^Ready! Your webhook signing secret is whsec_/m);
        const env = {
          PATH: onlyPython,
          PYTHONDONTWRITEBYTECODE: "1",
          PAYIN_BASE_URL: sandbox.url,
          PAYIN_TOKEN: token,
          WEBHOOK_PORT: webhookPort,
        };
        const ran = await runFile(PYTHON3, ["-m", "unittest", "discover", "-s", path.join(root, "examples", "ci", "tests"), "-v"], {
          env,
          cwd: dir,
        });
        expect(ran.code, `${ran.stderr}\n${listen.output()}`).toBe(0);
        for (const type of ["session-created", "transaction-created", "transaction-completed", "session-completed"])
          expect(listen.output()).toMatch(new RegExp(`^\\S+  ${type}  msg_\\S+  204  \\d+ ms$`, "m"));
      } finally {
        await listen.stop();
        await sandbox.stop();
      }
    },
  );

  it.skipIf(python3Missing)("payin-conformance receiver passes the Python sample's endpoint (examples/merchant-python/)", async () => {
    const sandbox = await startSandbox(files.sandbox, [], { PATH: onlyPython });
    const token = `ci-receiver-${crypto.randomUUID()}`;
    const env = {
      PATH: onlyPython,
      PYTHONDONTWRITEBYTECODE: "1",
      PAYIN_BASE_URL: sandbox.url,
      PAYIN_TOKEN: token,
      PORT: String(await freePort()),
    };
    const endpoint = start(path.join(root, "examples", "merchant-python", "start"), [], {
      cwd: path.join(root, "examples", "merchant-python"),
      env,
    });
    try {
      const [, url, secret] = await endpoint.printed(
        /^check the endpoint: npx payin-conformance receiver --url (\S+) --secret (whsec_\S+) /m,
      );
      const args = ["receiver", "--url", url!, "--secret", secret!, "--base-url", sandbox.url, "--token", token, "--timeout-ms", "2000"];
      const ran = await runFile(files.conformance, args, { env: { PATH: onlyPython } });
      expect(ran.code, `${ran.stdout}\n${ran.stderr}\n${endpoint.output()}`).toBe(0);
      expect(ran.stdout.trimEnd().split("\n").at(-1)).toMatch(/^[1-9]\d* passed, 0 failed, 0 warned \(advisory\), 0 skipped$/);
    } finally {
      await endpoint.stop();
      await sandbox.stop();
    }
  });
});

describe("from inside the one file", () => {
  it("a SQLite file, the payment page, the dashboard and the metrics (prom-client inside)", async () => {
    const db = path.join(dir, "state", "sandbox.db");
    mkdirSync(path.dirname(db));
    const sandbox = await startSandbox(files.sandbox, ["--db", db], { PATH: "/nonexistent" });
    try {
      const headers = { Authorization: `Bearer inside-${crypto.randomUUID()}`, "Content-Type": "application/json" };
      const post = (route: string, body: object) =>
        fetch(`${sandbox.url}${route}`, { method: "POST", headers, body: JSON.stringify(body) });
      const customer = { type: "INDIVIDUAL", payment_rail: "PAYIN", first_name: "Ana", last_name: "Ruiz", email: "ana@example.com" };
      const counterparty = await (await post("/api/v1/send/counterparties/", { ...customer, phone_number: "+34612345678" })).json();
      const order = { amount: 12.5, currency: "EUR", counterparty_id: counterparty.id, redirect_url: "https://shop.example.com/thanks" };
      const session = await (await post("/api/v1/earn/payment-sessions/", order)).json();
      const page = await fetch(session.payment_link);
      expect([page.status, page.headers.get("content-type")]).toEqual([200, expect.stringMatching(/^text\/html/)]);
      expect(await page.text()).toContain("12.50");
      const dashboard = await fetch(`${sandbox.url}/_sandbox/dashboard`);
      expect([dashboard.status, dashboard.headers.get("content-type")]).toEqual([200, expect.stringMatching(/^text\/html/)]);
      const metrics = await fetch(`${sandbox.url}/_sandbox/metrics`);
      expect(metrics.status).toBe(200);
      expect(await metrics.text()).toMatch(/^# TYPE payin_\w+ /m);
      expect(statSync(db).size).toBeGreaterThan(0);
    } finally {
      await sandbox.stop();
    }
  });

  it.skipIf(postgresMissing !== undefined)("PostgreSQL with --database, its driver inside", async () => {
    const postgres = startPostgres();
    try {
      const sandbox = await startSandbox(files.sandbox, ["--database", postgres.createDatabase()], { PATH: "/nonexistent" });
      try {
        expect(sandbox.output()).toMatch(/^Payin sandbox \(stateful, PostgreSQL at \S+\) listening on/m);
        expect(await (await fetch(`${sandbox.url}/_sandbox/health`)).json()).toEqual({ status: "serving", database: "postgres" });
        const created = await fetch(`${sandbox.url}/webhooks`, {
          method: "POST",
          headers: { Authorization: "Bearer inside-postgres", "Content-Type": "application/json" },
          body: JSON.stringify({ url: "http://127.0.0.1:9/webhooks" }),
        });
        expect([200, 201]).toContain(created.status);
      } finally {
        await sandbox.stop();
      }
    } finally {
      postgres.stop();
    }
  });
});
