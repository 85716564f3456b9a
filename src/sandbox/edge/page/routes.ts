// The payment page behind every `payment_link`. It takes no token (the
// customer's browser has none): the session's id finds its account. GET shows the session;
// POST is the customer's Pay or Fail, answered with a 303 to the session's `redirect_url`
// after paying, or back to the page, which says the attempt failed, after failing. A body left
// unread is node:http's to drain once the answer is sent.
import type { IncomingMessage, ServerResponse } from "node:http";
import { readBody } from "../../../lib/request-body.ts";
import type { Sandbox } from "../../api/operation.ts";
import { pageSession, payOnPage } from "../../api/views.ts";
import type { Outcome } from "../../flow/payments.ts";
import { isOfferedFailureReason } from "../../flow/failure-reasons.ts";
import { PAGE_PREFIX } from "../../flow/urls.ts";
import { redirect, safeDecode, sendHtml } from "../http.ts";
import { notFoundPage, paymentPage } from "./render.ts";

/** The customer's choice from the page's form; undefined when the form is not one the page sends. */
function outcomeOf(form: URLSearchParams): Outcome | undefined {
  const outcome = form.get("outcome");
  if (outcome === "pay") return { outcome: "pay" };
  const reason = form.get("failure_reason");
  if (outcome === "fail" && isOfferedFailureReason(reason)) return { outcome: "fail", failure_reason: reason };
  return undefined;
}

export async function handlePage(sandbox: Sandbox, req: IncomingMessage, res: ServerResponse, { pathname, searchParams: query }: URL) {
  const id = safeDecode(pathname.slice(PAGE_PREFIX.length));
  const session = await pageSession(sandbox, id);
  if (!session) return sendHtml(res, 404, notFoundPage(id));

  if (req.method === "GET" || req.method === "HEAD") {
    const failed = query.get("failed");
    return sendHtml(res, 200, paymentPage(session, isOfferedFailureReason(failed) ? { failed } : undefined));
  }
  if (req.method !== "POST") return sendHtml(res, 405, paymentPage(session), { Allow: "GET, HEAD, POST" });

  const body = await readBody(req);
  if (body === "too large") return sendHtml(res, 413, paymentPage(session), { Connection: "close" });
  const outcome = outcomeOf(new URLSearchParams(body.toString("utf8")));
  if (!outcome) return sendHtml(res, 400, paymentPage(session));
  const result = await payOnPage(sandbox, id, outcome);
  if (!("done" in result)) return sendHtml(res, 409, paymentPage(result.refused === "not_found" ? session : result.session));
  if (outcome.outcome === "pay") return redirect(res, result.done.session.redirect_url);
  return redirect(res, `${PAGE_PREFIX}${encodeURIComponent(id)}?failed=${outcome.failure_reason}`);
}
