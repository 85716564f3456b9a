import { spawn } from "node:child_process";
import autocannon from "autocannon";
const child = spawn(process.execPath, ["--cpu-prof", "--cpu-prof-dir=/tmp/prof", "src/sandbox/cli.ts", "--port", "0"], { stdio: ["ignore", "pipe", "inherit"] });
const url = await new Promise<string>((r) => child.stdout!.on("data", (c) => { const m = String(c).match(/listening on (\S+)/); if (m) r(m[1]!); }));
const cp = await (await fetch(`${url}/api/v1/send/counterparties/`, { method: "POST", headers: { Authorization: "Bearer bench", "Content-Type": "application/json" }, body: JSON.stringify({ type: "INDIVIDUAL", payment_rail: "PAYIN", first_name: "Ana", last_name: "Li", email: "b@example.com", phone_number: "+34600000000" }) })).json() as { id: string };
const body = JSON.stringify({ amount: 49.99, currency: "EUR", counterparty_id: cp.id, redirect_url: "https://shop.example.com/thanks" });
const r = await autocannon({ url: `${url}/api/v1/earn/payment-sessions/`, method: "POST", headers: { "Content-Type": "application/json", Authorization: "Bearer bench" }, body, connections: 10, duration: Number(process.argv[2] ?? 8) });
console.log("req/s", r.requests.average, "non2xx", r.non2xx, "p99", r.latency.p99);
child.kill("SIGINT"); await new Promise((r) => child.on("exit", r));
