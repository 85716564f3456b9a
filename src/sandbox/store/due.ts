// Work due on an account's clock (a session's expiry, a settlement, a delivery attempt, a key's
// end) is kept as the real time it falls due, `due_ms`, so that one index range finds what is
// due for every account at once. An account's clock runs `clock_offset_ms` ahead of real time.
import type { DatabaseSync } from "node:sqlite";
import { prepareAll } from "./database.ts";

/** SQL for the offset of the account `accountId` (an SQL expression) names. */
export const clockOffsetOf = (accountId: string) => `(SELECT clock_offset_ms FROM accounts WHERE id = ${accountId})`;

/** Moving an account's clock ahead brings all it has due that much nearer in real time. */
export class DueTimes {
  readonly #sql;

  constructor(db: DatabaseSync) {
    // Only rows with work due are in a `_due_by_account` index; SQLite is told to use it, as the
    // primary key would also find the account's rows, the done ones among them.
    const shift = (table: string) =>
      `UPDATE ${table} INDEXED BY ${table}_due_by_account SET due_ms = due_ms - :ms WHERE account_id = :account AND due_ms IS NOT NULL`;
    this.#sql = prepareAll(db, {
      sessions: shift("payment_sessions"),
      transactions: shift("transactions"),
      events: shift("events"),
      // Every key has its end due: the primary key finds the account's.
      idempotencyKeys: "UPDATE idempotency_keys SET due_ms = due_ms - :ms WHERE account_id = :account",
    });
  }

  shift(accountId: number, ms: number) {
    for (const statement of Object.values(this.#sql)) statement.run({ ms, account: accountId });
  }
}
