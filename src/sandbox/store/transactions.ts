import type { DatabaseSync } from "node:sqlite";
import type { components } from "../../../generated/openapi.ts";

type Transaction = components["schemas"]["Transaction"];

export interface StoredTransaction {
  accountId: number;
  transaction: Transaction;
}

export class Transactions {
  readonly #insert;
  readonly #update;
  readonly #get;
  readonly #dueForAccount;
  readonly #dueForAll;

  constructor(db: DatabaseSync) {
    this.#insert = db.prepare(
      "INSERT INTO transactions (account_id, id, session_id, status, record, created_at_ms, updated_at_ms) VALUES (?, ?, ?, ?, ?, ?, ?)",
    );
    this.#update = db.prepare("UPDATE transactions SET status = ?, record = ?, updated_at_ms = ?, settles_at_ms = ? WHERE account_id = ? AND id = ?");
    this.#get = db.prepare("SELECT record FROM transactions WHERE account_id = ? AND id = ?");
    this.#dueForAccount = db.prepare(
      "SELECT account_id, record, settles_at_ms FROM transactions WHERE status = 'completed' AND settles_at_ms <= ?2 AND account_id = ?1",
    );
    // As with sessions: the clock furthest ahead bounds the index scan, each account's own decides.
    this.#dueForAll = db.prepare(
      `SELECT account_id, record, settles_at_ms FROM transactions
       WHERE status = 'completed' AND settles_at_ms <= ?1 + (SELECT MAX(clock_offset_ms) FROM accounts)
         AND settles_at_ms <= ?1 + (SELECT clock_offset_ms FROM accounts WHERE accounts.id = account_id)`,
    );
  }

  create(accountId: number, transaction: Transaction, atMs: number) {
    this.#insert.run(accountId, transaction.id, transaction.session_id, transaction.status, JSON.stringify(transaction), atMs, atMs);
  }

  /** Stores the transaction's new state; `settlesAtMs` when it is completed and will settle. */
  update(accountId: number, transaction: Transaction, atMs: number, settlesAtMs: number | null = null) {
    this.#update.run(transaction.status, JSON.stringify(transaction), atMs, settlesAtMs, accountId, transaction.id);
  }

  get(accountId: number, id: string): Transaction | undefined {
    const row = this.#get.get(accountId, id) as { record: string } | undefined;
    return row && (JSON.parse(row.record) as Transaction);
  }

  /** Completed transactions whose settlement time has come on their account's clock. */
  dueToSettle(accountId: number | null, nowMs: number): Array<StoredTransaction & { settlesAtMs: number }> {
    const rows = (accountId === null ? this.#dueForAll.all(nowMs) : this.#dueForAccount.all(accountId, nowMs)) as Array<{ account_id: number; record: string; settles_at_ms: number }>;
    return rows.map((row) => ({ accountId: row.account_id, transaction: JSON.parse(row.record) as Transaction, settlesAtMs: row.settles_at_ms }));
  }
}
