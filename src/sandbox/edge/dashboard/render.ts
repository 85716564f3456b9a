// The sandbox dashboard as plain HTML strings: a token form, or one account's sessions (with their
// order and customer), events with their deliveries, transactions and counterparties, and the
// forms that act on them. No script, no asset from anywhere; a table becomes cards on a phone.
import { formatAmount } from "../page/render.ts";
import { PAGE_PREFIX, type DashboardData } from "../../api/pages/index.ts";
import { eventsSection } from "./deliveries.ts";
import { clipped, code, e, note, when, type Message } from "./html.ts";
import { DASHBOARD, viewUrl } from "./place.ts";
import { STYLE } from "./style.ts";

function layout(body: string, signedIn: boolean): string {
  const signOut = signedIn
    ? `<form method="post" action="${DASHBOARD}/sign-out"><button class="quiet" type="submit">Sign out</button></form>`
    : "";
  return `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width,initial-scale=1">
<title>Payin sandbox dashboard</title><style>${STYLE}</style></head>
<body><header><h1>Payin sandbox dashboard</h1>${signOut}</header><main>${body}</main></body></html>`;
}

export function signInPage(message?: Message): string {
  return layout(
    `${note(message)}<section><h2>Sign in with a sandbox token</h2>
<p>The bearer token your tests use: each token is an account of its own, and this page shows only its data.</p>
<form method="post" action="${DASHBOARD}/sign-in"><label>Token <input name="token" required autocomplete="off"></label>
<button type="submit">Open</button></form></section>`,
    false,
  );
}

/** A table whose rows become cards where it does not fit: each cell labelled with its column (an unlabelled one holds actions). */
function table(head: string[], rows: string[][], empty: string) {
  if (rows.length === 0) return `<p>${e(empty)}</p>`;
  const cell = (html: string, i: number) => (head[i] ? `<td data-label="${e(head[i])}">${html}</td>` : `<td class="actions">${html}</td>`);
  return (
    `<table><thead><tr>${head.map((h) => `<th>${e(h)}</th>`).join("")}</tr></thead>` +
    `<tbody>${rows.map((row) => `<tr>${row.map(cell).join("")}</tr>`).join("")}</tbody></table>`
  );
}

/** A link to the session's events and their deliveries. */
const eventsOf = (sessionId: string, text: string) => `<a href="${e(viewUrl({ session: sessionId }))}#events">${text}</a>`;

function sessionActions(id: string, failureReasons: readonly string[]): string {
  const reasons = failureReasons.map((r) => `<option value="${e(r)}">${e(r)}</option>`).join("");
  const session = `<input type="hidden" name="session_id" value="${e(id)}">`;
  return `<form method="post" action="${DASHBOARD}/pay">${session}<button type="submit">Pay</button></form>
<form method="post" action="${DASHBOARD}/fail">${session}
<select name="failure_reason" aria-label="Failure reason">${reasons}</select><button class="quiet" type="submit">Fail</button></form>`;
}

export function dashboardPage(data: DashboardData, message?: Message, open?: string): string {
  // A Resend's message shows at its event, where the reader is; any other at the top.
  const atEvent = open !== undefined && data.events.some((event) => event.id === open);
  const clock = `<section><h2>Clock</h2><p>The account's time: ${code(data.now)}. Every time on this page is on this clock.</p>
<form method="post" action="${DASHBOARD}/advance">
<label>Advance by <input name="seconds" inputmode="numeric" size="8" value="60"> seconds</label>
<button type="submit">Advance</button></form></section>`;
  const sessions = table(
    ["Session", "Order", "Customer", "Amount", "Status", "Expires", ""],
    data.sessions.map((s) => [
      `<a href="${PAGE_PREFIX}${e(encodeURIComponent(s.id))}">${code(s.id)}</a><br>${eventsOf(s.id, "its events")}`,
      s.order_id ? clipped(s.order_id) : `<span class="muted">none</span>`,
      s.customer
        ? `<span class="contact">${clipped(s.customer.name, "span")}<br>${clipped(s.customer.email, "span")}</span>`
        : code(s.counterparty_id),
      e(formatAmount(s.amount, s.currency)),
      e(s.status),
      when(s.expires_at),
      s.status === "created" ? sessionActions(s.id, data.failure_reasons) : "",
    ]),
    "No payment session yet.",
  );
  const transactions = table(
    ["Transaction", "Status", "Session", "Amount"],
    data.transactions.map((t) => [
      code(t.id),
      `${e(t.status)}${t.failure_reason ? ` (${e(t.failure_reason)})` : ""}`,
      eventsOf(t.session_id, code(t.session_id)),
      e(formatAmount(t.amount, t.currency)),
    ]),
    "No transaction yet.",
  );
  const counterparties = table(
    ["Counterparty", "Name", "Email", "Phone"],
    data.counterparties.map((c) => [
      code(c.id),
      `<span class="wrap">${e(c.name)}</span>`,
      `<span class="wrap">${e(c.email)}</span>`,
      e(c.phone_number),
    ]),
    "No counterparty yet.",
  );
  return layout(
    `${atEvent ? "" : note(message)}${clock}<section><h2>Payment sessions</h2>${sessions}</section>` +
      eventsSection(data, atEvent ? { id: open, ...(message && { message }) } : {}) +
      `<section><h2>Transactions</h2>${transactions}</section><section><h2>Counterparties</h2>${counterparties}</section>`,
    true,
  );
}
