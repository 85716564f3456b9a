// The payment page behind every `payment_link`, over HTTP. It takes no token (the customer's
// browser has none): the session's id finds its account. GET shows the session; POST is the
// customer's Pay or Fail, answered with a 303 to the session's `redirect_url` after paying, or
// back to the page, which says the attempt failed, after failing. Both are calls of the runtime,
// which checks the form as the body of simulate. A body left unread is node:http's to drain once
// the answer is sent.
import type { IncomingMessage, ServerResponse } from "node:http";
import { readBody } from "../../../lib/request-body.ts";
import type { Answer } from "../../api/answer.ts";
import { PAGE_PREFIX } from "../../api/pages/index.ts";
import type { Edge } from "../edge.ts";
import { redirect, safeDecode, sendHtml } from "../http.ts";
import { notFoundPage, paymentPage, refusedPage, type PageSession } from "./render.ts";

const NO_BODY = async () => ({ json: undefined, raw: Buffer.alloc(0) });

/** The form's fields as the body of simulate: the failure reason only with Fail, where it means something. */
function outcomeOf(form: URLSearchParams) {
  const outcome = form.get("outcome");
  const reason = form.get("failure_reason");
  return outcome === "fail" && reason !== null ? { outcome, failure_reason: reason } : { outcome };
}

export async function handlePage(
  { runtime, client }: Edge,
  req: IncomingMessage,
  res: ServerResponse,
  { pathname, searchParams: query }: URL,
) {
  const id = safeDecode(pathname.slice(PAGE_PREFIX.length));
  const call = { token: undefined, client: client(req), parameters: { session_id: id } };
  /** The page as it is now, with `status` (the answer to a refused form) and the notice of a failed attempt. */
  const show = async (status = 200, failed?: string | null) => {
    const { answer } = await runtime.execute({ ...call, operationId: "showPaymentPage", body: NO_BODY });
    if (answer.status !== 200) return refused(res, id, answer);
    const { session, failure_reasons } = answer.body as { session: PageSession; failure_reasons: readonly string[] };
    const notice = failed && failure_reasons.includes(failed) ? { failed } : undefined;
    return sendHtml(res, status, paymentPage(session, failure_reasons, notice), status === 405 ? { Allow: "GET, HEAD, POST" } : {});
  };

  if (req.method === "GET" || req.method === "HEAD") return show(200, query.get("failed"));
  if (req.method !== "POST") return show(405);
  const form = await readBody(req);
  if (form === "too large") return sendHtml(res, 413, refusedPage("The form is too large."), { Connection: "close" });
  const body = outcomeOf(new URLSearchParams(form.toString("utf8")));
  const raw = Buffer.from(JSON.stringify(body));
  const { answer } = await runtime.execute({ ...call, operationId: "payOnPaymentPage", body: async () => ({ json: body, raw }) });
  if (answer.status === 200) {
    const { session, transaction } = answer.body as { session: PageSession; transaction: { failure_reason?: string } };
    if (transaction.failure_reason === undefined) return redirect(res, session.redirect_url);
    return redirect(res, `${PAGE_PREFIX}${encodeURIComponent(id)}?failed=${encodeURIComponent(transaction.failure_reason)}`);
  }
  // A form the page does not send, or a session no longer open: the page as it is, with the status.
  if (answer.status === 422 || answer.status === 409) return show(answer.status === 422 ? 400 : 409);
  return refused(res, id, answer);
}

/** The page's answer to a refused call: the session not found, or what turned it away (a rate, the database). */
function refused(res: ServerResponse, id: string, answer: Answer) {
  const { detail } = answer.body as { detail: string };
  if (answer.status === 404 || answer.status === 422) return sendHtml(res, 404, notFoundPage(id));
  return sendHtml(res, answer.status, refusedPage(detail), answer.headers);
}
