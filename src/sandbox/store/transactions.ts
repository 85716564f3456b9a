import type { DatabaseSync } from "node:sqlite";
import type { components } from "../../../generated/openapi.ts";

type Transaction = components["schemas"]["Transaction"];

export class Transactions {
  readonly #insert;
  readonly #get;

  constructor(db: DatabaseSync) {
    this.#insert = db.prepare(
      "INSERT INTO transactions (account_id, id, session_id, status, record, created_at_ms, updated_at_ms) VALUES (?, ?, ?, ?, ?, ?, ?)",
    );
    this.#get = db.prepare("SELECT record FROM transactions WHERE account_id = ? AND id = ?");
  }

  /** Made by the payment flow (the payment page and `simulate`, which come next). */
  create(accountId: number, transaction: Transaction, atMs: number) {
    this.#insert.run(accountId, transaction.id, transaction.session_id, transaction.status, JSON.stringify(transaction), atMs, atMs);
  }

  get(accountId: number, id: string): Transaction | undefined {
    const row = this.#get.get(accountId, id) as { record: string } | undefined;
    return row && (JSON.parse(row.record) as Transaction);
  }
}
