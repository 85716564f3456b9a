// What the sandbox's pages show, read for them here so that the HTTP edge reads no state of its
// own: the dashboard's account (its objects, events and delivery attempts, newest first) and the
// payment page's session (found by its id alone: a customer's browser has no token).
import { isoTime } from "../../lib/time.ts";
import { accountNow } from "../flow/clock.ts";
import { runDueWork } from "../flow/due-work.ts";
import type { Outcome, PaymentResult } from "../flow/payments.ts";
import type { SessionRecord } from "../store/sessions.ts";
import type { Sandbox } from "./operation.ts";

/** How many of each kind the dashboard lists, newest first. */
const LIMIT = 50;

export interface DashboardData {
  now: string;
  counterparties: Array<{ id: string; email: string; phone_number: string; created_at_ms: number }>;
  sessions: Array<{ id: string; status: string; amount: number; currency: string; counterparty_id: string; expires_at: string }>;
  transactions: Array<{ id: string; status: string; session_id: string; amount: number; currency: string; failure_reason?: string }>;
  events: Array<{ id: string; type: string; session_id: string; transaction_id: string | null; state: string; created_at_ms: number }>;
  attempts: Map<
    string,
    Array<{ attempt: number; succeeded: boolean; response_status: number | null; error: string | null; attempted_at: string }>
  >;
}

/** The account of `token` as the dashboard shows it. */
export async function dashboardData(sandbox: Sandbox, token: string): Promise<DashboardData> {
  const { store } = sandbox;
  const account = await store.accounts.forToken(token);
  await runDueWork(sandbox, account.id); // shows a session that has just expired as expired
  const attempts: DashboardData["attempts"] = new Map();
  for (const row of await store.outbox.attempts(account.id)) {
    const list = attempts.get(row.event_id) ?? [];
    list.push({
      attempt: row.attempt,
      succeeded: row.succeeded === 1,
      response_status: row.response_status,
      error: row.error,
      attempted_at: isoTime(row.attempted_at_ms),
    });
    attempts.set(row.event_id, list);
  }
  return {
    now: isoTime(accountNow(account)),
    counterparties: await store.counterparties.recent(account.id, LIMIT),
    sessions: await store.sessions.recent(account.id, LIMIT),
    transactions: await store.transactions.recent(account.id, LIMIT),
    events: await store.outbox.recent(account.id, LIMIT),
    attempts,
  };
}

/** The session of a payment link as it is now (expired if its hour is over), or undefined when no account has it. */
export async function pageSession(sandbox: Sandbox, sessionId: string): Promise<SessionRecord | undefined> {
  const { store } = sandbox;
  const found = sessionId.includes("/") ? undefined : await store.sessions.find(sessionId);
  if (!found) return undefined;
  await runDueWork(sandbox, found.accountId);
  return store.sessions.get(found.accountId, sessionId);
}

/** The customer's Pay or Fail on the payment page, in the session's own account. */
export async function payOnPage(sandbox: Sandbox, sessionId: string, outcome: Outcome): Promise<PaymentResult> {
  const { store, payments } = sandbox;
  const found = await store.sessions.find(sessionId);
  if (!found) return { refused: "not_found" };
  return payments.attempt(await store.accounts.byId(found.accountId), sessionId, outcome);
}
