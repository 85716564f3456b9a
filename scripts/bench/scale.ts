// The sandbox at the size a team reaches in weeks: N payment sessions over A accounts
// in a --db file, filled in process through the operations' own handlers, then served by the
// bin started on that file, side by side with one started on an empty file. Measures what must
// not grow with what is stored: create rate and p99, idle CPU with one account a day ahead, an
// advance that expires 1,000 sessions, restart to first answer, stop, memory and bytes per record.
import { spawn, type ChildProcess } from "node:child_process";
import { mkdtempSync, rmSync, statSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { DatabaseSync } from "node:sqlite";
import autocannon from "autocannon";
import { root } from "../lib/paths.ts";
import { Store } from "../../src/sandbox/store/index.ts";
import { fill } from "./fill.ts";
import { cpuMs, median, rssMiB } from "./measure.ts";

export interface ScaleFigures {
  sessions: number;
  accounts: number;
  fillSeconds: number;
  bytes: { perSession: number; perCounterparty: number; perEvent: number; filePerSession: number };
  firstAnswerMs: { empty: number; full: number };
  create: { empty: { rate: number; p99: number }; full: { rate: number; p99: number } };
  advanceExpiring1000Ms: number;
  advanceSettling1000Ms: number;
  idleCpuPercent: number;
  stopMs: number;
  rssMiB: number;
}

/** The account whose sessions are all paid, for the settlements' advance. */
const PAYING_ACCOUNT = 3;

/** Bytes of the tables (and their indexes) of each kind of record, from SQLite's dbstat. */
function bytesOf(file: string, sessions: number) {
  const db = new DatabaseSync(file);
  const bytes = (names: string[]) =>
    (db.prepare(`SELECT SUM(pgsize) AS b FROM dbstat WHERE name IN (${names.map(() => "?").join(", ")})`).get(...names) as { b: number }).b;
  const indexesOf = (table: string) =>
    (db.prepare("SELECT name FROM sqlite_master WHERE tbl_name = ?").all(table) as Array<{ name: string }>).map((r) => r.name);
  const countOf = (table: string) => (db.prepare(`SELECT COUNT(*) AS n FROM ${table}`).get() as { n: number }).n;
  const figures = {
    perSession: bytes(indexesOf("payment_sessions")) / countOf("payment_sessions"),
    perCounterparty: bytes(indexesOf("counterparties")) / countOf("counterparties"),
    perEvent: bytes(indexesOf("events")) / countOf("events"),
    filePerSession: statSync(file).size / sessions,
  };
  db.close();
  return figures;
}

async function startBin(file: string): Promise<{ child: ChildProcess; url: string; firstAnswerMs: number }> {
  const started = performance.now();
  const child = spawn(process.execPath, [path.join(root, "dist/src/sandbox/cli.js"), "--port", "0", "--db", file], {
    stdio: ["ignore", "pipe", "inherit"],
  });
  const url = await new Promise<string>((resolve, reject) => {
    child.stdout!.on("data", (chunk: Buffer) => {
      const found = chunk.toString().match(/listening on (http:\/\/\S+)/)?.[1];
      if (found) resolve(found);
    });
    child.once("exit", (code) => reject(new Error(`payin-sandbox exited with ${code}`)));
  });
  await fetch(`${url}/webhooks`, { headers: { Authorization: "Bearer scale-0" } });
  return { child, url, firstAnswerMs: performance.now() - started };
}

const post = (url: string, route: string, token: string, body: unknown) =>
  fetch(url + route, {
    method: "POST",
    headers: { Authorization: `Bearer ${token}`, "Content-Type": "application/json" },
    body: JSON.stringify(body),
  });

function stop(child: ChildProcess): Promise<number> {
  const started = performance.now();
  return new Promise((resolve) => {
    child.once("exit", () => resolve(performance.now() - started));
    child.kill("SIGTERM");
  });
}

/** `accounts` is at least 4: one whose sessions expire, one a day ahead, one whose transactions settle. */
export async function benchScale(sessions: number, accounts: number, loadSeconds: number, roundSeconds = 2): Promise<ScaleFigures> {
  const dir = mkdtempSync(path.join(tmpdir(), "payin-scale-"));
  const full = path.join(dir, "full.db");
  const empty = path.join(dir, "empty.db");
  try {
    const fillStarted = performance.now();
    const store = await Store.open({ file: full });
    await fill(store, sessions, accounts, PAYING_ACCOUNT);
    await store.close();
    const fillSeconds = (performance.now() - fillStarted) / 1000;
    const bytes = bytesOf(full, sessions);

    const emptyBin = await startBin(empty);
    const fullBin = await startBin(full);
    try {
      // An account with 1,000 open sessions moves an hour ahead: they all expire before it answers.
      const advanced = performance.now();
      const expired = await post(fullBin.url, "/_sandbox/v1/clock/advance", "scale-1", { seconds: 3600 });
      const advanceExpiring1000Ms = performance.now() - advanced;
      if (!expired.ok) throw new Error(`the advance answered ${expired.status}`);
      // An account whose 1,000 sessions were paid moves past the settlement delay: they all settle.
      const settling = performance.now();
      const settled = await post(fullBin.url, "/_sandbox/v1/clock/advance", `scale-${PAYING_ACCOUNT}`, { seconds: 61 });
      const advanceSettling1000Ms = performance.now() - settling;
      if (!settled.ok) throw new Error(`the advance answered ${settled.status}`);

      // Another moves a day ahead; then the sandbox sits idle with every other account's sessions open.
      await post(fullBin.url, "/_sandbox/v1/clock/advance", "scale-2", { seconds: 86_400 });
      await new Promise((resolve) => setTimeout(resolve, 1000));
      const cpuBefore = cpuMs(fullBin.child.pid!);
      await new Promise((resolve) => setTimeout(resolve, 5000));
      const idleCpuPercent = (cpuMs(fullBin.child.pid!) - cpuBefore) / 50;

      // Create-session load on both, in alternating rounds so that both see the same machine.
      const bodies: string[] = [];
      for (const { url } of [emptyBin, fullBin]) {
        const counterparty = (await (
          await post(url, "/api/v1/send/counterparties/", "load", {
            type: "INDIVIDUAL",
            payment_rail: "PAYIN",
            first_name: "Ana",
            last_name: "Li",
            email: "load@example.com",
            phone_number: "+34600000000",
          })
        ).json()) as { id: string };
        bodies.push(
          JSON.stringify({
            amount: 49.99,
            currency: "EUR",
            counterparty_id: counterparty.id,
            redirect_url: "https://shop.example.com/thanks",
          }),
        );
      }
      const rounds: autocannon.Result[][] = [[], []];
      for (let round = 0; round < Math.max(1, Math.round(loadSeconds / roundSeconds)); round++)
        for (const [i, { url }] of [emptyBin, fullBin].entries())
          rounds[i]!.push(
            await autocannon({
              url: `${url}/api/v1/earn/payment-sessions/`,
              method: "POST",
              headers: { "Content-Type": "application/json", Authorization: "Bearer load" },
              body: bodies[i]!,
              connections: 10,
              duration: roundSeconds,
            }),
          );
      const [emptyLoad, fullLoad] = rounds.map((results) => ({
        rate: median(results.map((r) => r.requests.average)),
        p99: median(results.map((r) => r.latency.p99)),
      }));
      const rss = rssMiB(fullBin.child.pid!);
      const stopMs = await stop(fullBin.child);
      const restarted = await startBin(full);
      await stop(restarted.child);
      return {
        sessions,
        accounts,
        fillSeconds,
        bytes,
        firstAnswerMs: { empty: emptyBin.firstAnswerMs, full: restarted.firstAnswerMs },
        create: { empty: emptyLoad!, full: fullLoad! },
        advanceExpiring1000Ms,
        advanceSettling1000Ms,
        idleCpuPercent,
        stopMs,
        rssMiB: rss,
      };
    } finally {
      for (const bin of [emptyBin, fullBin]) if (bin.child.exitCode === null && bin.child.signalCode === null) bin.child.kill("SIGKILL");
    }
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}
