// The outbox's events as the dashboard reads them: the newest first, by type, outcome and session,
// each with the facts its payload is made of (its session's and transaction's), so that the body
// every attempt sent is rebuilt rather than kept once per attempt (delivery/payload.ts makes it).
import type { PayinEvent } from "../../../generated/event-types.ts";
import type { Database } from "./database.ts";
import type { DueEvent } from "./outbox.ts";

/**
 * What became of an event's delivery: `delivered` (a 2xx acknowledged it), `failed` (its last
 * attempt failed, whether a retry is due or none is left), `unsent` (no attempt yet).
 */
export const OUTCOMES = ["delivered", "failed", "unsent"] as const;
export type Outcome = (typeof OUTCOMES)[number];

// Stated once, in SQL: the list shows it and the filter selects by it.
const OUTCOME =
  "CASE WHEN e.state = 'delivered' THEN 'delivered' WHEN e.state = 'failed' OR e.attempts > 0 THEN 'failed' ELSE 'unsent' END";

export interface EventFilter {
  type?: PayinEvent["type"];
  outcome?: Outcome;
  sessionId?: string;
}

/** An event as listed: what it is and the facts of its payload (as a delivery has them), and what became of it. */
export type LoggedEvent = Pick<
  DueEvent,
  "id" | "type" | "sessionId" | "transactionId" | "createdAtMs" | "counterpartyId" | "request" | "failureReason" | "attempts"
> & {
  /** waiting (nowhere to send it), pending (an attempt to come), delivered, or failed (none to come). */
  state: string;
  outcome: Outcome;
};

/** Each filter's condition on the listed events. */
const CONDITIONS: Record<keyof EventFilter, string> = { type: "e.type = ?", outcome: `${OUTCOME} = ?`, sessionId: "e.session_id = ?" };
const FILTERS = Object.keys(CONDITIONS) as Array<keyof EventFilter>;
// In the order they were made: ids start with the time, but two made in one millisecond sort at random. The newest are
// read backwards from the account's index (or the session's) before the joins, which would have them all sorted.
// Parameters: account, the conditions', limit.
const LIST = (conditions: readonly string[]) =>
  'SELECT e.id, e.type, e.session_id AS "sessionId", e.transaction_id AS "transactionId", e.state, e.attempts, ' +
  `${OUTCOME} AS outcome, e.created_at_ms AS "createdAtMs", s.counterparty_id AS "counterpartyId", s.request,
    t.failure_reason AS "failureReason"
  FROM (SELECT * FROM events e WHERE ${["e.account_id = ?", ...conditions].join(" AND ")} ORDER BY e.seq DESC LIMIT ?) AS e
    JOIN payment_sessions s ON s.account_id = e.account_id AND s.id = e.session_id
    LEFT JOIN transactions t ON t.account_id = e.account_id AND t.id = e.transaction_id
  ORDER BY e.seq DESC`;
/**
 * How many of the account's newest events a filter by type or outcome looks among: one that matches few would otherwise
 * read every event the account ever made. A session's events are found by its own index, all of them.
 */
export const FILTER_REACH = 10_000;
// The oldest event the filter looks at (parameters: account, the reach less one), found in the account's index.
const WITHIN_REACH = "e.seq >= COALESCE((SELECT r.seq FROM events r WHERE r.account_id = ? ORDER BY r.seq DESC LIMIT 1 OFFSET ?), 0)";

export class EventLog {
  readonly #db: Database;

  constructor(db: Database) {
    this.#db = db;
  }

  /**
   * The account's newest events that match `filter`, newest first, at most `limit`; by type or outcome only, among its
   * newest FILTER_REACH.
   */
  async list(accountId: number, filter: EventFilter, limit: number): Promise<LoggedEvent[]> {
    const given = FILTERS.filter((key) => filter[key] !== undefined);
    const reach = given.length > 0 && filter.sessionId === undefined;
    const conditions = [...given.map((key) => CONDITIONS[key]), ...(reach ? [WITHIN_REACH] : [])];
    const rows = await this.#db.all<Omit<LoggedEvent, "request"> & { request: string }>(
      LIST(conditions),
      accountId,
      ...given.map((key) => filter[key]!),
      ...(reach ? [accountId, FILTER_REACH - 1] : []),
      limit,
    );
    return rows.map((row) => ({ ...row, request: JSON.parse(row.request) }));
  }
}
