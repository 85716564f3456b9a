// The dashboard's events and their deliveries: where deliveries go now, a filter by type, outcome
// and session, and each event with what each attempt sent (its headers, signature included, and
// the body) and got back (status, time, the answer's first bytes). A tap on an event's id opens
// its delivery (a <details>, no script); its Resend sits on the same line, at any width.
import type { DashboardData, DashboardEvent } from "../../api/pages/index.ts";
import { attemptOf } from "./attempt.ts";
import { code, e, note, when, type Message } from "./html.ts";
import { DASHBOARD, viewUrl } from "./place.ts";

/** Where deliveries go now, in words (HTML): the listener while one is connected (decision D23), else the URL; undefined when nowhere. */
function destination({ target: { listener, url } }: DashboardData): string | undefined {
  const on = listener?.forward_to ? `, which passes them on to ${code(listener.forward_to)}` : "";
  if (listener) return `the listener connected with payin-listen${on}`;
  return url === null ? undefined : code(url);
}

function targetLine(data: DashboardData): string {
  const to = destination(data);
  const { listener, url } = data.target;
  const wait = `a webhook URL (${code("POST /webhooks")}) or a listener (${code("payin-listen")})`;
  if (!to) return `<p>Nowhere to deliver yet: events wait for ${wait}.</p>`;
  const after = listener && url ? `; the registered URL ${code(url)} gets them once it disconnects` : "";
  return `<p>Deliveries go to ${to}${after}.</p>`;
}

function filterForm(data: DashboardData): string {
  const options = (values: readonly string[], chosen?: string) =>
    `<option value="">any</option>${values.map((v) => `<option${v === chosen ? " selected" : ""}>${e(v)}</option>`).join("")}`;
  const { type, outcome, session } = data.filter;
  return `<form class="filter" method="get" action="${DASHBOARD}#events">
<label>Type <select name="type">${options(data.event_types, type)}</select></label>
<label>Outcome <select name="outcome">${options(data.outcomes, outcome)}</select></label>
<label>Session <input name="session" value="${e(session ?? "")}" placeholder="ps_…" size="14" autocomplete="off"></label>
<button type="submit">Filter</button>${Object.keys(data.filter).length > 0 ? ` <a href="${DASHBOARD}#events">Show all</a>` : ""}</form>`;
}

/** What became of the event so far, and what comes next, in words (HTML). */
function stateOf(event: DashboardEvent, data: DashboardData): string {
  const last = event.attempts.at(-1);
  if (event.state === "delivered") return "Delivered: its receiver acknowledged it with a 2xx.";
  if (event.state === "failed") return "Failed: every attempt the schedule allows is made. Resend sends it again.";
  if (event.state === "pending" && last?.next_attempt_at)
    return `Its last attempt failed: the next is due at ${when(last.next_attempt_at)} on the account's clock.`;
  if (event.state === "pending") return "Due: it goes as soon as its session's earlier events are done with.";
  const to = destination(data);
  return to ? `Going to ${to} now.` : "Waiting for somewhere to go: a webhook URL or a listener (payin-listen).";
}

const OUTCOME_CLASS: Record<string, string> = { delivered: "ok", failed: "bad" };

function eventOf(event: DashboardEvent, data: DashboardData, focus: { id?: string; message?: Message }): string {
  const focused = focus.id === event.id;
  const resend = `resend-${event.id}`;
  // A Resend comes back to the view it was pressed in.
  const kept = Object.entries(data.filter).map(([name, value]) => `<input type="hidden" name="${e(name)}" value="${e(value)}">`);
  const transaction = event.transaction_id ? `, transaction ${code(event.transaction_id)}` : "";
  const about = `About session <a href="${e(viewUrl({ session: event.session_id }))}#events">${code(event.session_id)}</a>${transaction}`;
  const count = `${event.attempt_count} attempt${event.attempt_count === 1 ? "" : "s"}`;
  // Newest first: the attempt a Resend made is the first thing under the event it brings the reader back to.
  const newestFirst = event.attempts.map((a) => attemptOf(a, event.body, data.hosted)).reverse();
  // Only the newest of an event sent again and again: the delivery log has the others.
  const older = event.attempt_count - event.attempts.length;
  const log = code(`GET /_sandbox/v1/deliveries?session_id=${event.session_id}`);
  const rest = older > 0 ? `<p class="muted">${older} older attempt${older === 1 ? "" : "s"} not shown: ${log} lists every one.</p>` : "";
  const attempts =
    newestFirst.length > 0
      ? `<h3>Attempts, newest first</h3><ol class="attempts">${newestFirst.join("")}</ol>${rest}`
      : `<h3>Its body, when it is sent</h3><pre>${e(event.body)}</pre>`;
  const state = `<span class="outcome ${OUTCOME_CLASS[event.outcome] ?? ""}">${e(event.outcome)}</span><span class="muted">${count}</span>`;
  const summary =
    `<span class="kind">${e(event.type)}</span><span class="state">${state}</span>` +
    `<a class="id" href="#${e(encodeURIComponent(event.id))}">${code(event.id)}</a>` +
    `<button class="quiet" type="submit" form="${e(resend)}">Resend</button>`;
  return (
    `<li><details${focused ? " open" : ""}><summary><span class="line">${summary}</span></summary>` +
    `<div class="delivery" id="${e(event.id)}">${focused ? note(focus.message) : ""}` +
    `<p>${about}; made at ${when(event.created_at)}. ${stateOf(event, data)}</p>${attempts}</div></details>` +
    `<form id="${e(resend)}" hidden method="post" action="${DASHBOARD}/redeliver">` +
    `<input type="hidden" name="event_id" value="${e(event.id)}">${kept.join("")}</form></li>`
  );
}

/** The events section; the message of a Resend shows at its event when that event is listed. */
export function eventsSection(data: DashboardData, focus: { id?: string; message?: Message }): string {
  const wrong = data.filter_errors.map((f) => `${f.field} ${f.message}`).join("; ");
  const kept = "of each answer it keeps the status and the time, never the body or the headers (decision D21)";
  const hosted = data.hosted ? `<p class="muted">This sandbox is hosted: ${kept}.</p>` : "";
  // An attempt's time is the account's, as the delivery log's attempted_at: a receiver logs its own, behind it after an advance.
  const times = `<p class="muted">Times are on this account's clock: after an advance, ahead of what a receiver's own log reads.</p>`;
  const filtered = Object.keys(data.filter).length > 0;
  const { type, outcome, session } = data.filter;
  const reach =
    (type || outcome) && !session
      ? `<p class="muted">The filter looks among the account's newest ${data.filter_reach.toLocaleString("en-US")} events.</p>`
      : "";
  const list =
    data.events.length > 0
      ? `<ol class="events">${data.events.map((event) => eventOf(event, data, focus)).join("")}</ol>`
      : `<p>${filtered ? "No event matches this filter." : "No event yet."}</p>`;
  return `<section id="events"><h2>Events and their deliveries</h2>${targetLine(data)}${hosted}${times}${filterForm(data)}
${note(wrong ? { ok: false, text: `Not applied: ${wrong}.` } : undefined)}${reach}${list}</section>`;
}
