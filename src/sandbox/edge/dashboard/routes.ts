// The sandbox dashboard (`/_sandbox/dashboard`): one account's objects, events and delivery
// attempts, and buttons that do what the control API does (pay, fail, advance the clock, resend
// an event) through the same operations. The token is kept in a cookie that only this page's
// path gets, HttpOnly and SameSite=Strict, so that the page shows a token's data only to a
// browser that signed in with it and no other site can make it act; a POST whose Origin is
// another site's is refused as well.
import type { IncomingMessage, ServerResponse } from "node:http";
import type { OperationId } from "../../../../generated/sandbox-requests.js";
import { readBody } from "../../../lib/request-body.ts";
import { execute } from "../../api/execute.ts";
import type { Answer, Sandbox } from "../../api/operation.ts";
import { dashboardData } from "../../api/views.ts";
import { redirect, sendHtml } from "../http.ts";
import { FAILURE_REASONS } from "../../flow/failure-reasons.ts";
import { DASHBOARD, dashboardPage, signInPage } from "./render.ts";

const COOKIE = "payin_sandbox_token";

const tokenOf = (req: IncomingMessage) =>
  req.headers.cookie
    ?.split(";")
    .map((part) => part.trim().split("="))
    .find(([name]) => name === COOKIE)?.[1];
const cookie = (value: string, maxAge?: number) =>
  `${COOKIE}=${value}; Path=${DASHBOARD}; HttpOnly; SameSite=Strict${maxAge === undefined ? "" : `; Max-Age=${maxAge}`}`;

/** The page's message after an action, carried by the redirect. */
const back = (res: ServerResponse, ok: boolean, text: string) =>
  redirect(res, `${DASHBOARD}?${new URLSearchParams({ [ok ? "done" : "error"]: text })}`);

/** Whether a POST comes from this page: no Origin (some browsers omit it on same-origin forms), or the sandbox's own. */
const sameOrigin = (req: IncomingMessage) => {
  const origin = req.headers.origin;
  return origin === undefined || (URL.canParse(origin) && new URL(origin).host === req.headers.host);
};

/** What an action's operation answered, as the page's message. */
const outcome = (answer: Answer, done: string) =>
  answer.status < 300
    ? { ok: true, text: done }
    : { ok: false, text: (answer.body as { detail?: string }).detail ?? `answered ${answer.status}` };

/** An operation of the control API, through the service entry as every request goes, for the account of `token`. */
async function run(sandbox: Sandbox, token: string, operationId: OperationId, parameters: Record<string, string>, json?: object) {
  const raw = Buffer.from(JSON.stringify(json ?? null));
  return (await execute(sandbox, { operationId, token, parameters, body: async () => ({ json, raw }) })).answer;
}

async function act(sandbox: Sandbox, token: string, action: string, form: URLSearchParams) {
  const sessionId = form.get("session_id") ?? "";
  if (action === "pay" || action === "fail") {
    const reason = form.get("failure_reason");
    if (action === "fail" && !(FAILURE_REASONS as readonly (string | null)[]).includes(reason))
      return { ok: false, text: `Choose a failure reason: ${FAILURE_REASONS.join(", ")}.` };
    const body = action === "pay" ? { outcome: "pay" } : { outcome: "fail", failure_reason: reason };
    const answer = await run(sandbox, token, "simulatePayment", { session_id: sessionId }, body);
    return outcome(answer, `Session ${sessionId}: ${action === "pay" ? "paid" : `failed (${reason})`}.`);
  }
  if (action === "advance") {
    const seconds = Number(form.get("seconds"));
    if (!Number.isInteger(seconds) || seconds < 1 || seconds > 31_536_000)
      return { ok: false, text: `Advance by a whole number of seconds from 1 to 31536000, not ${JSON.stringify(form.get("seconds"))}.` };
    return outcome(await run(sandbox, token, "advanceClock", {}, { seconds }), `The clock moved ${seconds} s.`);
  }
  const eventId = form.get("event_id") ?? "";
  return outcome(await run(sandbox, token, "redeliverEvent", { event_id: eventId }), `Event ${eventId} sent again.`);
}

export async function handleDashboard(sandbox: Sandbox, req: IncomingMessage, res: ServerResponse, { pathname, searchParams }: URL) {
  const action = pathname.slice(DASHBOARD.length + 1);
  const token = tokenOf(req);
  if (req.method === "GET" || req.method === "HEAD") {
    if (pathname !== DASHBOARD) return sendHtml(res, 404, signInPage({ ok: false, text: "No such page of the dashboard." }));
    const message = searchParams.has("error")
      ? { ok: false, text: searchParams.get("error")! }
      : searchParams.has("done")
        ? { ok: true, text: searchParams.get("done")! }
        : undefined;
    const refused = token && sandbox.access.tokenRefusal(decodeURIComponent(token));
    if (!token || refused) return sendHtml(res, 200, signInPage(message ?? (refused ? { ok: false, text: refused } : undefined)));
    return sendHtml(res, 200, dashboardPage(await dashboardData(sandbox, decodeURIComponent(token)), message));
  }
  if (req.method !== "POST") return sendHtml(res, 405, signInPage(), { Allow: "GET, HEAD, POST" });
  if (!sameOrigin(req)) return sendHtml(res, 403, signInPage({ ok: false, text: "A form of another site cannot act here." }));
  const body = await readBody(req);
  if (body === "too large") return sendHtml(res, 413, signInPage({ ok: false, text: "The form is too large." }), { Connection: "close" });
  const form = new URLSearchParams(body.toString("utf8"));
  if (action === "sign-in") {
    const given = form.get("token")?.trim();
    if (!given) return back(res, false, "Give the bearer token of the account to show.");
    const refused = sandbox.access.tokenRefusal(given);
    if (refused !== undefined) return back(res, false, refused);
    return redirect(res, DASHBOARD, { "Set-Cookie": cookie(encodeURIComponent(given)) });
  }
  if (action === "sign-out") return redirect(res, DASHBOARD, { "Set-Cookie": cookie("", 0) });
  if (!token) return back(res, false, "Sign in with a token first.");
  if (!["pay", "fail", "advance", "redeliver"].includes(action)) return back(res, false, `The dashboard has no action ${action}.`);
  const result = await act(sandbox, decodeURIComponent(token), action, form);
  return back(res, result.ok, result.text);
}
