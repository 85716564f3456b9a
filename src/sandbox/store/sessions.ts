import type { DatabaseSync } from "node:sqlite";
import type { components } from "../../../generated/openapi.ts";
import { isoTime } from "../../lib/time.ts";
import { isConstraint, prepareAll, SQLITE_CONSTRAINT_FOREIGNKEY } from "./database.ts";
import { SESSION_LIFETIME_MS } from "../../lib/contract-facts.ts";

type PaymentSession = components["schemas"]["PaymentSession"];
/** A session as the store keeps it: all of its record but the link, which is the sandbox's origin and its id. */
export type SessionRecord = Omit<PaymentSession, "payment_link">;

/** A session as stored: its record with the status it has now, and the account it belongs to. */
export interface StoredSession {
  accountId: number;
  session: SessionRecord;
}

/** A session and its link are valid for one hour (the seed's rule). */

interface Row {
  account_id: number;
  id: string;
  counterparty_id: string;
  status: PaymentSession["status"];
  request: string;
  created_at_ms: number;
}

const COLUMNS = "account_id, id, counterparty_id, status, request, created_at_ms";

/** The record as sent, from the columns and the request's other fields. */
function stored(row: Row): StoredSession {
  const session = {
    id: row.id,
    status: row.status,
    counterparty_id: row.counterparty_id,
    ...(JSON.parse(row.request) as Omit<SessionRecord, "id" | "status" | "counterparty_id" | "created_at" | "expires_at">),
    created_at: isoTime(row.created_at_ms),
    expires_at: isoTime(row.created_at_ms + SESSION_LIFETIME_MS),
  };
  return { accountId: row.account_id, session };
}

export class Sessions {
  readonly #sql;

  constructor(db: DatabaseSync) {
    this.#sql = prepareAll(db, {
      insert: `INSERT INTO payment_sessions (${COLUMNS}, due_ms) VALUES (?, ?, ?, 'created', ?, ?, ?)`,
      get: `SELECT ${COLUMNS} FROM payment_sessions WHERE account_id = ? AND id = ?`,
      find: `SELECT ${COLUMNS} FROM payment_sessions WHERE id = ?`,
      // Ids start with the time they were made: the key's order is newest last.
      recent: `SELECT ${COLUMNS} FROM payment_sessions WHERE account_id = ? ORDER BY id DESC LIMIT ?`,
      complete: "UPDATE payment_sessions SET status = 'completed', due_ms = NULL WHERE account_id = ? AND id = ? AND status = 'created'",
      expireForAccount:
        "UPDATE payment_sessions SET status = 'expired', due_ms = NULL " + `WHERE account_id = ? AND due_ms <= ? RETURNING ${COLUMNS}`,
      expireForAll: `UPDATE payment_sessions SET status = 'expired', due_ms = NULL WHERE due_ms <= ? RETURNING ${COLUMNS}`,
    });
  }

  /**
   * Stores a new session from its request body; `dueMs` is the real time it expires. False when
   * its counterparty is not one of the account's (the foreign key says so).
   */
  create(accountId: number, id: string, body: { counterparty_id: string }, createdAtMs: number, dueMs: number): boolean {
    const { counterparty_id, ...request } = body;
    try {
      this.#sql.insert.run(accountId, id, counterparty_id, JSON.stringify(request), createdAtMs, dueMs);
      return true;
    } catch (error) {
      if (isConstraint(error, SQLITE_CONSTRAINT_FOREIGNKEY)) return false;
      throw error;
    }
  }

  get(accountId: number, id: string): SessionRecord | undefined {
    const row = this.#sql.get.get(accountId, id) as Row | undefined;
    return row && stored(row).session;
  }

  /** The account's newest sessions, newest first (the dashboard's list). */
  recent(accountId: number, limit: number): SessionRecord[] {
    return (this.#sql.recent.all(accountId, limit) as unknown as Row[]).map((row) => stored(row).session);
  }

  /** A session by its id alone, whichever account it is of: the payment page has no token. */
  find(id: string): StoredSession | undefined {
    const row = this.#sql.find.get(id) as Row | undefined;
    return row && stored(row);
  }

  /** An open session becomes `completed`; false when it was not open. */
  complete(accountId: number, id: string): boolean {
    return this.#sql.complete.run(accountId, id).changes === 1;
  }

  /** Open sessions whose expiry has come by real time `nowMs` become `expired`, of one account or all; returns them. */
  expireDue(accountId: number | null, nowMs: number): StoredSession[] {
    const rows = (accountId === null
      ? this.#sql.expireForAll.all(nowMs)
      : this.#sql.expireForAccount.all(accountId, nowMs)) as unknown as Row[];
    return rows.map(stored);
  }
}
