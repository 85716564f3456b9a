import type { DatabaseSync } from "node:sqlite";
import type { components } from "../../../generated/openapi.ts";
import { isConstraint, SQLITE_CONSTRAINT_FOREIGNKEY } from "./database.ts";

type PaymentSession = components["schemas"]["PaymentSession"];

export class Sessions {
  readonly #insert;
  readonly #get;
  readonly #expireForAccount;
  readonly #expireForAll;

  constructor(db: DatabaseSync) {
    this.#insert = db.prepare(
      `INSERT INTO payment_sessions (account_id, id, counterparty_id, status, record, created_at_ms, expires_at_ms, updated_at_ms)
       VALUES (?, ?, ?, ?, ?, ?, ?, ?)`,
    );
    this.#get = db.prepare("SELECT record, status FROM payment_sessions WHERE account_id = ? AND id = ?");
    this.#expireForAccount = db.prepare(
      "UPDATE payment_sessions SET status = 'expired', updated_at_ms = expires_at_ms WHERE account_id = ? AND status = 'created' AND expires_at_ms <= ?",
    );
    // The first bound (by the clock furthest ahead) lets the index skip every session that
    // cannot be due; the second is each account's own clock.
    this.#expireForAll = db.prepare(
      `UPDATE payment_sessions SET status = 'expired', updated_at_ms = expires_at_ms
       WHERE status = 'created' AND expires_at_ms <= ?1 + (SELECT MAX(clock_offset_ms) FROM accounts)
         AND expires_at_ms <= ?1 + (SELECT clock_offset_ms FROM accounts WHERE accounts.id = account_id)`,
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
    const row = this.#get.get(accountId, id) as { record: string; status: PaymentSession["status"] } | undefined;
    return row && { ...(JSON.parse(row.record) as PaymentSession), status: row.status };
  }

  /** Sessions past `expires_at` on their account's clock become `expired`. */
  expireDue(accountId: number | null, nowMs: number) {
    if (accountId === null) this.#expireForAll.run(nowMs);
    else this.#expireForAccount.run(accountId, nowMs);
  }
}
