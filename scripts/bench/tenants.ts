// Many tenants at once on the shared sandbox: two compiled payin-sandbox processes on
// one throwaway PostgreSQL, N accounts each running F flows at once (create a counterparty,
// create a session, pay it), their requests spread over both processes, every event delivered to
// an endpoint on loopback. Figures: answers 5xx, session-completed events that never arrived,
// create session p50 and p99, requests and deliveries a second; and the database's growth per
// account of five paid sessions (CHECKPOINT first, sizes on disk), the storage to expect.
import { createServer } from "node:http";
import type { AddressInfo } from "node:net";
import pg from "pg";
import { startPostgres } from "../lib/temp-postgres.ts";
import { startBin } from "./shared.ts";

export interface TenantFigures {
  accounts: number;
  flowsEach: number;
  serverErrors: number;
  lost: number;
  createP50Ms: number;
  createP99Ms: number;
  requestsPerSecond: number;
  deliveriesPerSecond: number;
}

const percentile = (values: number[], p: number) => {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)]!;
};

/** An endpoint that acknowledges every delivery, counting them and the sessions completed. */
async function startEndpoint() {
  const completed = new Set<string>();
  let deliveries = 0;
  const server = createServer((req, res) => {
    let body = "";
    req.on("data", (chunk: Buffer) => void (body += chunk));
    req.on("end", () => {
      deliveries++;
      const event = JSON.parse(body) as { type: string; data: { session_id: string } };
      if (event.type === "session-completed") completed.add(event.data.session_id);
      res.writeHead(204).end();
    });
  });
  server.keepAliveTimeout = 60_000;
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/webhooks`,
    completed,
    get deliveries() {
      return deliveries;
    },
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

/** `accounts` accounts running `flowsEach` flows at once against the processes at `urls`, their requests taken by each in turn. */
export async function runTenants(urls: string[], accounts: number, flowsEach: number, deadlineMs = 60_000): Promise<TenantFigures> {
  const endpoint = await startEndpoint();
  let turn = 0;
  let requests = 0;
  let serverErrors = 0;
  const call = async (token: string, route: string, body: unknown) => {
    const res = await fetch(urls[turn++ % urls.length] + route, {
      method: "POST",
      headers: { Authorization: `Bearer ${token}`, "Content-Type": "application/json" },
      body: JSON.stringify(body),
    });
    requests++;
    if (res.status >= 500) serverErrors++;
    return { status: res.status, body: (await res.json()) as { id: string } };
  };
  const creates: number[] = [];
  const sessions: string[] = [];
  const started = performance.now();
  await Promise.all(
    Array.from({ length: accounts }, async (_, a) => {
      const token = `tenant-${a}-${Date.now()}`;
      await call(token, "/webhooks", { url: endpoint.url });
      await Promise.all(
        Array.from({ length: flowsEach }, async (_, f) => {
          const person = {
            type: "INDIVIDUAL",
            payment_rail: "PAYIN",
            first_name: "Ana",
            last_name: "Li",
            email: `ana+${f}@example.com`,
            phone_number: `+3460000${String(f).padStart(4, "0")}`,
          };
          const counterparty = await call(token, "/api/v1/send/counterparties/", person);
          const sent = performance.now();
          const body = { amount: 10, currency: "EUR", counterparty_id: counterparty.body.id, redirect_url: "https://shop.example.com/" };
          const session = await call(token, "/api/v1/earn/payment-sessions/", body);
          creates.push(performance.now() - sent);
          if (session.status !== 201) return;
          sessions.push(session.body.id);
          await call(token, `/_sandbox/v1/payment-sessions/${session.body.id}/simulate`, { outcome: "pay" });
        }),
      );
    }),
  );
  const requestSeconds = (performance.now() - started) / 1000;
  const deadline = performance.now() + deadlineMs;
  while (sessions.some((id) => !endpoint.completed.has(id)) && performance.now() < deadline)
    await new Promise((resolve) => setTimeout(resolve, 50));
  const deliverySeconds = (performance.now() - started) / 1000;
  await endpoint.close();
  return {
    accounts,
    flowsEach,
    serverErrors,
    lost: accounts * flowsEach - sessions.filter((id) => endpoint.completed.has(id)).length,
    createP50Ms: percentile(creates, 50),
    createP99Ms: percentile(creates, 99),
    requestsPerSecond: requests / requestSeconds,
    deliveriesPerSecond: endpoint.deliveries / deliverySeconds,
  };
}

/** The database's size on disk, in bytes. */
async function databaseBytes(url: string): Promise<number> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    await client.query("CHECKPOINT");
    return Number((await client.query("SELECT pg_database_size(current_database()) AS size")).rows[0].size);
  } finally {
    await client.end();
  }
}

/** Two processes on one database: 40 accounts, then 200, five flows each; and what the 200 accounts added to the database, each. */
export async function benchTenants(): Promise<{ rows: TenantFigures[]; bytesPerAccount: number }> {
  const cluster = startPostgres("sandbox");
  const database = cluster.createDatabase();
  const bins = [await startBin(["--database", database]), await startBin(["--database", database])];
  try {
    const urls = bins.map((b) => b.url);
    await runTenants(urls, 10, 2); // warm-up
    const forty = await runTenants(urls, 40, 5);
    const before = await databaseBytes(database);
    const many = await runTenants(urls, 200, 5);
    return { rows: [forty, many], bytesPerAccount: ((await databaseBytes(database)) - before) / 200 };
  } finally {
    for (const { child } of bins) child.kill("SIGKILL");
    cluster.stop();
  }
}
