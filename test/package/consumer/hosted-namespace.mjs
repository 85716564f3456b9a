// Run inside a network namespace of its own (consumer.test.ts starts it with unshare), whose
// only interface is its loopback, holding 10.0.0.5, 192.168.7.7, 169.254.169.254 and fd00::1, and
// whose /etc/hosts names internal.example (10.0.0.5) and metadata.example (169.254.169.254):
// nothing here can leave the machine. A listener on each address counts the connections it gets.
// The installed sandbox, hosted (--allow-webhook-host '*'), must refuse to register each address
// written out, log deliveries to each name as not sent, and connect to none of them; a second,
// with --allow-webhook-network 10.0.0.0/8, must attempt its delivery to internal.example.
// Prints what it saw as JSON.
import { spawn } from "node:child_process";
import { createServer } from "node:net";
import path from "node:path";

const PORT = 8443;
const ADDRESSES = ["10.0.0.5", "192.168.7.7", "169.254.169.254", "fd00::1", "127.0.0.1"];
const cli = path.join("node_modules", "payin-acceptance-contract", "dist", "src", "sandbox", "cli.js");

const connections = Object.fromEntries(ADDRESSES.map((a) => [a, 0]));
const listeners = await Promise.all(
  ADDRESSES.map(
    (address) =>
      new Promise((resolve) => {
        const server = createServer((socket) => {
          connections[address]++;
          socket.destroy();
        });
        server.listen(PORT, address, () => resolve(server));
      }),
  ),
);

function startSandbox(args) {
  const child = spawn(process.execPath, [cli, "--port", "0", "--allow-webhook-host", "*", "--retry-schedule", "", ...args], {
    stdio: ["ignore", "pipe", "inherit"],
  });
  return new Promise((resolve) =>
    child.stdout.on("data", (chunk) => {
      const url = /listening on (http:\/\/\S+)/.exec(String(chunk))?.[1];
      if (url) resolve({ child, url });
    }),
  );
}

async function call(base, token, method, route, body) {
  const res = await fetch(base + route, {
    method,
    headers: { Authorization: `Bearer ${token}`, "Content-Type": "application/json" },
    ...(body ? { body: JSON.stringify(body) } : {}),
  });
  return { status: res.status, body: await res.json() };
}

/** Registers `url` for a new account, pays nothing, makes one session; resolves to the registration and the delivery's logged error. */
async function deliver(base, url) {
  const token = `hosted-${Math.random().toString(36).slice(2)}`;
  const registered = await call(base, token, "POST", "/webhooks", { url });
  if (registered.status !== 201) return { registered: registered.status, errors: registered.body.errors };
  const person = {
    type: "INDIVIDUAL",
    payment_rail: "PAYIN",
    first_name: "A",
    last_name: "B",
    email: "a@example.com",
    phone_number: "+34600000001",
  };
  const counterparty = await call(base, token, "POST", "/api/v1/send/counterparties/", person);
  await call(base, token, "POST", "/api/v1/earn/payment-sessions/", {
    amount: 10,
    currency: "EUR",
    counterparty_id: counterparty.body.id,
    redirect_url: "https://shop.example.com/",
  });
  for (let i = 0; i < 100; i++) {
    const [attempt] = (await call(base, token, "GET", "/_sandbox/v1/deliveries")).body.data;
    if (attempt) return { registered: 201, error: attempt.error };
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  return { registered: 201, error: "no attempt logged" };
}

const hosted = await startSandbox([]);
const literal = {};
for (const address of ADDRESSES) {
  const host = address.includes(":") ? `[${address}]` : address;
  literal[address] = await deliver(hosted.url, `${address === "127.0.0.1" ? "http" : "https"}://${host}:${PORT}/hook`);
}
const named = {};
for (const url of [`https://internal.example:${PORT}/hook`, `https://metadata.example:${PORT}/hook`, `http://localhost:${PORT}/hook`])
  named[url] = await deliver(hosted.url, url);
const before = { ...connections };
hosted.child.kill();

const allowing = await startSandbox(["--allow-webhook-network", "10.0.0.0/8"]);
const allowed = await deliver(allowing.url, `https://internal.example:${PORT}/hook`);
allowing.child.kill();

for (const server of listeners) server.close();
console.log(JSON.stringify({ literal, named, before, allowed, after: connections }));
