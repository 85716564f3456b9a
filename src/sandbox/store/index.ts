// The sandbox's state: one SQLite database and its prepared statements, grouped by resource.
import type { DatabaseSync } from "node:sqlite";
import { Accounts, type Account } from "./accounts.ts";
import { Counterparties } from "./counterparties.ts";
import { inTransaction, inTransactionNow, openDatabase } from "./database.ts";
import { DueTimes } from "./due.ts";
import { Faults } from "./faults.ts";
import { Outbox } from "./outbox.ts";
import { IdempotencyKeys } from "./idempotency.ts";
import { Sessions } from "./sessions.ts";
import { Transactions } from "./transactions.ts";
import { Webhooks } from "./webhooks.ts";

/** Tables emptied by a reset, children before parents. */
const ACCOUNT_TABLES = [
  "delivery_attempts",
  "events",
  "idempotency_keys",
  "transactions",
  "payment_sessions",
  "counterparties",
  "webhooks",
] as const;

export class Store {
  readonly db: DatabaseSync;
  readonly accounts: Accounts;
  readonly counterparties: Counterparties;
  readonly sessions: Sessions;
  readonly transactions: Transactions;
  readonly webhooks: Webhooks;
  readonly idempotencyKeys: IdempotencyKeys;
  readonly outbox: Outbox;
  readonly faults: Faults;
  readonly #dueTimes;
  readonly #resets;

  constructor(file?: string) {
    this.db = openDatabase(file);
    this.accounts = new Accounts(this.db);
    this.counterparties = new Counterparties(this.db);
    this.sessions = new Sessions(this.db);
    this.transactions = new Transactions(this.db);
    this.webhooks = new Webhooks(this.db);
    this.idempotencyKeys = new IdempotencyKeys(this.db);
    this.outbox = new Outbox(this.db);
    this.faults = new Faults(this.db);
    this.#dueTimes = new DueTimes(this.db);
    this.#resets = ACCOUNT_TABLES.map((table) => this.db.prepare(`DELETE FROM ${table} WHERE account_id = ?`));
  }

  /**
   * Runs `work` in one transaction: all of its writes happen, or none. Once a transaction that
   * put events in the outbox, or made some due, has committed, the outbox's listeners hear of it.
   */
  transaction<T>(work: () => T): T {
    if (inTransactionNow(this.db)) return work();
    try {
      const result = inTransaction(this.db, work);
      this.outbox.announceWrites();
      return result;
    } finally {
      this.outbox.forgetWrites();
    }
  }

  /** Moves the account's clock `ms` ahead; what it has due comes that much sooner in real time. */
  advanceClock(account: Account, ms: number) {
    this.transaction(() => {
      this.accounts.setClockOffset(account, account.clockOffsetMs + ms);
      this.#dueTimes.shift(account.id, ms);
    });
  }

  /** Empties the account: its records, its webhook, its keys, its faults, and its clock's offset. */
  reset(account: Account) {
    this.transaction(() => {
      for (const statement of this.#resets) statement.run(account.id);
      this.faults.clear(account.id);
      this.accounts.setClockOffset(account, 0);
    });
  }

  close() {
    this.db.close();
  }
}
