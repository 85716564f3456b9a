// The sandbox's own behaviour beyond what the contract suite asks of any server.
import { DatabaseSync } from "node:sqlite";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { Ajv2020 } from "ajv/dist/2020.js";
import addFormats from "ajv-formats";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startSandbox, type RunningSandbox } from "../../src/sandbox/index.ts";
import { SqliteDatabase } from "../../src/sandbox/store/sqlite.ts";
import { Transactions } from "../../src/sandbox/store/transactions.ts";
import { tokenHash } from "../../src/sandbox/store/token-hash.ts";
import { openapi } from "../support/documents.ts";
import { newCounterparty } from "../../src/conformance/fixtures.ts";

const dir = mkdtempSync(path.join(tmpdir(), "payin-sandbox-test-"));
const db = path.join(dir, "sandbox.db");
let sandbox: RunningSandbox;

beforeAll(async () => {
  sandbox = await startSandbox({ port: 0, db });
});
afterAll(async () => {
  await sandbox.close();
  rmSync(dir, { recursive: true, force: true });
});

const call = (method: string, route: string, token: string | undefined, body?: unknown) =>
  fetch(sandbox.url + route, {
    method,
    headers: {
      ...(token ? { Authorization: `Bearer ${token}` } : {}),
      ...(body !== undefined ? { "Content-Type": "application/json" } : {}),
    },
    ...(body !== undefined ? { body: JSON.stringify(body) } : {}),
  });

describe("the sandbox", () => {
  it("serves a stored transaction to its account only", async () => {
    const token = `tx-${crypto.randomUUID()}`;
    const counterparty = await (await call("POST", "/api/v1/send/counterparties/", token, newCounterparty())).json();
    const session = await (
      await call("POST", "/api/v1/earn/payment-sessions/", token, {
        amount: 5,
        currency: "EUR",
        counterparty_id: counterparty.id,
        redirect_url: "https://shop.example.com/",
      })
    ).json();

    // The payment flow that makes transactions comes with the payment page; store one as it will.
    const direct = new DatabaseSync(db);
    const { id: accountId } = direct.prepare("SELECT id FROM accounts WHERE token_hash = ?").get(tokenHash(token)) as { id: number };
    const transaction = {
      id: "txn_test_1",
      status: "completed" as const,
      session_id: session.id,
      counterparty_id: counterparty.id,
      amount: 5,
      currency: "EUR",
      created_at: session.created_at,
      updated_at: session.created_at,
    };
    direct.close();
    const store = new SqliteDatabase(db);
    await new Transactions(store).create(accountId, transaction, Date.parse(session.created_at));
    await store.close();

    const found = await call("GET", "/api/v1/earn/transactions/txn_test_1/", token);
    expect(found.status).toBe(200);
    expect(await found.json()).toEqual(transaction);
    expect((await call("GET", "/api/v1/earn/transactions/txn_test_1/", "someone-else")).status).toBe(404);
  });

  it("answers a method the path does not take with 405, Allow and a problem", async () => {
    const res = await call("DELETE", "/webhooks", "t");
    expect(res.status).toBe(405);
    expect(res.headers.get("allow")).toBe("GET, HEAD, POST");
    expect(res.headers.get("content-type")).toBe("application/problem+json");
    expect(await res.json()).toMatchObject({ status: 405, code: "method_not_allowed" });
  });

  it("lets a page of another origin (the docs' try-it) call the API: preflights answered, answers readable, no cookie", async () => {
    const origin = { Origin: "http://127.0.0.1:4011" };
    const preflight = await fetch(`${sandbox.url}/webhooks`, {
      method: "OPTIONS",
      headers: { ...origin, "Access-Control-Request-Method": "POST", "Access-Control-Request-Headers": "authorization, content-type" },
    });
    expect(preflight.status).toBe(204);
    expect(Object.fromEntries(preflight.headers)).toMatchObject({
      "access-control-allow-origin": "*",
      "access-control-allow-methods": "GET, HEAD, POST",
      "access-control-allow-headers": "Authorization, Content-Type, Idempotency-Key",
    });
    expect(preflight.headers.get("access-control-allow-credentials")).toBeNull();
    const answer = await fetch(`${sandbox.url}/webhooks`, { headers: { ...origin, Authorization: "Bearer cors" } });
    expect(answer.headers.get("access-control-allow-origin")).toBe("*");
    expect(answer.headers.get("access-control-expose-headers")).toContain("Retry-After");
    // A rejection is readable too: the page shows the problem.
    const refused = await fetch(`${sandbox.url}/webhooks`, { method: "DELETE", headers: origin });
    expect([refused.status, refused.headers.get("access-control-allow-origin")]).toEqual([405, "*"]);
    // Without an Origin nothing changes; a preflight of a path that does not exist is its 404.
    expect((await call("GET", "/webhooks", "cors")).headers.get("access-control-allow-origin")).toBeNull();
    expect((await fetch(`${sandbox.url}/webhooks`, { method: "OPTIONS" })).status).toBe(405);
    const nowhere = await fetch(`${sandbox.url}/nothing`, {
      method: "OPTIONS",
      headers: { ...origin, "Access-Control-Request-Method": "GET" },
    });
    expect(nowhere.status).toBe(404);
  });

  it("answers a path outside both documents with 404, even without a token", async () => {
    for (const route of ["/", "/api/v1/send/counterparties", "/_sandbox/v1/nothing"]) {
      const res = await call("GET", route, undefined);
      expect(res.status, route).toBe(404);
      expect(await res.json()).toMatchObject({ code: "not_found" });
    }
  });

  it("takes only bearer tokens", async () => {
    for (const header of ["Bearer", "Bearer ", "Basic abc", "bearer a b"]) {
      const res = await fetch(`${sandbox.url}/webhooks`, { headers: { Authorization: header } });
      expect(res.status, header).toBe(401);
      expect(res.headers.get("www-authenticate")).toMatch(/^Bearer realm="payin"/);
    }
    expect((await fetch(`${sandbox.url}/webhooks`, { headers: { Authorization: "bearer abc.DEF-1_2~3+4/5=" } })).status).toBe(404);
  });

  it(
    "names a field once when its schema and a rule beyond it both refuse it, " + "and keeps a rule's error for a field the schema took",
    async () => {
      const token = `rules-${crypto.randomUUID()}`;
      const counterparty = await (await call("POST", "/api/v1/send/counterparties/", token, newCounterparty())).json();
      const session = (amount: number, currency = "EUR") =>
        call("POST", "/api/v1/earn/payment-sessions/", token, {
          amount,
          currency,
          counterparty_id: counterparty.id,
          redirect_url: "https://shop.example.com/",
        });
      // -0.001 is below the minimum (the schema) and finer than a cent (the rule): one error.
      const both = await (await session(-0.001)).json();
      expect(both.errors.map((e: { field: string }) => e.field)).toEqual(["amount"]);
      // 10.001 is only finer than a cent, with a currency the schema refuses beside it.
      const rule = await (await session(10.001, "euro")).json();
      expect(rule.errors.map((e: { field: string }) => e.field).sort()).toEqual(["amount", "currency"]);
    },
  );

  it("answers an empty transaction_id with 422 naming it", async () => {
    const res = await call("GET", "/api/v1/earn/transactions//", "t");
    expect(res.status).toBe(422);
    expect((await res.json()).errors).toEqual([expect.objectContaining({ field: "transaction_id" })]);
  });

  it(
    "serves the create counterparty schema computed from the contract: " +
      "it accepts the contract's examples and needs what the contract requires",
    async () => {
      const res = await call("GET", "/api/v1/send/counterparties/schema/?payment_rail=PAYIN&type=INDIVIDUAL", "t");
      const { required_fields, json_schema } = await res.json();
      const create = openapi.components.schemas.CounterpartyCreate;
      expect(required_fields).toEqual([...create.required, ...create.properties.address.required.map((f: string) => `address.${f}`)]);
      const ajv = new Ajv2020({ strict: false });
      addFormats.default(ajv);
      const validate = ajv.compile(json_schema);
      const examples = openapi.paths["/api/v1/send/counterparties/"].post.requestBody.content["application/json"].examples;
      for (const { value } of Object.values<any>(examples)) expect(validate(value), JSON.stringify(validate.errors)).toBe(true);
      expect(validate({ ...newCounterparty(), email: "not-an-email" })).toBe(false);
      expect(validate({ ...newCounterparty(), address: { city: "Madrid" } })).toBe(false);
    },
  );

  it("expires sessions as real time passes, without a request", async () => {
    const token = `expiry-${crypto.randomUUID()}`;
    const counterparty = await (await call("POST", "/api/v1/send/counterparties/", token, newCounterparty())).json();
    const session = await (
      await call("POST", "/api/v1/earn/payment-sessions/", token, {
        amount: 5,
        currency: "EUR",
        counterparty_id: counterparty.id,
        redirect_url: "https://shop.example.com/",
      })
    ).json();
    // Bring its expiry an hour nearer in real time, directly, as if an hour had passed.
    const direct = new DatabaseSync(db);
    direct.prepare("UPDATE payment_sessions SET due_ms = due_ms - 3600000 WHERE id = ?").run(session.id);
    // The ticker's next pass expires it, however busy the machine: waited for, not timed.
    const statusOf = () =>
      (direct.prepare("SELECT status FROM payment_sessions WHERE id = ?").get(session.id) as { status: string }).status;
    await expect.poll(statusOf, { timeout: 10_000, interval: 50 }).toBe("expired");
    direct.close();
  });

  it("serves the counterparty schema without the annotations meant for people", async () => {
    const { json_schema } = await (await call("GET", "/api/v1/send/counterparties/schema/?payment_rail=PAYIN&type=INDIVIDUAL", "t")).json();
    expect(json_schema.$schema).toBe("https://json-schema.org/draft/2020-12/schema");
    const keys: string[] = [];
    const walk = (node: unknown, underProperties = false): void => {
      if (!node || typeof node !== "object") return;
      for (const [key, value] of Object.entries(node)) {
        if (!underProperties) keys.push(key);
        walk(value, key === "properties" && !underProperties);
      }
    };
    walk(json_schema);
    for (const annotation of ["title", "description", "examples", "x-decision"]) expect(keys).not.toContain(annotation);
    // What stays is what validates: the address's own required fields, and a nested format.
    expect(json_schema.properties.address.required).toEqual(openapi.components.schemas.CounterpartyCreate.properties.address.required);
    expect(json_schema.properties.email.format).toBe("email");
  });

  it("accepts http:// webhook URLs on loopback hosts only, and no other break of the contract", async () => {
    const register = async (url: unknown, extra: object = {}) => (await call("POST", "/webhooks", "loopback", { url, ...extra })).status;
    for (const url of [
      "http://localhost:3000/h",
      "http://127.0.0.1/h",
      "http://127.10.200.255:8080/h",
      "http://[::1]:9/h",
      "http://LOCALHOST/h",
    ])
      expect([200, 201], url).toContain(await register(url));
    for (const url of [
      "http://example.com/h",
      "http://notlocalhost/h",
      "http://localhost.example.com/h",
      "http://127.0.0.1.example.com/h",
      "ftp://localhost/h",
      "http://[::1/h",
      42,
    ])
      expect(await register(url), String(url)).toBe(422);
    // Only the https:// pattern is waived: a loopback URL past the contract's 2,048 characters is still refused.
    const long = await call("POST", "/webhooks", "loopback", { url: `http://localhost/${"a".repeat(2048)}` });
    expect(long.status).toBe(422);
    expect((await long.json()).errors).toEqual([{ field: "url", message: "must NOT have more than 2048 characters" }]);
    const extra = await call("POST", "/webhooks", "loopback", { url: "http://localhost/h", extra: 1 });
    expect(extra.status).toBe(422);
    expect((await extra.json()).errors).toEqual([{ field: "extra", message: "is not a field of this request" }]);
  });

  it("answers 500 with a problem when its database fails under a request, and goes on serving", async () => {
    const own = await startSandbox({ port: 0, db: path.join(dir, "broken.db") });
    try {
      const res0 = await fetch(`${own.url}/api/v1/send/counterparties/`, {
        method: "POST",
        headers: { Authorization: "Bearer b", "Content-Type": "application/json" },
        body: JSON.stringify(newCounterparty()),
      });
      const { id } = await res0.json();
      const raw = new DatabaseSync(path.join(dir, "broken.db"));
      raw.exec("CREATE TRIGGER no_sessions BEFORE INSERT ON payment_sessions BEGIN SELECT RAISE(ABORT, 'disk on fire'); END");
      raw.close();
      const errors: unknown[] = [];
      const original = console.error;
      console.error = (...args: unknown[]) => void errors.push(args.join(" "));
      let res: Response;
      try {
        res = await fetch(`${own.url}/api/v1/earn/payment-sessions/`, {
          method: "POST",
          headers: { Authorization: "Bearer b", "Content-Type": "application/json" },
          body: JSON.stringify({ amount: 1, currency: "EUR", counterparty_id: id, redirect_url: "https://shop.example.com/" }),
        });
      } finally {
        console.error = original;
      }
      expect(res.status).toBe(500);
      expect(res.headers.get("content-type")).toBe("application/problem+json");
      // The error's own words in the log only, under the reference the answer gives.
      const answer = await res.json();
      expect(answer).toMatchObject({ status: 500, code: "internal_error" });
      const reference = answer.request_id;
      expect([reference, answer.detail]).toEqual([
        expect.stringMatching(/^req_[\w-]{16}$/),
        `The sandbox failed on this request; its operator finds why in its log under ${reference}.`,
      ]);
      expect(JSON.stringify(answer)).not.toContain("disk on fire");
      expect(errors).toEqual([expect.stringMatching(new RegExp(`^payin-sandbox: ${reference}: Error: disk on fire`))]);
      expect((await fetch(`${own.url}/webhooks`, { headers: { Authorization: "Bearer b" } })).status).toBe(404);
    } finally {
      await own.close();
    }
  });
});

describe("startSandbox with a database file it cannot use", () => {
  it(
    "rejects with an Error that names the file and says why, " +
      "for a folder that is missing, a file where a folder should be, a folder as the file",
    async () => {
      const file = path.join(dir, "plain-file");
      writeFileSync(file, "");
      const cases = [
        [
          path.join(dir, "missing", "sandbox.db"),
          `the folder ${path.join(dir, "missing")} does not exist; create it, or give a path in a folder that exists`,
        ],
        [path.join(file, "sandbox.db"), `${file} is a file, not a folder; give a path in a folder`],
        [dir, `it is a folder, not a file; give the path of a file, such as ${path.join(dir, "sandbox.db")}`],
      ];
      for (const [db, reason] of cases) {
        const error = await startSandbox({ port: 0, db }).then(
          () => undefined,
          (e: Error) => e,
        );
        expect(error, db).toBeInstanceOf(Error);
        expect(error!.message).toBe(`The sandbox cannot open its database ${db}: ${reason}.`);
        expect((error!.cause as Error).message).toBe("unable to open database file");
      }
    },
  );

  it("names a relative path as given, and its folder in full", async () => {
    const relative = path.relative(process.cwd(), path.join(dir, "nowhere", "sandbox.db"));
    await expect(startSandbox({ port: 0, db: relative })).rejects.toThrow(
      `The sandbox cannot open its database ${relative}: the folder ${path.join(dir, "nowhere")} does not exist; ` +
        "create it, or give a path in a folder that exists.",
    );
  });
});
