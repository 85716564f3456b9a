// The sandbox dashboard as plain HTML strings: a token form, or one account's counterparties,
// sessions, transactions and events with their delivery attempts, and the forms that act on
// them. No script, no asset from anywhere.
import { escapeHtml as e, formatAmount } from "../page/render.ts";
import { PAGE_PREFIX, type DashboardData } from "../../api/pages/index.ts";

export const DASHBOARD = "/_sandbox/dashboard";

const STYLE = `
*{box-sizing:border-box}body{margin:0;font:15px/1.5 system-ui,sans-serif;color:#1b2430;background:#f4f6f9}
header{background:#1b2430;color:#fff;padding:12px 16px;display:flex;flex-wrap:wrap;gap:8px;align-items:center;justify-content:space-between}
header h1{font-size:18px;margin:0}main{max-width:1100px;margin:0 auto;padding:16px}
section{background:#fff;border:1px solid #dde3ea;border-radius:8px;padding:12px 16px;margin:0 0 16px}
h2{font-size:16px;margin:0 0 8px}.scroll{overflow-x:auto}table{border-collapse:collapse;width:100%;min-width:560px}
th,td{text-align:left;padding:6px 8px;border-top:1px solid #eef1f4;vertical-align:top;font-size:14px}th{color:#5b6675;font-weight:600}
code{font:13px ui-monospace,monospace;overflow-wrap:anywhere}form{display:inline-flex;gap:6px;flex-wrap:wrap;margin:2px 0}
button,input,select{font:inherit;padding:4px 10px;border:1px solid #b8c2cd;border-radius:6px;background:#fff}
button{cursor:pointer;background:#2450d6;color:#fff;border-color:#2450d6}.quiet{background:#fff;color:#1b2430}
.ok{color:#137333}.bad{color:#b3261e}.note{padding:8px 12px;border-radius:6px;margin:0 0 16px}
.note.ok{background:#e6f4ea}.note.bad{background:#fce8e6}ul.attempts{margin:0;padding-left:18px}
`;

function layout(body: string, signedIn: boolean): string {
  const signOut = signedIn
    ? `<form method="post" action="${DASHBOARD}/sign-out"><button class="quiet" type="submit">Sign out</button></form>`
    : "";
  return `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width,initial-scale=1">
<title>Payin sandbox dashboard</title><style>${STYLE}</style></head>
<body><header><h1>Payin sandbox dashboard</h1>${signOut}</header><main>${body}</main></body></html>`;
}

const note = (message?: { ok: boolean; text: string }) =>
  message ? `<p class="note ${message.ok ? "ok" : "bad"}" role="status">${e(message.text)}</p>` : "";

export function signInPage(message?: { ok: boolean; text: string }): string {
  return layout(
    `${note(message)}<section><h2>Sign in with a sandbox token</h2>
<p>The bearer token your tests use: each token is an account of its own, and this page shows only its data.</p>
<form method="post" action="${DASHBOARD}/sign-in"><label>Token <input name="token" required autocomplete="off"></label>
<button type="submit">Open</button></form></section>`,
    false,
  );
}

const table = (head: string[], rows: string[], empty: string) =>
  rows.length === 0
    ? `<p>${e(empty)}</p>`
    : `<div class="scroll"><table><thead><tr>${head.map((h) => `<th>${e(h)}</th>`).join("")}</tr></thead>` +
      `<tbody>${rows.join("")}</tbody></table></div>`;

function sessionActions(id: string, failureReasons: readonly string[]): string {
  const reasons = failureReasons.map((r) => `<option value="${e(r)}">${e(r)}</option>`).join("");
  const session = `<input type="hidden" name="session_id" value="${e(id)}">`;
  return `<form method="post" action="${DASHBOARD}/pay">${session}<button type="submit">Pay</button></form>
<form method="post" action="${DASHBOARD}/fail">${session}
<select name="failure_reason" aria-label="Failure reason">${reasons}</select><button class="quiet" type="submit">Fail</button></form>`;
}

const waiting = (state: string) => (state === "waiting" ? "waiting for a webhook URL" : state);

export function dashboardPage(data: DashboardData, message?: { ok: boolean; text: string }): string {
  const clock = `<section><h2>Clock</h2><p>The account's time: <code>${e(data.now)}</code></p>
<form method="post" action="${DASHBOARD}/advance">
<label>Advance by <input name="seconds" inputmode="numeric" size="8" value="60"> seconds</label>
<button type="submit">Advance</button></form></section>`;
  const counterparties = table(
    ["Counterparty", "Email", "Phone"],
    data.counterparties.map((c) => `<tr><td><code>${e(c.id)}</code></td><td>${e(c.email)}</td><td>${e(c.phone_number)}</td></tr>`),
    "No counterparty yet.",
  );
  const sessions = table(
    ["Session", "Status", "Amount", "Expires", ""],
    data.sessions.map(
      (s) =>
        `<tr><td><a href="${PAGE_PREFIX}${encodeURIComponent(s.id)}"><code>${e(s.id)}</code></a></td><td>${e(s.status)}</td>` +
        `<td>${e(formatAmount(s.amount, s.currency))}</td><td><code>${e(s.expires_at)}</code></td>` +
        `<td>${s.status === "created" ? sessionActions(s.id, data.failure_reasons) : ""}</td></tr>`,
    ),
    "No payment session yet.",
  );
  const transactions = table(
    ["Transaction", "Status", "Session", "Amount"],
    data.transactions.map(
      (t) =>
        `<tr><td><code>${e(t.id)}</code></td><td>${e(t.status)}${t.failure_reason ? ` (${e(t.failure_reason)})` : ""}</td>` +
        `<td><code>${e(t.session_id)}</code></td><td>${e(formatAmount(t.amount, t.currency))}</td></tr>`,
    ),
    "No transaction yet.",
  );
  const events = table(
    ["Event", "About", "Delivery attempts", ""],
    data.events.map((ev) => {
      const attempts = (data.attempts.get(ev.id) ?? []).map(
        (a) =>
          `<li class="${a.succeeded ? "ok" : "bad"}">#${a.attempt} ${a.succeeded ? "succeeded" : "failed"} ` +
          `${a.response_status ?? ""} <code>${e(a.attempted_at)}</code>${a.error ? ` ${e(a.error.slice(0, 120))}` : ""}</li>`,
      );
      return (
        `<tr><td>${e(ev.type)}<br><code>${e(ev.id)}</code></td><td><code>${e(ev.transaction_id ?? ev.session_id)}</code></td>` +
        `<td>${attempts.length ? `<ul class="attempts">${attempts.join("")}</ul>` : e(waiting(ev.state))}</td>` +
        `<td><form method="post" action="${DASHBOARD}/redeliver"><input type="hidden" name="event_id" value="${e(ev.id)}">` +
        `<button class="quiet" type="submit">Resend</button></form></td></tr>`
      );
    }),
    "No event yet.",
  );
  return layout(
    `${note(message)}${clock}<section><h2>Payment sessions</h2>${sessions}</section>` +
      `<section><h2>Events</h2>${events}</section><section><h2>Transactions</h2>${transactions}</section>` +
      `<section><h2>Counterparties</h2>${counterparties}</section>`,
    true,
  );
}
