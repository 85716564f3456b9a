// The sandbox dashboard (`/_sandbox/dashboard`) over HTTP: one account's objects, events and
// delivery attempts, and buttons that do what the control API does (pay, fail, advance the clock,
// resend an event). The page, the sign-in and every button are calls of the runtime with the
// account's token, met by the same rules as the API's (the token's length, its rate) and checked
// by the same schemas. A Resend brings the reader back to its event, its delivery opened with the
// new attempt, in the view (the filter) it was pressed in. The token is kept in a cookie that only
// this page's path gets, HttpOnly and SameSite=Strict, so that the page shows a token's data only
// to a browser that signed in with it and no other site can make it act; a POST whose Origin is
// another site's is refused as well. What a button did is said on the page it comes back to by a
// cookie of the same kind, read once: never by the link, which anyone could write and send, so
// that the page shows the sandbox's own words only.
import type { IncomingMessage, ServerResponse } from "node:http";
import type { OperationId } from "../../../../generated/sandbox-requests.js";
import { readBody } from "../../../lib/request-body.ts";
import type { Answer } from "../../api/answer.ts";
import type { DashboardData } from "../../api/pages/index.ts";
import type { Edge } from "../edge.ts";
import { redirect, sendHtml } from "../http.ts";
import { DASHBOARD, filterOf, viewUrl, type View } from "./place.ts";
import type { Message } from "./html.ts";
import { dashboardPage, signInPage } from "./render.ts";

const COOKIE = "payin_sandbox_token";
/** The message of the button last pressed, for the page the redirect goes to. */
const NOTE = "payin_sandbox_note";
/** How long a message waits for its page. */
const NOTE_SECONDS = 60;
/** A message's length at most as a cookie's value, encoded: well within the 4 KiB a browser keeps of a cookie. */
const NOTE_LENGTH = 3000;

/** A cookie's value, percent-decoded; undefined when there is none, or when it is not one the page set (not UTF-8). */
const cookieOf = (req: IncomingMessage, name: string) => {
  const value = req.headers.cookie
    ?.split(";")
    .map((part) => part.trim().split("="))
    .find(([given]) => given === name)?.[1];
  try {
    return value ? decodeURIComponent(value) : undefined;
  } catch {
    return undefined;
  }
};
const tokenOf = (req: IncomingMessage) => cookieOf(req, COOKIE);
/** A cookie of the page: only this page's path gets it, only over https where the sandbox is reached over https. */
const cookie = (edge: Edge, value: string, maxAge?: number, name = COOKIE) =>
  `${name}=${value}; Path=${DASHBOARD}; HttpOnly; SameSite=Strict${edge.secure ? "; Secure" : ""}` +
  `${maxAge === undefined ? "" : `; Max-Age=${maxAge}`}`;

/** The message a button left for the page, and the cookie that forgets it once shown; none for a page that was only loaded. */
function noteOf(edge: Edge, req: IncomingMessage): { message?: Message; headers: Record<string, string> } {
  const [kind, ...text] = cookieOf(req, NOTE)?.split(".") ?? [];
  if (kind === undefined) return { headers: {} };
  const forget = { "Set-Cookie": cookie(edge, "", 0, NOTE) };
  return kind === "ok" || kind === "bad" ? { message: { ok: kind === "ok", text: text.join(".") }, headers: forget } : { headers: forget };
}

/** The message as a cookie's value: its kind, then its text, percent-encoded and cut to fit (by characters, never within one). */
function noteValue({ ok, text }: Message): string {
  const chars = [...text];
  let value = encodeURIComponent(text);
  for (let keep = chars.length; value.length > NOTE_LENGTH; ) {
    keep = Math.floor(keep * 0.8);
    value = encodeURIComponent(`${chars.slice(0, keep).join("")}…`);
  }
  return `${ok ? "ok" : "bad"}.${value}`;
}

/** Back to the view the action asks to come back to, with the page's message after it. */
const back = (edge: Edge, res: ServerResponse, ok: boolean, text: string, view: View = {}) =>
  redirect(res, viewUrl(view), { "Set-Cookie": cookie(edge, noteValue({ ok, text }), NOTE_SECONDS, NOTE) });

/** Whether a POST comes from this page: no Origin (some browsers omit it on same-origin forms), or the sandbox's own. */
const sameOrigin = (req: IncomingMessage) => {
  const origin = req.headers.origin;
  return origin === undefined || (URL.canParse(origin) && new URL(origin).host === req.headers.host);
};

/** The refusal's own words: what the operation said was wrong. */
const detailOf = (answer: Answer) => {
  const { detail, errors } = answer.body as { detail?: string; errors?: Array<{ field: string; message: string }> };
  const fields = errors?.map((e) => `${e.field} ${e.message}`).join("; ");
  return fields ? `${detail} ${fields}.` : (detail ?? `answered ${answer.status}`);
};

/** A number where the form's text is one, so that the schema judges the number; any other text as it is, for the schema to refuse. */
const numberOrText = (text: string | null) => (text !== null && /^-?\d+(\.\d+)?$/.test(text.trim()) ? Number(text) : text);

/** What each button asks of the control API, from the form it sends; what to say once done, and where the reader comes back to. */
const ACTIONS: Record<
  string,
  (form: URLSearchParams) => {
    operationId: OperationId;
    parameters: Record<string, string>;
    body?: object;
    done: string | ((answer: Answer) => string);
    view?: View;
  }
> = {
  pay: (form) => ({
    operationId: "simulatePayment",
    parameters: { session_id: form.get("session_id") ?? "" },
    body: { outcome: "pay" },
    done: `Session ${form.get("session_id")}: paid.`,
  }),
  fail: (form) => ({
    operationId: "simulatePayment",
    parameters: { session_id: form.get("session_id") ?? "" },
    body: { outcome: "fail", failure_reason: form.get("failure_reason") },
    done: `Session ${form.get("session_id")}: failed (${form.get("failure_reason")}).`,
  }),
  advance: (form) => ({
    operationId: "advanceClock",
    parameters: {},
    body: { seconds: numberOrText(form.get("seconds")) },
    done: `The clock moved ${form.get("seconds")} s.`,
  }),
  redeliver: (form) => ({
    operationId: "redeliverEvent",
    parameters: { event_id: form.get("event_id") ?? "" },
    // The attempt it made, as the control API answers it: where it went (the listener's endpoint, while one is connected).
    done: ({ body }) => {
      const { attempt, status, response_status, url } = body as { attempt: number; status: string; response_status?: number; url: string };
      const answered = response_status ? ` (${response_status})` : "";
      return `Event ${form.get("event_id")} sent again: attempt #${attempt} ${status}${answered}, to ${url}.`;
    },
    view: { ...filterOf(form), open: form.get("event_id") ?? "" },
  }),
};

export async function handleDashboard(edge: Edge, req: IncomingMessage, res: ServerResponse, { pathname, searchParams }: URL) {
  const { runtime } = edge;
  const token = tokenOf(req);
  const client = edge.client(req);
  const call = (operationId: OperationId | "showDashboard" | "signInToDashboard", given: string, parameters = {}, json?: object) => {
    const raw = Buffer.from(JSON.stringify(json ?? null));
    return runtime.execute({ operationId, token: given, client, parameters, body: async () => ({ json, raw }) });
  };

  if (req.method === "GET" || req.method === "HEAD") {
    if (pathname !== DASHBOARD) return sendHtml(res, 404, signInPage({ ok: false, text: "No such page of the dashboard." }));
    const { message, headers } = noteOf(edge, req);
    if (!token) return sendHtml(res, 200, signInPage(message), headers);
    const { answer } = await call("showDashboard", token, filterOf(searchParams));
    const open = searchParams.get("open") ?? undefined;
    if (answer.status === 200) return sendHtml(res, 200, dashboardPage(answer.body as DashboardData, message, open), headers);
    // Turned away as an API call would be: too short a token (sign in again), too many calls, the database away.
    const status = answer.status === 401 ? 200 : answer.status;
    return sendHtml(res, status, signInPage({ ok: false, text: detailOf(answer) }), { ...answer.headers, ...headers });
  }
  if (req.method !== "POST") return sendHtml(res, 405, signInPage(), { Allow: "GET, HEAD, POST" });
  if (!sameOrigin(req)) return sendHtml(res, 403, signInPage({ ok: false, text: "A form of another site cannot act here." }));
  const body = await readBody(req);
  if (body === "too large") return sendHtml(res, 413, signInPage({ ok: false, text: "The form is too large." }), { Connection: "close" });
  const form = new URLSearchParams(body.toString("utf8"));
  const action = pathname.slice(DASHBOARD.length + 1);
  if (action === "sign-in") {
    const given = form.get("token")?.trim();
    if (!given) return back(edge, res, false, "Give the bearer token of the account to show.");
    const { answer } = await call("signInToDashboard", given);
    if (answer.status >= 300) return back(edge, res, false, detailOf(answer));
    return redirect(res, DASHBOARD, { "Set-Cookie": cookie(edge, encodeURIComponent(given)) });
  }
  if (action === "sign-out") return redirect(res, DASHBOARD, { "Set-Cookie": cookie(edge, "", 0) });
  if (!token) return back(edge, res, false, "Sign in with a token first.");
  const asked = Object.hasOwn(ACTIONS, action) ? ACTIONS[action]!(form) : undefined;
  if (!asked) return back(edge, res, false, `The dashboard has no action ${action}.`);
  const { answer } = await call(asked.operationId, token, asked.parameters, asked.body);
  if (answer.status >= 300) return back(edge, res, false, detailOf(answer), asked.view);
  return back(edge, res, true, typeof asked.done === "string" ? asked.done : asked.done(answer), asked.view);
}
