import type { DatabaseSync } from "node:sqlite";
import type { components } from "../../../generated/openapi.ts";
import { isoTime } from "../../lib/time.ts";
import { clockOffsetOf } from "./due.ts";
import { prepareAll } from "./database.ts";

type Transaction = components["schemas"]["Transaction"];

export interface StoredTransaction {
  accountId: number;
  transaction: Transaction;
}

interface Row {
  account_id: number;
  id: string;
  session_id: string;
  status: Transaction["status"];
  failure_reason: string | null;
  created_at_ms: number;
  updated_at_ms: number;
  counterparty_id: string;
  request: string;
}

// A transaction keeps its own state; whom and what it charges are its session's.
const SELECT =
  "SELECT t.account_id, t.id, t.session_id, t.status, t.failure_reason, t.created_at_ms, t.updated_at_ms, " +
  `s.counterparty_id, s.request
  FROM transactions t JOIN payment_sessions s ON s.account_id = t.account_id AND s.id = t.session_id`;

function stored(row: Row): StoredTransaction {
  const { order_id, amount, currency } = JSON.parse(row.request) as { order_id?: string; amount: number; currency: string };
  const transaction: Transaction = {
    id: row.id,
    status: row.status,
    session_id: row.session_id,
    counterparty_id: row.counterparty_id,
    ...(order_id === undefined ? {} : { order_id }),
    amount,
    currency,
    created_at: isoTime(row.created_at_ms),
    updated_at: isoTime(row.updated_at_ms),
    ...(row.failure_reason === null ? {} : { failure_reason: row.failure_reason }),
  };
  return { accountId: row.account_id, transaction };
}

export class Transactions {
  readonly #sql;

  constructor(db: DatabaseSync) {
    // A settlement is stamped with the time it was due, on its account's clock.
    const settle = (where: string) =>
      `UPDATE transactions SET status = 'settled', updated_at_ms = due_ms + ${clockOffsetOf("transactions.account_id")}, due_ms = NULL
       WHERE ${where} RETURNING account_id, id`;
    this.#sql = prepareAll(db, {
      insert: "INSERT INTO transactions (account_id, id, session_id, status, created_at_ms, updated_at_ms) VALUES (?, ?, ?, ?, ?, ?)",
      update: "UPDATE transactions SET status = ?, failure_reason = ?, updated_at_ms = ?, due_ms = ? WHERE account_id = ? AND id = ?",
      get: `${SELECT} WHERE t.account_id = ? AND t.id = ?`,
      // Ids start with the time they were made: the key's order is newest last.
      recent: `${SELECT} WHERE t.account_id = ? ORDER BY t.id DESC LIMIT ?`,
      settleForAccount: settle("account_id = :account AND due_ms <= :now"),
      settleForAll: settle("due_ms <= :now"),
    });
  }

  create(accountId: number, transaction: Transaction, atMs: number) {
    this.#sql.insert.run(accountId, transaction.id, transaction.session_id, transaction.status, atMs, atMs);
  }

  /** Stores the transaction's new state; `dueMs` is the real time it settles, when it is completed. */
  update(accountId: number, transaction: Transaction, atMs: number, dueMs: number | null = null) {
    this.#sql.update.run(transaction.status, transaction.failure_reason ?? null, atMs, dueMs, accountId, transaction.id);
  }

  /** The account's newest transactions, newest first (the dashboard's list). */
  recent(accountId: number, limit: number): Transaction[] {
    return (this.#sql.recent.all(accountId, limit) as unknown as Row[]).map((row) => stored(row).transaction);
  }

  get(accountId: number, id: string): Transaction | undefined {
    const row = this.#sql.get.get(accountId, id) as Row | undefined;
    return row && stored(row).transaction;
  }

  /** Completed transactions whose settlement has come by real time `nowMs` become `settled`, of one account or all; returns them. */
  settleDue(accountId: number | null, nowMs: number): StoredTransaction[] {
    const settled = (
      accountId === null ? this.#sql.settleForAll.all({ now: nowMs }) : this.#sql.settleForAccount.all({ account: accountId, now: nowMs })
    ) as Array<{ account_id: number; id: string }>;
    return settled.map(({ account_id, id }) => ({ accountId: account_id, transaction: this.get(account_id, id)! }));
  }
}
