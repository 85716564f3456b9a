// GET /_sandbox/dashboard: one account as its dashboard shows it: its objects, and its events with
// their deliveries (filtered by the page's query), newest first, on the account's clock (a session
// whose hour is over shows as expired; nothing is written unless something came due), and where
// its deliveries go now: the listener connected to it (payin-listen) takes them from its URL.
import { EVENT_TYPES } from "../../../../generated/event-types.ts";
import type { ProblemFieldError as FieldError } from "../../../lib/problem.ts";
import { isoTime } from "../../../lib/time.ts";
import { accountNow } from "../../flow/clock.ts";
import { runDueWork } from "../../flow/due-work.ts";
import { FAILURE_REASONS } from "../../flow/failure-reasons.ts";
import type { Contact } from "../../store/counterparties.ts";
import { FILTER_REACH, OUTCOMES } from "../../store/event-log.ts";
import type { SessionRecord } from "../../store/sessions.ts";
import type { Answer } from "../answer.ts";
import type { Sandbox } from "../operation.ts";
import { dashboardEvents, type DashboardEvent } from "./dashboard-events.ts";
import { dashboardFilter, type FilterQuery } from "./dashboard-filter.ts";
import type { PageCall } from "./page.ts";

/** How many of each kind the dashboard lists, newest first. */
const LIMIT = 50;

export interface DashboardData {
  now: string;
  /** Where the account's deliveries go now: its listener while one is connected (decision D23), else its URL; neither, they wait. */
  target: { listener: { forward_to: string | null } | null; url: string | null };
  /** Whether the sandbox is hosted (decision D21): it keeps each answer's status, never its bytes. */
  hosted: boolean;
  counterparties: Contact[];
  /** Each with its customer (none when its counterparty is gone, which a session's key does not allow). */
  sessions: Array<SessionRecord & { customer?: Pick<Contact, "name" | "email"> }>;
  transactions: Array<{ id: string; status: string; session_id: string; amount: number; currency: string; failure_reason?: string }>;
  events: DashboardEvent[];
  /** The filter of the events listed, as far as the query's was valid, and what was wrong with the rest. */
  filter: FilterQuery;
  filter_errors: FieldError[];
  /** How many of the account's newest events a filter by type or outcome, without a session, looks among. */
  filter_reach: number;
  /** What the filter's form offers. */
  event_types: readonly string[];
  outcomes: readonly string[];
  /** The failure reasons its Fail offers, as the payment page's. */
  failure_reasons: readonly string[];
}

export async function showDashboard(call: PageCall, sandbox: Sandbox): Promise<Answer> {
  const { store, clock, destinations } = sandbox;
  const account = call.account!;
  await runDueWork(sandbox, account.id);
  const { applied, filter, errors } = dashboardFilter(call.parameters);
  const sessions = await store.sessions.recent(account.id, LIMIT);
  const customers = new Map(
    (await store.counterparties.of(account.id, [...new Set(sessions.map((s) => s.counterparty_id))])).map((c) => [c.id, c]),
  );
  const listener = await store.listeners.active(account.id);
  const data: DashboardData = {
    now: isoTime(accountNow(clock, account)),
    target: { listener: listener ? { forward_to: listener.forward_to } : null, url: (await store.webhooks.get(account.id))?.url ?? null },
    hosted: destinations.hosted,
    counterparties: await store.counterparties.recent(account.id, LIMIT),
    sessions: sessions.map((session) => {
      const customer = customers.get(session.counterparty_id);
      return { ...session, ...(customer && { customer: { name: customer.name, email: customer.email } }) };
    }),
    transactions: await store.transactions.recent(account.id, LIMIT),
    events: await dashboardEvents(store, account.id, filter, LIMIT, destinations.hosted),
    filter: applied,
    filter_errors: errors,
    filter_reach: FILTER_REACH,
    event_types: EVENT_TYPES,
    outcomes: OUTCOMES,
    failure_reasons: FAILURE_REASONS,
  };
  return { status: 200, body: data };
}
