// The sandbox dashboard over HTTP: the token form, one account's objects and events and nothing
// of another's, each button doing what the control API does, bad input told on the page, and a
// form from another site refused.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startSandbox, type RunningSandbox } from "../../src/sandbox/index.ts";
import { accountOn } from "../support/sandbox-account.ts";
import { startReceiver, type Receiver } from "../support/receiver.ts";

let sandbox: RunningSandbox;
let endpoint: Receiver;
beforeAll(async () => {
  sandbox = await startSandbox({ port: 0 });
  endpoint = await startReceiver();
});
afterAll(async () => {
  await sandbox.close();
  await endpoint.close();
});

const DASHBOARD = "/_sandbox/dashboard";

/** A browser signed in with `token`: it keeps the cookie and follows no redirect. */
async function signedIn(token: string) {
  const signIn = await post("", `${DASHBOARD}/sign-in`, { token });
  expect(signIn.status).toBe(303);
  const cookie = signIn.headers.get("set-cookie")!;
  expect(cookie).toMatch(/HttpOnly; SameSite=Strict/);
  const jar = cookie.split(";")[0]!;
  return {
    page: async (query = "") => (await fetch(`${sandbox.url}${DASHBOARD}${query}`, { headers: { cookie: jar } })).text(),
    act: async (action: string, form: Record<string, string>) => {
      const res = await post(jar, `${DASHBOARD}/${action}`, form);
      expect(res.status).toBe(303);
      const { searchParams } = new URL(res.headers.get("location")!, sandbox.url);
      return [...searchParams].map(([key, value]) => `?${key}=${value}`).join("");
    },
  };
}
const post = (cookie: string, route: string, form: Record<string, string>, headers: Record<string, string> = {}) =>
  fetch(sandbox.url + route, {
    method: "POST",
    headers: { cookie, "content-type": "application/x-www-form-urlencoded", ...headers },
    body: new URLSearchParams(form).toString(),
    redirect: "manual",
  });

describe("the sandbox dashboard", () => {
  it("asks for a token first", async () => {
    const html = await (await fetch(`${sandbox.url}${DASHBOARD}`)).text();
    expect(html).toMatch(/Sign in with a sandbox token/);
    expect(html).toMatch(/<form method="post" action="\/_sandbox\/dashboard\/sign-in">/);
  });

  it("shows the token's account: its sessions, transactions, counterparties, events and attempts; another token sees none", async () => {
    const account = accountOn(sandbox.url);
    await account.register(endpoint.url);
    const session = await account.session();
    const paid = await account.simulate(session.id, { outcome: "pay" });
    await account.advance(1);
    const mine = await (await signedIn(account.token)).page();
    for (const id of [session.id, session.counterparty_id, paid.body.transaction.id]) expect(mine).toContain(id);
    expect(mine).toMatch(/transaction-completed<br><code>msg_/);
    expect(mine).toMatch(/#1 succeeded 204/);
    const other = await (await signedIn(`other-${crypto.randomUUID()}`)).page();
    for (const id of [session.id, session.counterparty_id, paid.body.transaction.id]) expect(other).not.toContain(id);
    expect(other).toMatch(/No payment session yet/);
  });

  it("pays and fails a session, advances the clock and resends an event, as the control API does", async () => {
    const account = accountOn(sandbox.url);
    await account.register(endpoint.url);
    const [a, b] = [await account.session(), await account.session()];
    const browser = await signedIn(account.token);
    expect(await browser.act("pay", { session_id: a.id })).toBe(`?done=Session ${a.id}: paid.`);
    expect(await browser.act("fail", { session_id: b.id, failure_reason: "insufficient_funds" })).toMatch(/failed \(insufficient_funds\)/);
    expect(await browser.act("advance", { seconds: "3601" })).toBe("?done=The clock moved 3601 s.");
    const statuses = await Promise.all(
      [a, b].map(async (s) => (await account.call("GET", `/_sandbox/v1/payment-sessions/${s.id}`)).body.status),
    );
    expect(statuses).toEqual(["completed", "expired"]);
    // As far as the control API's schema allows: ten years at once.
    expect(await browser.act("advance", { seconds: "315360000" })).toBe("?done=The clock moved 315360000 s.");
    expect((await account.advance(1)).body.offset_seconds).toBe(3601 + 315360000 + 1);
    const [first] = await account.deliveries();
    expect(await browser.act("redeliver", { event_id: first.event_id })).toBe(`?done=Event ${first.event_id} sent again.`);
    expect((await account.deliveries()).filter((d) => d.event_id === first.event_id)).toHaveLength(2);
  });

  it("tells bad input on the page, never a crash", async () => {
    const account = accountOn(sandbox.url);
    const browser = await signedIn(account.token);
    // Checked by the control API's own schemas: its words, naming the field.
    expect(await browser.act("advance", { seconds: "soon" })).toBe("?error=The request has 1 invalid field. seconds must be integer.");
    expect(await browser.act("advance", { seconds: "315360001" })).toBe(
      "?error=The request has 1 invalid field. seconds must be <= 315360000.",
    );
    expect(await browser.act("pay", { session_id: "ps_none" })).toMatch(/^\?error=No (payment )?session/i);
    expect(await browser.act("fail", { session_id: "ps_none", failure_reason: "<b>" })).toMatch(/^\?error=.*failure_reason must match/);
    expect(await browser.act("redeliver", { event_id: "msg_none" })).toMatch(/^\?error=No event with id msg_none/);
    expect(await browser.act("refund", {})).toMatch(/^\?error=The dashboard has no action refund/);
    expect(await browser.page("?error=%3Cscript%3Ex")).toContain("&lt;script&gt;x");
  });

  it("refuses a form posted from another site, and one without a token", async () => {
    const account = accountOn(sandbox.url);
    const session = await account.session();
    const jar = (await post("", `${DASHBOARD}/sign-in`, { token: account.token })).headers.get("set-cookie")!.split(";")[0]!;
    const forged = await post(jar, `${DASHBOARD}/pay`, { session_id: session.id }, { origin: "https://evil.example" });
    expect(forged.status).toBe(403);
    const anonymous = await post("", `${DASHBOARD}/pay`, { session_id: session.id });
    expect(anonymous.headers.get("location")).toMatch(/error=Sign\+in/);
    expect((await account.call("GET", `/_sandbox/v1/payment-sessions/${session.id}`)).body.status).toBe("created");
  });
});
