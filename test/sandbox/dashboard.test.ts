// The sandbox dashboard over HTTP: the token form, one account's objects and events and nothing
// of another's, each button doing what the control API does, bad input told on the page, and a
// form from another site refused; each attempt as it was sent and answered (kept only embedded),
// the events filtered, a Resend back at its event, and the listener as where deliveries go. The
// page's messages are the sandbox's own, never a link's text.
import { createServer, type IncomingHttpHeaders } from "node:http";
import type { AddressInfo } from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { EVENT_TYPES } from "../../generated/event-types.ts";
import { listen } from "../../src/listen/index.ts";
import { startSandbox, type RunningSandbox } from "../../src/sandbox/index.ts";
import { verifyWebhook } from "../../src/webhooks/index.ts";
import { newCounterparty } from "../../src/conformance/fixtures.ts";
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
const NOTE = "payin_sandbox_note";

/** A button's message as its redirect leaves it for the page (`done: …` or `error: …`), from the cookie it sets. */
function noteOf(res: Response): string {
  const cookie = res.headers.get("set-cookie") ?? "";
  expect(cookie).toMatch(new RegExp(`^${NOTE}=(ok|bad)\\.[^;]*; Path=${DASHBOARD}; HttpOnly; SameSite=Strict; Max-Age=60$`));
  const [kind, ...text] = decodeURIComponent(cookie.slice(NOTE.length + 1).split(";")[0]!).split(".");
  return `${kind === "ok" ? "done" : "error"}: ${text.join(".")}`;
}

/** A browser signed in with `token` on `base`: it keeps its cookies, the token's and a button's message, and follows no redirect. */
async function signedIn(token: string, base = sandbox.url) {
  const signIn = await post("", `${DASHBOARD}/sign-in`, { token }, {}, base);
  expect(signIn.status).toBe(303);
  const cookie = signIn.headers.get("set-cookie")!;
  expect(cookie).toMatch(/HttpOnly; SameSite=Strict/);
  const jar = cookie.split(";")[0]!;
  let note: string | undefined;
  const cookies = () => [jar, ...(note ? [note] : [])].join("; ");
  return {
    page: async (query = "") => {
      const res = await fetch(`${base}${DASHBOARD}${query}`, { headers: { cookie: cookies() } });
      // A message shows once: the page forgets it.
      if (note) expect(res.headers.get("set-cookie")).toMatch(new RegExp(`^${NOTE}=; .*Max-Age=0$`));
      note = undefined;
      return res.text();
    },
    /** Presses a button: its message, and where the redirect goes (its query decoded, and its anchor) when anywhere but the page. */
    act: async (action: string, form: Record<string, string>) => {
      const res = await post(cookies(), `${DASHBOARD}/${action}`, form, {}, base);
      expect(res.status).toBe(303);
      note = res.headers.get("set-cookie")!.split(";")[0]!;
      const { pathname, searchParams, hash } = new URL(res.headers.get("location")!, base);
      expect(pathname).toBe(DASHBOARD);
      const where = [...searchParams].map(([key, value]) => `?${key}=${value}`).join("") + decodeURIComponent(hash);
      return `${noteOf(res)}${where ? ` → ${where}` : ""}`;
    },
  };
}
const post = (cookie: string, route: string, form: Record<string, string>, headers: Record<string, string> = {}, base = sandbox.url) =>
  fetch(base + route, {
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
    // The session with its order and customer, as a developer finds it.
    expect(mine).toMatch(
      new RegExp(`${session.id}.*${session.order_id}.*Ana Conformance</span><br>.*>ana\\.conformance\\+\\d+@example\\.com<.*€10\\.00`, "s"),
    );
    expect(mine).toMatch(/<span class="kind">transaction-completed<\/span>.*?<span class="outcome ok">delivered<\/span>/s);
    expect(mine).toMatch(/#1 <span class="ok">succeeded<\/span>/);
    expect(mine).toMatch(/<strong class="ok">204<\/strong> in \d+ ms<\/p><p class="muted">No body\.<\/p>/);
    const other = await (await signedIn(`other-${crypto.randomUUID()}`)).page();
    for (const id of [session.id, session.counterparty_id, paid.body.transaction.id]) expect(other).not.toContain(id);
    expect(other).toMatch(/No payment session yet/);
  });

  it("pays and fails a session, advances the clock and resends an event, as the control API does", async () => {
    const account = accountOn(sandbox.url);
    await account.register(endpoint.url);
    const [a, b] = [await account.session(), await account.session()];
    const browser = await signedIn(account.token);
    expect(await browser.act("pay", { session_id: a.id })).toBe(`done: Session ${a.id}: paid.`);
    expect(await browser.act("fail", { session_id: b.id, failure_reason: "insufficient_funds" })).toMatch(/failed \(insufficient_funds\)/);
    expect(await browser.act("advance", { seconds: "3601" })).toBe("done: The clock moved 3601 s.");
    const statuses = await Promise.all(
      [a, b].map(async (s) => (await account.call("GET", `/_sandbox/v1/payment-sessions/${s.id}`)).body.status),
    );
    expect(statuses).toEqual(["completed", "expired"]);
    // As far as the control API's schema allows: ten years at once.
    expect(await browser.act("advance", { seconds: "315360000" })).toBe("done: The clock moved 315360000 s.");
    expect((await account.advance(1)).body.offset_seconds).toBe(3601 + 315360000 + 1);
    const [first] = await account.deliveries();
    // Back at the event, its delivery opened, with the attempt made; in the view (the filter) the button was pressed in.
    const said = `Event ${first.event_id} sent again: attempt #2 succeeded (204), to ${endpoint.url}.`;
    expect(await browser.act("redeliver", { event_id: first.event_id, type: first.event_type })).toBe(
      `done: ${said} → ?type=${first.event_type}?open=${first.event_id}#${first.event_id}`,
    );
    expect((await account.deliveries()).filter((d) => d.event_id === first.event_id)).toHaveLength(2);
    const back = await browser.page(`?type=${first.event_type}&open=${first.event_id}`);
    expect(back).toContain(`<div class="delivery" id="${first.event_id}"><p class="note ok" role="status">${said}</p>`);
    expect(back).toMatch(new RegExp(`<details open><summary>.*?<div class="delivery" id="${first.event_id}">`, "s"));
    expect(back).toMatch(/<h3>Attempts, newest first<\/h3><ol class="attempts"><li class="went"><h4>#2 /);
  });

  it("tells bad input on the page, never a crash", async () => {
    const account = accountOn(sandbox.url);
    const browser = await signedIn(account.token);
    // Checked by the control API's own schemas: its words, naming the field.
    expect(await browser.act("advance", { seconds: "soon" })).toBe("error: The request has 1 invalid field. seconds must be integer.");
    expect(await browser.act("advance", { seconds: "315360001" })).toBe(
      "error: The request has 1 invalid field. seconds must be <= 315360000.",
    );
    expect(await browser.act("pay", { session_id: "ps_none" })).toMatch(/^error: No (payment )?session/i);
    expect(await browser.act("fail", { session_id: "ps_none", failure_reason: "<b>" })).toMatch(/^error: .*failure_reason must match/);
    expect(await browser.act("redeliver", { event_id: "msg_none" })).toMatch(/^error: No event with id msg_none/);
    expect(await browser.act("refund", {})).toMatch(/^error: The dashboard has no action refund/);
    // Shown as text, once.
    expect(await browser.page()).toContain('<p class="note bad" role="status">The dashboard has no action refund.</p>');
    expect(await browser.page()).not.toContain('class="note');
  });

  it("shows no text a link brings: a message is a button's, left by its redirect for the page, never in the link", async () => {
    const account = accountOn(sandbox.url);
    const bait = "Your account is suspended: call +1 555 0100 and read out your token.";
    const link = `?error=${encodeURIComponent(bait)}&done=${encodeURIComponent(bait)}`;
    const anonymous = await (await fetch(`${sandbox.url}${DASHBOARD}${link}`)).text();
    const signedInPage = await (await signedIn(account.token)).page(link);
    for (const page of [anonymous, signedInPage]) {
      expect(page).not.toContain("suspended");
      expect(page).not.toContain('class="note');
    }
    expect(signedInPage).toContain("Payment sessions");
    // A cookie that is not one the page set shows nothing either; one that is not UTF-8 is no token.
    const forged = await fetch(`${sandbox.url}${DASHBOARD}`, { headers: { cookie: `${NOTE}=odd.${encodeURIComponent(bait)}` } });
    expect(await forged.text()).not.toContain("suspended");
    const broken = await fetch(`${sandbox.url}${DASHBOARD}`, { headers: { cookie: "payin_sandbox_token=%FF%00" } });
    expect([broken.status, await broken.text()]).toEqual([200, expect.stringContaining("Sign in with a sandbox token")]);
    // A message too long for a cookie (a Resend's to a long URL, an action's long name) is cut to fit one.
    const jar = (await post("", `${DASHBOARD}/sign-in`, { token: account.token })).headers.get("set-cookie")!.split(";")[0]!;
    const long = await post(jar, `${DASHBOARD}/${"é".repeat(1500)}`, {});
    expect(long.headers.get("set-cookie")!.length).toBeLessThan(4096);
    expect(noteOf(long)).toMatch(/^error: The dashboard has no action (%C3%A9)+[%\dA-F]*…$/);
  });

  it("shows what a session's order and customer hold as text, never as markup", async () => {
    const account = accountOn(sandbox.url);
    const hostile = `<img src=x onerror="alert('x')">`;
    const person = { ...newCounterparty(), first_name: hostile, last_name: "&amp;" };
    const counterparty = (await account.call("POST", "/api/v1/send/counterparties/", person)).body;
    await account.session({ counterparty_id: counterparty.id, order_id: hostile });
    const page = await (await signedIn(account.token)).page();
    const shown = `&lt;img src=x onerror=&quot;alert(&#39;x&#39;)&quot;&gt;`;
    // The order and the customer's name in the sessions (each in its title too), the name in the counterparties; the order in
    // the event's body, as JSON.
    expect(page.split(shown).length - 1).toBe(5);
    expect(page).toContain(`${shown} &amp;amp;`);
    expect(page).toContain(`&quot;order_id&quot;:&quot;&lt;img src=x onerror=\\&quot;alert(&#39;x&#39;)\\&quot;&gt;&quot;`);
    expect(page).not.toContain("<img");
  });

  it("refuses a form posted from another site, and one without a token", async () => {
    const account = accountOn(sandbox.url);
    const session = await account.session();
    const jar = (await post("", `${DASHBOARD}/sign-in`, { token: account.token })).headers.get("set-cookie")!.split(";")[0]!;
    const forged = await post(jar, `${DASHBOARD}/pay`, { session_id: session.id }, { origin: "https://evil.example" });
    expect(forged.status).toBe(403);
    const anonymous = await post("", `${DASHBOARD}/pay`, { session_id: session.id });
    expect([anonymous.headers.get("location"), noteOf(anonymous)]).toEqual([DASHBOARD, "error: Sign in with a token first."]);
    expect((await account.call("GET", `/_sandbox/v1/payment-sessions/${session.id}`)).body.status).toBe("created");
  });
});

/** A receiver on loopback that answers each delivery as `answer` says, keeping what it got. */
async function answering(answer: (body: string) => { status: number; body: string }) {
  const got: Array<{ headers: IncomingHttpHeaders; body: string }> = [];
  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on("data", (chunk: Buffer) => chunks.push(chunk));
    req.on("end", () => {
      const body = Buffer.concat(chunks).toString();
      got.push({ headers: req.headers, body });
      const { status, body: answered } = answer(body);
      res.writeHead(status, { "Content-Type": "text/html" }).end(answered);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/hook`;
  return { url, got, close: () => new Promise((resolve) => server.close(resolve)) };
}

/** The text an HTML fragment shows: its entities decoded. */
const text = (html: string) =>
  html.replace(/&(lt|gt|quot|#39|amp);/g, (_, name: string) => ({ lt: "<", gt: ">", quot: '"', "#39": "'", amp: "&" })[name]!);

/** How many events the page lists. */
const listed = (html: string) => html.match(/<span class="kind">/g)?.length ?? 0;

describe("each event's delivery on the dashboard", () => {
  it("shows each attempt's request as sent, whose headers and body verify, and the answer's first 512 bytes, escaped", async () => {
    const hostile = `<script>alert("it's")</script>`;
    const receiver = await answering(() => ({ status: 500, body: hostile + "z".repeat(1000) }));
    try {
      const account = accountOn(sandbox.url);
      const secret = await account.register(receiver.url);
      await account.session();
      await expect.poll(async () => (await account.deliveries()).length).toBe(1);
      const browser = await signedIn(account.token);
      const [{ event_id: id }] = await account.deliveries();
      expect(await browser.act("redeliver", { event_id: id })).toMatch(/^done: Event .* sent again: attempt #2 failed \(500\)/);
      const html = await browser.page();
      const shown = [...html.matchAll(/<pre>POST (\S+)\n([^<]*?)\n\n([^<]*?)<\/pre>/g)].map(([, url, head, body]) => ({
        url: text(url!),
        headers: Object.fromEntries(
          text(head!)
            .split("\n")
            .map((line) => line.split(": ") as [string, string]),
        ),
        body: text(body!),
      }));
      // Newest first, each as the receiver got it: its own timestamp and signature, and the one body.
      expect(shown).toHaveLength(2);
      for (const [i, request] of shown.entries()) {
        const got = receiver.got[shown.length - 1 - i]!;
        expect(Object.keys(request.headers)).toEqual([
          "webhook-id",
          "webhook-timestamp",
          "webhook-signature",
          "Content-Type",
          "User-Agent",
        ]);
        for (const [name, value] of Object.entries(request.headers)) expect(got.headers[name.toLowerCase()]).toBe(value);
        expect([request.url, request.body]).toEqual([receiver.url, got.body]);
        await expect(verifyWebhook(request.body, request.headers, secret)).resolves.toMatchObject({ id, type: "session-created" });
      }
      // The answer's first 512 bytes, as text that shows, never as markup.
      const first = `${hostile}${"z".repeat(512 - hostile.length)}`;
      const escaped = first.replace(/[<>"']/g, (c) => `&${{ "<": "lt", ">": "gt", '"': "quot", "'": "#39" }[c]};`);
      expect(html).toContain(`<p class="muted">Its body's first bytes:</p><pre>${escaped}</pre>`);
      expect(html).not.toContain(hostile);
    } finally {
      await receiver.close();
    }
  });

  it("lists the events by type, outcome and session from the page's query; a value that cannot be one is told and left out", async () => {
    const receiver = await answering((body) => ({ status: JSON.parse(body).type === "transaction-failed" ? 500 : 204, body: "" }));
    try {
      const account = accountOn(sandbox.url);
      await account.register(receiver.url);
      const [paid, failed] = [await account.session(), await account.session()];
      await account.simulate(paid.id, { outcome: "pay" });
      await account.simulate(failed.id, { outcome: "fail", failure_reason: "card_declined" });
      await account.advance(1);
      const all = await account.deliveries();
      const browser = await signedIn(account.token);
      expect(listed(await browser.page())).toBe(new Set(all.map((d) => d.event_id)).size);
      const byType = await browser.page("?type=transaction-failed");
      expect([listed(byType), byType]).toEqual([1, expect.stringContaining("<option selected>transaction-failed</option>")]);
      // Failed: its last attempt failed, a retry to come.
      const failing = await browser.page("?outcome=failed");
      expect([listed(failing), failing]).toEqual([
        1,
        expect.stringMatching(/transaction-failed.*Its last attempt failed: the next is due at/s),
      ]);
      const ofSession = await browser.page(`?outcome=delivered&session=${paid.id}`);
      expect(listed(ofSession)).toBe(all.filter((d) => d.session_id === paid.id).length);
      expect(ofSession).not.toContain(`About session <a href="/_sandbox/dashboard?session=${failed.id}`);
      expect(await browser.page("?outcome=unsent")).toContain("<p>No event matches this filter.</p>");
      // Told, and left out: the page lists what the rest of the filter selects.
      const wrong = await browser.page(`?type=%3Cb%3E&outcome=lost&session=${"x".repeat(65)}`);
      expect(wrong).toContain(
        `<p class="note bad" role="status">Not applied: type must be one of ${EVENT_TYPES.join(", ")}; ` +
          "outcome must be one of delivered, failed, unsent; session must NOT have more than 64 characters.</p>",
      );
      expect(listed(wrong)).toBe(listed(await browser.page()));
      // Text no session's id can be (markup, a NUL, a byte that is not UTF-8) selects nothing: told, and left out.
      for (const session of ["%3Cscript%3E", "ps_%00x", "ps_%FF", "%00"]) {
        const page = await browser.page(`?session=${session}`);
        expect([session, page]).toEqual([session, expect.stringContaining("session must be a session&#39;s id")]);
        expect([session, listed(page)]).toEqual([session, listed(await browser.page())]);
        expect(page).not.toContain("&lt;script");
      }
    } finally {
      await receiver.close();
    }
  });
});

describe("where the dashboard says deliveries go", () => {
  it("nowhere: events wait and Resend says why; then the listener connected with payin-listen, which a Resend goes to", async () => {
    const account = accountOn(sandbox.url);
    await account.session();
    const browser = await signedIn(account.token);
    const before = await browser.page();
    expect(before).toContain(
      "Nowhere to deliver yet: events wait for a webhook URL (<code>POST /webhooks</code>) or a listener (<code>payin-listen</code>).",
    );
    expect(before).toMatch(/unsent<\/span>.*Waiting for somewhere to go: a webhook URL or a listener \(payin-listen\)\./s);
    const id = /<div class="delivery" id="(msg_[^"]+)"/.exec(before)![1]!;
    expect(await browser.act("redeliver", { event_id: id })).toBe(
      "error: This account has no webhook URL and no listener connected; register a URL with POST /webhooks, or connect payin-listen." +
        ` → ?open=${id}#${id}`,
    );
    const local = await startReceiver();
    const listener = await listen({ baseUrl: sandbox.url, token: account.token, forwardTo: local.url, log: () => {} });
    try {
      await expect.poll(() => browser.page()).toContain('#1 <span class="ok">succeeded</span>');
      const page = await browser.page();
      expect(page).toContain(
        `<p>Deliveries go to the listener connected with payin-listen, which passes them on to <code>${local.url}</code>.</p>`,
      );
      expect(page).not.toMatch(/webhook URL|Waiting/);
      expect(page).toContain("A listener reports its endpoint's status only.");
      expect(await browser.act("redeliver", { event_id: id })).toBe(
        `done: Event ${id} sent again: attempt #2 succeeded (204), to ${local.url}. → ?open=${id}#${id}`,
      );
      expect(local.attempts.map((a) => a.id)).toEqual([id, id]);
    } finally {
      await listener.close();
      await local.close();
    }
  });

  it("hosted: each answer's status and time, never its bytes, and the page says why (decision D21)", async () => {
    const hosted = await startSandbox({ port: 0, allowWebhookHosts: ["127.0.0.1"], allowWebhookNetworks: ["127.0.0.0/8"] });
    const receiver = await answering(() => ({ status: 200, body: "the receiver's own words" }));
    try {
      const account = accountOn(hosted.url);
      await account.register(receiver.url);
      await account.session();
      await expect.poll(async () => (await account.deliveries()).length).toBe(1);
      const page = await (await signedIn(account.token, hosted.url)).page();
      expect(page).toContain(
        '<p class="muted">This sandbox is hosted: of each answer it keeps the status and the time, never the body or the headers ' +
          "(decision D21).</p>",
      );
      expect(page).toMatch(/<strong class="ok">200<\/strong> in \d+ ms<\/p><p class="muted">Its body and headers are not kept/);
      expect(page).not.toContain("own words");
    } finally {
      await hosted.close();
      await receiver.close();
    }
  });
});
