import type { components } from "../../../generated/openapi.ts";
import { isoTime } from "../../lib/time.ts";
import { clockOffsetOf } from "./due.ts";
import type { Database } from "./database.ts";

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

// A settlement is stamped with the time it was due, on its account's clock.
const SETTLE =
  "UPDATE transactions SET status = 'settled', " + `updated_at_ms = due_ms + ${clockOffsetOf("transactions.account_id")}, due_ms = NULL`;
const INSERT = "INSERT INTO transactions (account_id, id, session_id, status, created_at_ms, updated_at_ms) VALUES (?, ?, ?, ?, ?, ?)";
const UPDATE = "UPDATE transactions SET status = ?, failure_reason = ?, updated_at_ms = ?, due_ms = ? WHERE account_id = ? AND id = ?";
const GET = `${SELECT} WHERE t.account_id = ? AND t.id = ?`;
// Ids start with the time they were made: the key's order is newest last.
const RECENT = `${SELECT} WHERE t.account_id = ? ORDER BY t.id DESC LIMIT ?`;
const SETTLE_FOR_ACCOUNT = `${SETTLE} WHERE account_id = ? AND due_ms <= ? RETURNING account_id, id`;
const SETTLE_FOR_ALL = `${SETTLE} WHERE due_ms <= ? RETURNING account_id, id`;

export class Transactions {
  readonly #db: Database;

  constructor(db: Database) {
    this.#db = db;
  }

  async create(accountId: number, transaction: Transaction, atMs: number) {
    await this.#db.run(INSERT, accountId, transaction.id, transaction.session_id, transaction.status, atMs, atMs);
  }

  /** Stores the transaction's new state; `dueMs` is the real time it settles, when it is completed. */
  async update(accountId: number, transaction: Transaction, atMs: number, dueMs: number | null = null) {
    await this.#db.run(UPDATE, transaction.status, transaction.failure_reason ?? null, atMs, dueMs, accountId, transaction.id);
  }

  /** The account's newest transactions, newest first (the dashboard's list). */
  async recent(accountId: number, limit: number): Promise<Transaction[]> {
    return (await this.#db.all<Row>(RECENT, accountId, limit)).map((row) => stored(row).transaction);
  }

  async get(accountId: number, id: string): Promise<Transaction | undefined> {
    const row = await this.#db.get<Row>(GET, accountId, id);
    return row && stored(row).transaction;
  }

  /** Completed transactions whose settlement has come by real time `nowMs` become `settled`, of one account or all; returns them. */
  async settleDue(accountId: number | null, nowMs: number): Promise<StoredTransaction[]> {
    const settled = await (accountId === null
      ? this.#db.all<{ account_id: number; id: string }>(SETTLE_FOR_ALL, nowMs)
      : this.#db.all<{ account_id: number; id: string }>(SETTLE_FOR_ACCOUNT, accountId, nowMs));
    const found: StoredTransaction[] = [];
    for (const { account_id, id } of settled) found.push({ accountId: account_id, transaction: (await this.get(account_id, id))! });
    return found;
  }
}
