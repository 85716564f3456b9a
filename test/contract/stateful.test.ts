// The sandbox's own promises, beyond what any server must keep (the conformance kit's checks):
// one account never sees another's data, sessions expire on the account's clock, keys are
// forgotten after a day of it, reset empties one account, and a sandbox restarted on its
// database file forgets nothing.
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { createPayinClient } from "../../src/index.ts";
import { startSandbox } from "../../src/sandbox/index.ts";
import { newCounterparty } from "../../src/conformance/fixtures.ts";
import { client, clientFor, newToken, onSandbox, send, seen, webhookUrl } from "./support/target.ts";

const COUNTERPARTIES = "/api/v1/send/counterparties/";
const SESSIONS = "/api/v1/earn/payment-sessions/";

async function createCounterparty(c = client) {
  const { data, response } = await c.POST(COUNTERPARTIES, { body: newCounterparty() });
  expect(response.status).toBe(201);
  return data!;
}

const sessionBody = (counterparty_id: string) => ({
  amount: 10,
  currency: "EUR",
  counterparty_id,
  order_id: `ORD-${Date.now()}`,
  purpose: "GOODS_PURCHASE",
  source_url: "https://shop.example.com/checkout",
  redirect_url: "https://shop.example.com/thanks",
});

describe.runIf(onSandbox)("the sandbox's accounts", () => {
  it("gives a session for another account's counterparty 422 naming counterparty_id", async () => {
    const theirs = await createCounterparty(clientFor(newToken()));
    const res = await send("POST", SESSIONS, { body: sessionBody(theirs.id) });
    expect(res.breaches).toEqual([]);
    expect(res.status).toBe(422);
    expect((res.body as any).errors).toEqual([expect.objectContaining({ field: "counterparty_id" })]);
  });

  it("never shows one account's records to another (404)", async () => {
    const mine = newToken();
    const c = clientFor(mine);
    const session = (await c.POST(SESSIONS, { body: sessionBody((await createCounterparty(c)).id) })).data!;
    await c.POST("/webhooks", { body: { url: webhookUrl("/hooks/mine") } });
    const other = newToken();
    expect((await send("GET", `/_sandbox/v1/payment-sessions/${session.id}`, { as: other })).status).toBe(404);
    expect((await send("GET", "/webhooks", { as: other })).status).toBe(404);
    expect((await send("GET", `/_sandbox/v1/payment-sessions/${session.id}`, { as: mine })).status).toBe(200);
    // The same email and phone number are free in another account.
    const person = newCounterparty();
    expect((await send("POST", COUNTERPARTIES, { body: person, as: mine })).status).toBe(201);
    expect((await send("POST", COUNTERPARTIES, { body: person, as: other })).status).toBe(201);
    expect(seen.flatMap((r) => r.breaches)).toEqual([]);
  });

  it("expires a session when the account's clock passes its hour, not before", async () => {
    const as = newToken();
    const c = clientFor(as);
    const session = (await c.POST(SESSIONS, { body: sessionBody((await createCounterparty(c)).id) })).data!;
    const status = async () =>
      ((await send("GET", `/_sandbox/v1/payment-sessions/${session.id}`, { as })).body as { status: string }).status;

    const advance = (seconds: number) => send("POST", "/_sandbox/v1/clock/advance", { body: { seconds }, as });
    const almost = await advance(3599);
    expect(almost.breaches).toEqual([]);
    expect(almost.body).toMatchObject({ offset_seconds: 3599 });
    expect(await status()).toBe("created");
    // Another account's clock does not move: its sessions are untouched.
    expect((await advance(1)).status).toBe(200);
    expect(await status()).toBe("expired");
    expect(seen.flatMap((r) => r.breaches)).toEqual([]);
  });

  it("stamps records with the account's clock", async () => {
    const as = newToken();
    await send("POST", "/_sandbox/v1/clock/advance", { body: { seconds: 86_400 }, as });
    const created = await send("POST", COUNTERPARTIES, { body: newCounterparty(), as });
    expect(Date.parse((created.body as { created_at: string }).created_at) - Date.now()).toBeGreaterThan(86_000_000);
  });

  it("forgets an Idempotency-Key after 24 hours of the account's clock", async () => {
    const as = newToken();
    const key = crypto.randomUUID();
    const headers = { "Idempotency-Key": key };
    const first = await send("POST", COUNTERPARTIES, { body: newCounterparty(), headers, as });
    await send("POST", "/_sandbox/v1/clock/advance", { body: { seconds: 23 * 3600 }, as });
    expect((await send("POST", COUNTERPARTIES, { body: newCounterparty(), headers, as })).status).toBe(409);
    await send("POST", "/_sandbox/v1/clock/advance", { body: { seconds: 3600 }, as });
    const later = await send("POST", COUNTERPARTIES, { body: newCounterparty(), headers, as });
    expect(later.status).toBe(201);
    expect((later.body as { id: string }).id).not.toBe((first.body as { id: string }).id);
  });

  it("moves the clock forward only, and answers a bad advance with 422 naming seconds", async () => {
    for (const seconds of [0, -5, 1.5, "60"]) {
      const res = await send("POST", "/_sandbox/v1/clock/advance", { body: { seconds } });
      expect(res.breaches).toEqual([]);
      expect(res.status).toBe(422);
      expect((res.body as any).errors).toEqual([expect.objectContaining({ field: "seconds" })]);
    }
  });

  it("empties the caller's account on reset, and only that account", async () => {
    const as = newToken();
    const other = newToken();
    for (const t of [as, other]) await send("POST", "/webhooks", { body: { url: webhookUrl("/hooks") }, as: t });
    const person = newCounterparty();
    await send("POST", COUNTERPARTIES, { body: person, as });
    await send("POST", "/_sandbox/v1/clock/advance", { body: { seconds: 60 }, as });

    const reset = await send("POST", "/_sandbox/v1/reset", { as });
    expect(reset.breaches).toEqual([]);
    expect(reset.status).toBe(204);
    expect((await send("GET", "/webhooks", { as })).status).toBe(404);
    expect((await send("POST", COUNTERPARTIES, { body: person, as })).status).toBe(201);
    expect((await send("POST", "/_sandbox/v1/clock/advance", { body: { seconds: 1 }, as })).body).toMatchObject({ offset_seconds: 1 });
    expect((await send("GET", "/webhooks", { as: other })).status).toBe(200);
  });

  it("accepts an http:// webhook URL on a loopback host, and no other http:// URL", async () => {
    for (const url of ["http://localhost:1/hooks", "http://127.0.0.1:1/payin", "http://[::1]:1/"]) {
      const res = await send("POST", "/webhooks", { body: { url }, as: newToken() });
      expect(res.status, url).toBe(201);
    }
    const res = await send("POST", "/webhooks", { body: { url: "http://localhost.example.com/hooks" } });
    expect(res.status).toBe(422);
  });
});

describe.runIf(onSandbox)("a sandbox restarted on the same --db file", () => {
  const dir = mkdtempSync(path.join(tmpdir(), "payin-sandbox-db-"));
  const db = path.join(dir, "sandbox.db");
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it("keeps every account's records, secrets, keys and clock", async () => {
    const as = newToken();
    const key = crypto.randomUUID();
    const person = newCounterparty();

    let sandbox = await startSandbox({ port: 0, db });
    let c = createPayinClient({ baseUrl: sandbox.url, token: as });
    const counterparty = (await c.POST(COUNTERPARTIES, { body: person })).data!;
    const body = sessionBody(counterparty.id);
    const session = (await c.POST(SESSIONS, { body, params: { header: { "Idempotency-Key": key } } })).data!;
    const webhook = (await c.POST("/webhooks", { body: { url: webhookUrl("/hooks") } })).data!;
    await fetch(`${sandbox.url}/_sandbox/v1/clock/advance`, {
      method: "POST",
      headers: { Authorization: `Bearer ${as}`, "Content-Type": "application/json" },
      body: JSON.stringify({ seconds: 1800 }),
    });
    await sandbox.close();

    sandbox = await startSandbox({ port: 0, db });
    try {
      c = createPayinClient({ baseUrl: sandbox.url, token: as });
      expect((await c.POST(COUNTERPARTIES, { body: person })).error).toMatchObject({
        code: "counterparty_exists",
        existing_id: counterparty.id,
      });
      expect((await c.POST(SESSIONS, { body, params: { header: { "Idempotency-Key": key } } })).data!.id).toBe(session.id);
      expect((await c.POST("/webhooks", { body: { url: webhookUrl("/hooks/2") } })).data!.signing_secret).toBe(webhook.signing_secret);
      const advanced = await fetch(`${sandbox.url}/_sandbox/v1/clock/advance`, {
        method: "POST",
        headers: { Authorization: `Bearer ${as}`, "Content-Type": "application/json" },
        body: JSON.stringify({ seconds: 1800 }),
      });
      expect(await advanced.json()).toMatchObject({ offset_seconds: 3600 });
      const after = await fetch(`${sandbox.url}/_sandbox/v1/payment-sessions/${session.id}`, {
        headers: { Authorization: `Bearer ${as}` },
      });
      expect(await after.json()).toMatchObject({ id: session.id, status: "expired" });
    } finally {
      await sandbox.close();
    }
  });
});
