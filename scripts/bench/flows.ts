// The sandbox's payment flow end to end, as a merchant's test sees it: from `simulate` (pay)
// to the merchant endpoint's receipt of transaction-completed, over many flows with a fixed
// number in flight; and the delivery rate to an endpoint that answers 204 at once. The
// sandbox is the compiled bin (or another cli given) in a process of its own; the endpoint and
// the load are here.
import { spawn } from "node:child_process";
import { Agent, createServer, request } from "node:http";
import path from "node:path";
import { root } from "../lib/paths.ts";

const TOKEN = "bench-flows";

export interface FlowFigures {
  flows: number;
  inFlight: number;
  p50Ms: number;
  p99Ms: number;
  maxMs: number;
  flowsPerSecond: number;
  eventsPerSecond: number;
}

const percentile = (sorted: number[], p: number) => sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)]!;

/** Flows through one sandbox, started once: `run` measures a batch, as often as asked. */
export interface FlowSandbox {
  run(flows?: number, inFlight?: number): Promise<FlowFigures>;
  stop(): Promise<void>;
}

/** The compiled bin as a consumer runs it, one batch of flows. */
export async function benchFlows(flows = 1000, inFlight = 100): Promise<FlowFigures> {
  const sandbox = await startFlowSandbox();
  try {
    return await sandbox.run(flows, inFlight);
  } finally {
    await sandbox.stop();
  }
}

/**
 * Starts `node <cli> --port 0 …args` (the compiled bin by default) with an endpoint registered;
 * `processes` of them on one database (args naming a PostgreSQL one), the flows' calls going to
 * each in turn.
 */
export async function startFlowSandbox(
  cli = path.join(root, "dist/src/sandbox/cli.js"),
  args: string[] = [],
  processes = 1,
): Promise<FlowSandbox> {
  // Receipts by session: when each session's transaction-completed arrived, and every event's time.
  const completedAt = new Map<string, (ms: number) => void>();
  const eventTimes: number[] = [];
  const endpoint = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on("data", (c: Buffer) => chunks.push(c));
    req.on("end", () => {
      const now = performance.now();
      res.writeHead(204).end();
      eventTimes.push(now);
      const event = JSON.parse(Buffer.concat(chunks).toString()) as { type: string; data: { session_id: string } };
      if (event.type === "transaction-completed") completedAt.get(event.data.session_id)?.(now);
    });
  });
  await new Promise<void>((resolve) => endpoint.listen(0, "127.0.0.1", resolve));
  const endpointUrl = `http://127.0.0.1:${(endpoint.address() as { port: number }).port}/webhooks`;

  const children = Array.from({ length: processes }, () =>
    spawn(process.execPath, [cli, "--port", "0", ...args], { stdio: ["ignore", "pipe", "inherit"] }),
  );
  // node:http with kept-alive connections: the lightest client, as the load shares the machine.
  const agent = new Agent({ keepAlive: true });
  const stop = async () => {
    agent.destroy();
    await Promise.all(
      children
        .filter((child) => child.exitCode === null && child.signalCode === null)
        .map((child) => {
          const exited = new Promise((resolve) => child.once("exit", resolve));
          child.kill("SIGTERM");
          return exited;
        }),
    );
    endpoint.close();
    endpoint.closeAllConnections();
  };
  let urls: string[];
  try {
    urls = await Promise.all(
      children.map(
        (child) =>
          new Promise<string>((resolve, reject) => {
            child.stdout!.on("data", (chunk: Buffer) => {
              const found = chunk.toString().match(/listening on (http:\/\/\S+)/)?.[1];
              if (found) resolve(found);
            });
            child.once("exit", (code) => reject(new Error(`${cli} exited with ${code}`)));
          }),
      ),
    );
  } catch (error) {
    await stop();
    throw error;
  }
  let calls = 0;
  const call = (method: string, route: string, body: unknown) =>
    new Promise<{ id: string }>((resolve, reject) => {
      const json = JSON.stringify(body);
      const req = request(
        urls[calls++ % urls.length] + route,
        {
          method,
          agent,
          headers: { Authorization: `Bearer ${TOKEN}`, "Content-Type": "application/json", "Content-Length": Buffer.byteLength(json) },
        },
        (res) => {
          const chunks: Buffer[] = [];
          res.on("data", (c: Buffer) => chunks.push(c));
          res.on("end", () => {
            const text = Buffer.concat(chunks).toString();
            if (res.statusCode! >= 300) reject(new Error(`${method} ${route} answered ${res.statusCode}: ${text}`));
            else resolve(JSON.parse(text) as { id: string });
          });
        },
      );
      req.on("error", reject);
      req.end(json);
    });

  let counterparty: { id: string };
  try {
    await call("POST", "/webhooks", { url: endpointUrl });
    counterparty = await call("POST", "/api/v1/send/counterparties/", {
      type: "INDIVIDUAL",
      payment_rail: "PAYIN",
      first_name: "Ana",
      last_name: "Li",
      email: "bench.flows@example.com",
      phone_number: "+34600000001",
    });
  } catch (error) {
    await stop();
    throw error;
  }

  let batch = 0;
  const run = async (flows = 1000, inFlight = 100): Promise<FlowFigures> => {
    const prefix = `B${batch++}`;
    eventTimes.length = 0;
    // The sessions first, and their session-created deliveries out of the way: not measured.
    const sessions: string[] = [];
    for (let i = 0; i < flows; i += inFlight)
      sessions.push(
        ...(await Promise.all(
          Array.from({ length: Math.min(inFlight, flows - i) }, (_, j) =>
            call("POST", "/api/v1/earn/payment-sessions/", {
              amount: 10,
              currency: "EUR",
              counterparty_id: counterparty.id,
              order_id: `${prefix}-${i + j}`,
              redirect_url: "https://shop.example.com/",
            }).then((s) => s.id),
          ),
        )),
      );
    while (eventTimes.length < flows) await new Promise((r) => setTimeout(r, 10));
    eventTimes.length = 0;

    const latencies: number[] = [];
    let next = 0;
    const started = performance.now();
    const worker = async () => {
      while (next < sessions.length) {
        const session = sessions[next++]!;
        const received = new Promise<number>((resolve) => completedAt.set(session, resolve));
        const sent = performance.now();
        await call("POST", `/_sandbox/v1/payment-sessions/${session}/simulate`, { outcome: "pay" });
        latencies.push((await received) - sent);
        completedAt.delete(session);
      }
    };
    await Promise.all(Array.from({ length: inFlight }, worker));
    // Every flow sends three events now (transaction-created, -completed, session-completed).
    while (eventTimes.length < flows * 3) await new Promise((r) => setTimeout(r, 5));
    const lastEvent = Math.max(...eventTimes);
    const seconds = (lastEvent - started) / 1000;
    latencies.sort((a, b) => a - b);
    return {
      flows,
      inFlight,
      p50Ms: percentile(latencies, 50),
      p99Ms: percentile(latencies, 99),
      maxMs: latencies.at(-1)!,
      flowsPerSecond: flows / seconds,
      eventsPerSecond: eventTimes.length / seconds,
    };
  };
  return { run, stop };
}
