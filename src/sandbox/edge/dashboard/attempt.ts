// One delivery attempt as the dashboard shows it: the request as it went (the method and URL, the
// headers, whose timestamp and signature are this attempt's own, and the event's body) and what
// came back (the status, how long it took, the answer's first bytes where they are kept).
import type { DashboardAttempt } from "../../api/pages/index.ts";
import { code, e, when } from "./html.ts";

function requestOf(a: DashboardAttempt, body: string): string {
  if (!a.request_headers) return `<p>To ${code(a.url)}; its headers were not kept (an older sandbox made it).</p>`;
  const headers = Object.entries(a.request_headers).map(([name, value]) => `${name}: ${value}`);
  return `<pre>${e(`POST ${a.url}\n${headers.join("\n")}\n\n${body}`)}</pre>`;
}

/** What is said of the answer's body: constant words, no value of it. */
function bytesOf(a: DashboardAttempt, hosted: boolean): string {
  if (hosted) return "Its body and headers are not kept: this sandbox is hosted (decision D21).";
  // Kept for every answer an HTTP receiver gave since the sandbox kept them; a listener reports a status only.
  if (a.response_first_bytes === null) return a.request_headers ? "A listener reports its endpoint's status only." : "Not kept.";
  return a.response_first_bytes === "" ? "No body." : "Its body's first bytes:";
}

function answerOf(a: DashboardAttempt, hosted: boolean): string {
  const took = `${a.duration_ms} ms`;
  if (a.response_status === null) return `<p class="bad">No answer after ${took}: ${e(a.error ?? "")}</p>`;
  const bytes = a.response_first_bytes && !hosted ? `<pre>${e(a.response_first_bytes)}</pre>` : "";
  return (
    `<p><strong class="${a.succeeded ? "ok" : "bad"}">${a.response_status}</strong> in ${took}</p>` +
    `<p class="muted">${bytesOf(a, hosted)}</p>${bytes}`
  );
}

/** The attempt, with the event's body: the same on every attempt. */
export function attemptOf(a: DashboardAttempt, body: string, hosted: boolean): string {
  const outcome = a.succeeded ? `<span class="ok">succeeded</span>` : `<span class="bad">failed</span>`;
  const faults = a.faults.length > 0 ? ` · by a fault: ${e(a.faults.join(", "))}` : "";
  const next = a.next_attempt_at ? `<p class="muted">The next attempt is due at ${when(a.next_attempt_at)}.</p>` : "";
  return (
    `<li class="${a.succeeded ? "went" : "missed"}"><h4>#${a.attempt} ${outcome} at ${when(a.attempted_at)}${faults}</h4>` +
    `<div class="exchange"><div><p class="muted">Request</p>${requestOf(a, body)}</div>` +
    `<div><p class="muted">Answer</p>${answerOf(a, hosted)}${next}</div></div></li>`
  );
}
