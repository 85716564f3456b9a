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
const INSERT =
  "INSERT INTO transactions (account_id, id, session_id, status, failure_reason, created_at_ms, updated_at_ms, due_ms) " +
  "VALUES (?, ?, ?, ?, ?, ?, ?, ?)";
const GET = `${SELECT} WHERE t.account_id = ? AND t.id = ?`;
// Ids start with the time they were made: the key's order is newest last.
const RECENT = `${SELECT} WHERE t.account_id = ? ORDER BY t.id DESC LIMIT ?`;
const SETTLED = 'RETURNING account_id AS "accountId", id, session_id AS "sessionId", updated_at_ms AS "settledAtMs"';
const SETTLE_FOR_ACCOUNT = `${SETTLE} WHERE account_id = ? AND due_ms <= ? ${SETTLED}`;
const SETTLE_FOR_ALL = `${SETTLE} WHERE due_ms <= ? ${SETTLED}`;

/** A transaction that settled: which, of which session, and when on its account's clock. */
export interface Settled {
  accountId: number;
  id: string;
  sessionId: string;
  settledAtMs: number;
}

export class Transactions {
  readonly #db: Database;

  constructor(db: Database) {
    this.#db = db;
  }

  /** Stores a transaction as it is at `atMs`; `dueMs` is the real time it settles, when it is completed. */
  async create(accountId: number, transaction: Transaction, atMs: number, dueMs: number | null = null) {
    const { id, session_id, status, failure_reason } = transaction;
    await this.#db.write(INSERT, accountId, id, session_id, status, failure_reason ?? null, atMs, atMs, dueMs);
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
  settleDue(accountId: number | null, nowMs: number): Promise<Settled[]> {
    return accountId === null ? this.#db.all<Settled>(SETTLE_FOR_ALL, nowMs) : this.#db.all<Settled>(SETTLE_FOR_ACCOUNT, accountId, nowMs);
  }
}
