import type { DatabaseSync } from "node:sqlite";
import type { components } from "../../../generated/openapi.ts";
import { isConstraint, SQLITE_CONSTRAINT_FOREIGNKEY } from "./database.ts";

type PaymentSession = components["schemas"]["PaymentSession"];

/** A session as stored: its record with the status it has now, and the account it belongs to. */
export interface StoredSession {
  accountId: number;
  session: PaymentSession;
}

interface Row {
  account_id: number;
  record: string;
  status: PaymentSession["status"];
}

const stored = (row: Row): StoredSession => ({ accountId: row.account_id, session: { ...(JSON.parse(row.record) as PaymentSession), status: row.status } });

export class Sessions {
  readonly #insert;
  readonly #get;
  readonly #find;
  readonly #complete;
  readonly #expireForAccount;
  readonly #expireForAll;

  constructor(db: DatabaseSync) {
    this.#insert = db.prepare(
      `INSERT INTO payment_sessions (account_id, id, counterparty_id, status, record, created_at_ms, expires_at_ms, updated_at_ms)
       VALUES (?, ?, ?, ?, ?, ?, ?, ?)`,
    );
    this.#get = db.prepare("SELECT account_id, record, status FROM payment_sessions WHERE account_id = ? AND id = ?");
    this.#find = db.prepare("SELECT account_id, record, status FROM payment_sessions WHERE id = ?");
    this.#complete = db.prepare("UPDATE payment_sessions SET status = 'completed', updated_at_ms = ? WHERE account_id = ? AND id = ? AND status = 'created'");
    this.#expireForAccount = db.prepare(
      `UPDATE payment_sessions SET status = 'expired', updated_at_ms = expires_at_ms WHERE account_id = ? AND status = 'created' AND expires_at_ms <= ?
       RETURNING account_id, record, status`,
    );
    // The first bound (by the clock furthest ahead) lets the index skip every session that
    // cannot be due; the second is each account's own clock.
    this.#expireForAll = db.prepare(
      `UPDATE payment_sessions SET status = 'expired', updated_at_ms = expires_at_ms
       WHERE status = 'created' AND expires_at_ms <= ?1 + (SELECT MAX(clock_offset_ms) FROM accounts)
         AND expires_at_ms <= ?1 + (SELECT clock_offset_ms FROM accounts WHERE accounts.id = account_id)
       RETURNING account_id, record, status`,
    );
  }

  /**
   * Stores the session, given with its JSON text; false when its counterparty is not one of
   * the account's (the foreign key says so).
   */
  create(accountId: number, session: PaymentSession, json: string, createdAtMs: number, expiresAtMs: number): boolean {
    try {
      this.#insert.run(accountId, session.id, session.counterparty_id, session.status, json, createdAtMs, expiresAtMs, createdAtMs);
      return true;
    } catch (error) {
      if (isConstraint(error, SQLITE_CONSTRAINT_FOREIGNKEY)) return false;
      throw error;
    }
  }

  get(accountId: number, id: string): PaymentSession | undefined {
    const row = this.#get.get(accountId, id) as Row | undefined;
    return row && stored(row).session;
  }

  /** A session by its id alone, whichever account it is of: the payment page has no token. */
  find(id: string): StoredSession | undefined {
    const row = this.#find.get(id) as Row | undefined;
    return row && stored(row);
  }

  /** An open session becomes `completed`; false when it was not open. */
  complete(accountId: number, id: string, atMs: number): boolean {
    return this.#complete.run(atMs, accountId, id).changes === 1;
  }

  /** Sessions past `expires_at` on their account's clock become `expired`; returns them. */
  expireDue(accountId: number | null, nowMs: number): StoredSession[] {
    const rows = (accountId === null ? this.#expireForAll.all(nowMs) : this.#expireForAccount.all(accountId, nowMs)) as unknown as Row[];
    return rows.map(stored);
  }
}
