// `payin-sandbox`'s flags: a bad value is refused with one line that names the flag, and the
// schedule, settlement, public URL and delivery host flags reach the sandbox.
import { execFile, spawn, spawnSync, type ExecFileOptions } from "node:child_process";
import { chmodSync, chownSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { createServer } from "node:net";
import { tmpdir } from "node:os";
import path from "node:path";
import { promisify } from "node:util";
import { afterAll, describe, expect, it } from "vitest";
import { root } from "../../scripts/lib/paths.ts";
import { SqliteDatabase } from "../../src/sandbox/store/sqlite.ts";
import { accountOn } from "../support/sandbox-account.ts";

const cli = path.join(root, "src", "sandbox", "cli.ts");
const run = promisify(execFile);

async function refusal(args: string[], options: ExecFileOptions = {}) {
  const error = await run(process.execPath, [cli, ...args], options).then(
    () => undefined,
    (e: { code: number; stderr: string }) => e,
  );
  expect(error, `payin-sandbox ${args.join(" ")} started`).toBeDefined();
  return { code: error!.code, stderr: String(error!.stderr).trim() };
}

describe("payin-sandbox", () => {
  it.each([
    [["--retry-schedule", "5,soon"], 'payin-sandbox: --retry-schedule takes seconds (a number, 0 or more), not "soon"'],
    [["--retry-schedule", "5,-1"], 'payin-sandbox: --retry-schedule takes seconds (a number, 0 or more), not "-1"'],
    [["--settlement-delay", ""], 'payin-sandbox: --settlement-delay takes seconds (a number, 0 or more), not ""'],
    [["--port", "70000"], 'payin-sandbox: --port must be a port number, not "70000"'],
    [
      ["--public-url", "ftp://sandbox.example"],
      'payin-sandbox: --public-url must be an http:// or https:// URL without credentials, query or fragment, not "ftp://sandbox.example"',
    ],
    [
      ["--db", "sandbox.db", "--database", "postgres://127.0.0.1:9/x"],
      "payin-sandbox: --db (a SQLite file) and --database (PostgreSQL) name two stores: give one",
    ],
    [["--database", "sandbox.db"], 'payin-sandbox: --database takes a postgres:// URL, not "sandbox.db"; a SQLite file is given with --db'],
    [["--retention", "30"], 'payin-sandbox: --retention takes a duration more than 0 with its unit (30d, 12h, 45m, 90s), not "30"'],
    [["--rate-limit", "0"], 'payin-sandbox: --rate-limit takes a whole number more than 0, not "0"'],
    [["--min-token-length", "2.5"], 'payin-sandbox: --min-token-length takes a whole number more than 0, not "2.5"'],
    [
      ["--allow-webhook-network", "10.0.0.0"],
      'payin-sandbox: --allow-webhook-network takes a network as ADDRESS/PREFIX (10.1.0.0/16, fd00::/8), not "10.0.0.0"',
    ],
    [["--retention", "0d"], 'payin-sandbox: --retention takes a duration more than 0 with its unit (30d, 12h, 45m, 90s), not "0d"'],
    [["--accounts", "closed"], 'payin-sandbox: --accounts takes open or issued, not "closed"'],
  ])("refuses %j with exit code 2, one line naming the flag, then the usage", async (args, line) => {
    const { code, stderr } = await refusal(args);
    expect(code).toBe(2);
    expect(stderr.split("\n").slice(0, 2)).toEqual([line, expect.stringMatching(/^usage: payin-sandbox /)]);
  });

  it("takes its database from PAYIN_SANDBOX_DATABASE_URL, naming the variable when it is not a URL, and --db over it", async () => {
    const env = { ...process.env, PAYIN_SANDBOX_DATABASE_URL: "sandbox.db" };
    const { code, stderr } = await refusal(["--port", "0"], { env });
    expect(code).toBe(2);
    expect(stderr.split("\n")[0]).toBe(
      'payin-sandbox: PAYIN_SANDBOX_DATABASE_URL takes a postgres:// URL, not "sandbox.db"; a SQLite file is given with --db',
    );
    const dir = mkdtempSync(path.join(tmpdir(), "payin-cli-"));
    const child = spawn(process.execPath, [cli, "--port", "0", "--db", path.join(dir, "sandbox.db")], {
      env: { ...process.env, PAYIN_SANDBOX_DATABASE_URL: "postgres://postgres@127.0.0.1:9/x" },
      stdio: ["ignore", "pipe", "inherit"],
    });
    try {
      const started = await new Promise<string>((resolve, reject) => {
        child.stdout!.on("data", (c: Buffer) => resolve(c.toString()));
        child.once("exit", (code) => reject(new Error(`payin-sandbox exited with ${code}`)));
      });
      expect(started).toContain(`database ${path.join(dir, "sandbox.db")}`);
    } finally {
      child.kill();
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it("takes --settlement-delay and an empty --retry-schedule (one attempt per event)", async () => {
    const child = spawn(process.execPath, [cli, "--port", "0", "--settlement-delay", "5", "--retry-schedule", ""], {
      stdio: ["ignore", "pipe", "inherit"],
    });
    try {
      const url = await new Promise<string>((resolve) =>
        child.stdout!.on("data", (c: Buffer) => {
          const m = c.toString().match(/listening on (http:\/\/\S+)/);
          if (m) resolve(m[1]!);
        }),
      );
      const account = accountOn(url);
      await account.register("http://127.0.0.1:9/unreachable");
      const session = await account.session();
      const paid = await account.simulate(session.id, { outcome: "pay" });
      await account.advance(5);
      expect((await account.transaction(paid.body.transaction.id)).body.status).toBe("settled");
      const attempts = (await account.deliveries()).filter((d) => d.event_type === "session-created");
      expect(attempts).toHaveLength(1);
      expect(attempts[0].next_attempt_at).toBeUndefined();
    } finally {
      child.kill();
    }
  });

  it("takes --public-url for links, and --allow-webhook-host and --allow-webhook-network, once or more, for deliveries", async () => {
    // [::ffff:7f00:1] is loopback reached by an IPv4-mapped address, which the sandbox does not count as a loopback host:
    // allowing it, and then its network (hosted, no address of the sandbox's own network is delivered to otherwise),
    // shows both flags at work without a packet leaving the machine.
    const args = [
      "--port",
      "0",
      "--public-url",
      "https://sandbox.tunnel.example",
      "--allow-webhook-host",
      "a.example",
      "--allow-webhook-host",
      "[::ffff:7f00:1]",
      "--allow-webhook-network",
      "10.9.0.0/16",
      "--allow-webhook-network",
      "127.0.0.0/8",
    ];
    const child = spawn(process.execPath, [cli, ...args], { stdio: ["ignore", "pipe", "inherit"] });
    try {
      const url = await new Promise<string>((resolve) =>
        child.stdout!.on("data", (c: Buffer) => {
          const m = c.toString().match(/listening on (http:\/\/\S+)/);
          if (m) resolve(m[1]!);
        }),
      );
      const account = accountOn(url);
      await account.register("https://[::ffff:7f00:1]:1/hooks");
      const session = await account.session();
      expect(session.payment_link).toBe(`https://sandbox.tunnel.example/pay/${session.id}`);
      let attempts: any[] = [];
      for (let i = 0; i < 300 && attempts.length === 0; i++) attempts = await account.deliveries();
      expect(attempts[0].error).toBe("The request failed: ECONNREFUSED.");
    } finally {
      child.kill();
    }
  });
});

describe("payin-sandbox --db with a file it cannot use", () => {
  const dir = mkdtempSync(path.join(tmpdir(), "payin-sandbox-db-cli-"));
  afterAll(() => rmSync(dir, { recursive: true, force: true }));
  const notDatabase = path.join(dir, "notes.txt");
  writeFileSync(notDatabase, "not a database, long enough for SQLite to read its header and say so");
  const folder = path.join(dir, "a-folder");
  mkdirSync(folder);

  // Each fails for root too: a folder that is not there, a file standing where a folder should
  // be, a folder given as the file, a file of something else.
  it.each([
    [
      "in a folder that does not exist",
      path.join(dir, "missing", "sandbox.db"),
      `the folder ${path.join(dir, "missing")} does not exist; create it, or give a path in a folder that exists`,
    ],
    ["under a file (ENOTDIR)", path.join(notDatabase, "sandbox.db"), `${notDatabase} is a file, not a folder; give a path in a folder`],
    ["that is a folder", folder, `it is a folder, not a file; give the path of a file, such as ${path.join(folder, "sandbox.db")}`],
    ["that is not a database", notDatabase, "it is not a SQLite database; give the path of a new file, or of a database the sandbox made"],
  ])("refuses a --db path %s with exit code 1 and one line that names the file and the reason", async (_, db, reason) => {
    const { code, stderr } = await refusal(["--port", "0", "--db", db]);
    expect(code).toBe(1);
    expect(stderr).toBe(`payin-sandbox: The sandbox cannot open its database ${db}: ${reason}.`);
  });

  // Mode bits do not stop root: as root, the sandbox runs as nobody (65534) to meet them.
  const unprivileged: { uid?: number; gid?: number } = process.getuid?.() === 0 ? { uid: 65534, gid: 65534 } : {};
  const owner = (file: string) => (unprivileged.uid === undefined ? undefined : chownSync(file, unprivileged.uid, unprivileged.gid!));
  const canRun = spawnSync(process.execPath, ["-e", `require("node:fs").accessSync(${JSON.stringify(cli)})`], unprivileged).status === 0;

  it.runIf(canRun)("refuses a read-only database file and a read-only folder, saying which, with exit code 1", async () => {
    const shared = path.join(dir, "shared");
    mkdirSync(shared);
    chmodSync(dir, 0o755);
    chmodSync(shared, 0o777);
    const readOnlyFile = path.join(shared, "read-only.db");
    await new SqliteDatabase(readOnlyFile).close();
    owner(readOnlyFile);
    chmodSync(readOnlyFile, 0o444);
    const file = await refusal(["--port", "0", "--db", readOnlyFile], unprivileged);
    expect(file).toEqual({
      code: 1,
      stderr:
        `payin-sandbox: The sandbox cannot open its database ${readOnlyFile}: ` +
        "the file is read-only for this process (EACCES: permission denied); make it writable, or give another path.",
    });

    const readOnlyFolder = path.join(dir, "read-only");
    mkdirSync(readOnlyFolder);
    owner(readOnlyFolder);
    chmodSync(readOnlyFolder, 0o555);
    const db = path.join(readOnlyFolder, "sandbox.db");
    const inFolder = await refusal(["--port", "0", "--db", db], unprivileged);
    expect(inFolder).toEqual({
      code: 1,
      stderr:
        `payin-sandbox: The sandbox cannot open its database ${db}: the folder ${readOnlyFolder} is read-only for this process ` +
        "(EACCES: permission denied), and SQLite must create the file and its -wal and -shm files in it; " +
        "give a path in a writable folder.",
    });
  });
});

describe("payin-sandbox on a port that is taken", () => {
  it("says so, with how to pick another, in one line, and exits 1", async () => {
    const taken = createServer();
    await new Promise<void>((resolve) => taken.listen(0, "127.0.0.1", resolve));
    const port = (taken.address() as { port: number }).port;
    try {
      const { code, stderr } = await refusal(["--port", String(port)]);
      expect(code).toBe(1);
      expect(stderr).toBe(
        `payin-sandbox: port ${port} on 127.0.0.1 is taken by another process; pick another with --port N, or --port 0 for any free port`,
      );
    } finally {
      taken.close();
    }
  });
});

describe("payin-sandbox accounts", () => {
  const dir = mkdtempSync(path.join(tmpdir(), "payin-accounts-"));
  const db = path.join(dir, "sandbox.db");
  afterAll(() => rmSync(dir, { recursive: true, force: true }));
  const accounts = (...args: string[]) =>
    run(process.execPath, [cli, "accounts", ...args, "--db", db]).then(
      ({ stdout }) => ({ code: 0, stdout, stderr: "" }),
      (error: { code: number; stdout: string; stderr: string }) => error,
    );

  it("creates an account and prints its token once, lists accounts without tokens, and revokes one", async () => {
    const created = await accounts("create", "--name", "acme CI");
    const [said, token] = created.stdout.trimEnd().split("\n");
    expect(said).toMatch(/^account (\d+) \(acme CI\) created; its token, shown this once:$/);
    expect(token).toMatch(/^payin_sbx_[A-Za-z0-9_-]{43}$/);
    const id = /^account (\d+)/.exec(said!)![1]!;
    const listed = await accounts("list");
    expect(listed.stdout.split("\n")[0]).toMatch(/^id\s+name\s+created\s+last request$/);
    expect(listed.stdout).toMatch(new RegExp(`^${id}\\s+acme CI\\s+\\S+Z\\s+never$`, "m"));
    expect(listed.stdout).not.toContain(token);
    // The database holds no token either: only its hash.
    const file = new SqliteDatabase(db);
    expect(JSON.stringify(await file.all("SELECT * FROM accounts"))).not.toContain(token!.slice(10));
    await file.close();
    expect(await accounts("revoke", id)).toMatchObject({ code: 0, stdout: `account ${id} revoked: deleted with all it held\n` });
    expect((await accounts("list")).stdout).toBe("no account issued yet\n");
  });

  it("says what is wrong in one line: an unknown action, a revoke of no account, a store in memory", async () => {
    expect(await accounts("frob")).toMatchObject({
      code: 2,
      stderr: expect.stringMatching(/^payin-sandbox accounts: give create, list or revoke, not frob\n/),
    });
    expect(await accounts("revoke", "999")).toMatchObject({
      code: 1,
      stderr: "payin-sandbox accounts: no issued account has the id 999; payin-sandbox accounts list shows them\n",
    });
    const inMemory = await run(process.execPath, [cli, "accounts", "list"]).catch((error: { code: number; stderr: string }) => error);
    expect(inMemory).toMatchObject({
      code: 2,
      stderr: expect.stringContaining("--db FILE or --database URL (an in-memory sandbox issues no accounts)"),
    });
  });
});
