// Work due on an account's clock (a session's expiry, a settlement, a delivery attempt, a key's
// end) is kept as the real time it falls due, `due_ms`, so that one index range finds what is
// due for every account at once. An account's clock runs `clock_offset_ms` ahead of real time.
import type { Database } from "./database.ts";

/** SQL for the offset of the account `accountId` (an SQL expression) names. */
export const clockOffsetOf = (accountId: string) => `(SELECT clock_offset_ms FROM accounts WHERE id = ${accountId})`;

/** Whether a session's expiry, a settlement or a key's end has come by real time `?`: of one account, or of any. */
const due = (table: string, byAccount: boolean) =>
  `EXISTS (SELECT 1 FROM ${table} WHERE ${byAccount ? "account_id = ? AND " : ""}due_ms <= ?)`;
const DUE_WORK = (byAccount: boolean) =>
  `SELECT ${due("payment_sessions", byAccount)} AS expiries, ${due("transactions", byAccount)} AS settlements, ` +
  `${due("idempotency_keys", byAccount)} AS "keyEnds"`;
const DUE_WORK_FOR_ACCOUNT = DUE_WORK(true);
const DUE_WORK_FOR_ALL = DUE_WORK(false);

/** What has come due: sessions to expire, transactions to settle, keys to forget. */
export interface DueWork {
  expiries: boolean;
  settlements: boolean;
  keyEnds: boolean;
}

export class DueTimes {
  readonly #db: Database;

  constructor(db: Database) {
    this.#db = db;
  }

  /** Moving an account's clock ahead brings all it has due that much nearer in real time. */
  async shift(accountId: number, ms: number) {
    for (const statement of this.#db.statements.shiftDue) await this.#db.run(statement, ms, accountId);
  }

  /** What of the account's (of any account's, when null) has come due by real time `nowMs`: a read. */
  async any(accountId: number | null, nowMs: number): Promise<DueWork> {
    type Row = { [K in keyof DueWork]: number | boolean };
    const row = (await (accountId === null
      ? this.#db.get<Row>(DUE_WORK_FOR_ALL, nowMs, nowMs, nowMs)
      : this.#db.get<Row>(DUE_WORK_FOR_ACCOUNT, accountId, nowMs, accountId, nowMs, accountId, nowMs)))!;
    return { expiries: Boolean(row.expiries), settlements: Boolean(row.settlements), keyEnds: Boolean(row.keyEnds) };
  }
}
