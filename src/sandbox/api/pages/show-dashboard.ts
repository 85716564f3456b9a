// GET /_sandbox/dashboard: one account as its dashboard shows it: its objects, events and
// delivery attempts, newest first, on the account's clock (a session whose hour is over shows as
// expired; nothing is written unless something came due).
import { isoTime } from "../../../lib/time.ts";
import { accountNow } from "../../flow/clock.ts";
import { runDueWork } from "../../flow/due-work.ts";
import { FAILURE_REASONS } from "../../flow/failure-reasons.ts";
import type { Answer } from "../answer.ts";
import type { Sandbox } from "../operation.ts";
import type { PageCall } from "./page.ts";

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
  /** The failure reasons its Fail offers, as the payment page's. */
  failure_reasons: readonly string[];
}

export async function showDashboard(call: PageCall, sandbox: Sandbox): Promise<Answer> {
  const { store, clock } = sandbox;
  const account = call.account!;
  await runDueWork(sandbox, account.id);
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
  const data: DashboardData = {
    now: isoTime(accountNow(clock, account)),
    counterparties: await store.counterparties.recent(account.id, LIMIT),
    sessions: await store.sessions.recent(account.id, LIMIT),
    transactions: await store.transactions.recent(account.id, LIMIT),
    events: await store.outbox.recent(account.id, LIMIT),
    attempts,
    failure_reasons: FAILURE_REASONS,
  };
  return { status: 200, body: data };
}
