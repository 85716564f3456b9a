// A throwaway PostgreSQL for a test file: Debian's postgresql package, a cluster made with initdb
// in a temporary folder, owned by an unprivileged user (postgres when the tests run as root, as
// initdb refuses root), listening on a Unix socket in that folder and on no TCP port, stopped
// and removed by stop(). Without the package the tests that need it skip, saying why; CI installs
// it (.ci/run), and there they may not skip.
import { execFileSync, spawnSync } from "node:child_process";
import { chmodSync, existsSync, mkdtempSync, readdirSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";

const ROOT = "/usr/lib/postgresql";

/** The bin folder of the newest installed PostgreSQL, or undefined without the package. */
function binFolder(): string | undefined {
  if (!existsSync(ROOT)) return undefined;
  const versions = readdirSync(ROOT)
    .filter((v) => existsSync(path.join(ROOT, v, "bin", "initdb")))
    .sort((a, b) => Number(b) - Number(a));
  return versions[0] && path.join(ROOT, versions[0], "bin");
}

const BIN = binFolder();

/** Why PostgreSQL tests cannot run here, or undefined when they can. In CI they always must. */
export const postgresMissing: string | undefined = BIN
  ? undefined
  : "PostgreSQL tests skipped: Debian's postgresql package is not installed (apt-get install postgresql); CI installs it.";
if (postgresMissing && process.env.CI) throw new Error(postgresMissing.replace("skipped", "cannot skip in CI"));

export interface TestPostgres {
  /** A URL for a new empty database on the cluster. */
  createDatabase(): string;
  /** The URL of the cluster's `postgres` database, for a superuser's statements. */
  adminUrl: string;
  /** The socket folder (the URL's host). */
  socketFolder: string;
  /** Stops the server (fast shutdown: connections are cut), keeping the cluster; `resume` starts it again. */
  pause(): void;
  resume(): void;
  /** Stops the server as a crash does (immediate: nothing flushed), keeping the cluster; `resume` recovers it. */
  crash(): void;
  /** Suspends the server's processes (SIGSTOP): connections stay open and go silent, as in a network cut; `thaw` wakes them. */
  freeze(): void;
  thaw(): void;
  /** CPU the server's processes have used so far, in ms: the live ones and those it has waited for (10 ms ticks). */
  cpuMs(): number;
  stop(): void;
}

const asRoot = process.getuid?.() === 0;

/** Runs a PostgreSQL program as the cluster's owner. */
function run(program: string, args: string[]) {
  const command = asRoot ? ["runuser", ["-u", "postgres", "--", path.join(BIN!, program), ...args]] : [path.join(BIN!, program), args];
  const result = spawnSync(command[0] as string, command[1] as string[], { encoding: "utf8" });
  if (result.status !== 0) throw new Error(`${program} failed: ${result.stderr || result.stdout}`);
}

let databases = 0;

/** The server's processes: the postmaster (the first line of postmaster.pid) and its children. */
function serverProcesses(data: string): number[] {
  const postmaster = Number(readFileSync(path.join(data, "postmaster.pid"), "utf8").split("\n", 1)[0]);
  const parentOf = (pid: string) => {
    try {
      return Number(readFileSync(`/proc/${pid}/stat`, "utf8").split(") ")[1]!.split(" ")[1]);
    } catch {
      return undefined; // ended meanwhile
    }
  };
  const children = readdirSync("/proc").filter((pid) => /^\d+$/.test(pid) && parentOf(pid) === postmaster);
  return [postmaster, ...children.map(Number)];
}

/** A process's CPU in clock ticks: its own, and with `children` that of the children it has waited for. */
function ticks(pid: number, children = false): number {
  try {
    const fields = readFileSync(`/proc/${pid}/stat`, "utf8").split(") ")[1]!.split(" ");
    return [11, 12, ...(children ? [13, 14] : [])].reduce((sum, i) => sum + Number(fields[i]), 0);
  } catch {
    return 0; // ended meanwhile: its parent counts it once it is waited for
  }
}

/**
 * `settings`: "test" trades durability for speed (no fsync at all); "sandbox" is what the hosting
 * guide advises for a shared sandbox (fsync on, commits acknowledged before they are flushed),
 * for the bench's figures. `statements`: the server counts every statement (pg_stat_statements,
 * loaded at start and created in the `postgres` database, BEGIN and COMMIT included, with the time
 * each spent planning as well as executing), for a bench that counts what the sandbox asks of it.
 */
export function startPostgres(settings: "test" | "sandbox" = "test", { statements = false } = {}): TestPostgres {
  if (!BIN) throw new Error(postgresMissing);
  const folder = mkdtempSync(path.join(tmpdir(), "payin-pg-"));
  const data = path.join(folder, "data");
  if (asRoot) {
    chmodSync(folder, 0o755);
    execFileSync("chown", ["postgres", folder]);
  }
  run("initdb", ["-D", data, "-U", "postgres", "--auth=trust", "--no-sync", "-E", "UTF8", "--locale=C"]);
  // Unix socket only (listen_addresses empty): nothing else on the machine can reach it.
  const durability = settings === "test" ? "-c fsync=off -c full_page_writes=off" : "";
  const counted = statements
    ? "-c shared_preload_libraries=pg_stat_statements -c pg_stat_statements.track_utility=on -c pg_stat_statements.track_planning=on " +
      "-c pg_stat_statements.max=10000"
    : "";
  const options = `-c listen_addresses='' -k ${folder} -c synchronous_commit=off -c max_connections=200 ${durability} ${counted}`;
  const start = () => run("pg_ctl", ["-D", data, "-o", options, "-w", "-s", "-l", path.join(folder, "log"), "start"]);
  start();
  const psql = (database: string, sql: string) =>
    execFileSync(path.join(BIN, "psql"), ["-h", folder, "-U", "postgres", "-q", "-c", sql, database]);
  if (statements) psql("postgres", "CREATE EXTENSION pg_stat_statements");
  const url = (database: string) => `postgres://postgres@localhost/${database}?host=${encodeURIComponent(folder)}`;
  return {
    adminUrl: url("postgres"),
    socketFolder: folder,
    createDatabase() {
      const name = `test_${process.pid}_${++databases}`;
      psql("postgres", `CREATE DATABASE ${name}`);
      return url(name);
    },
    pause: () => run("pg_ctl", ["-D", data, "-m", "fast", "-w", "-s", "stop"]),
    resume: start,
    crash: () => run("pg_ctl", ["-D", data, "-m", "immediate", "-w", "-s", "stop"]),
    freeze: () => serverProcesses(data).forEach((pid) => process.kill(pid, "SIGSTOP")),
    thaw: () => serverProcesses(data).forEach((pid) => process.kill(pid, "SIGCONT")),
    cpuMs() {
      const [postmaster, ...children] = serverProcesses(data);
      return ((ticks(postmaster!, true) + children.reduce((sum, pid) => sum + ticks(pid), 0)) * 1000) / 100;
    },
    stop() {
      try {
        run("pg_ctl", ["-D", data, "-m", "immediate", "-s", "stop"]);
      } finally {
        rmSync(folder, { recursive: true, force: true });
      }
    },
  };
}
