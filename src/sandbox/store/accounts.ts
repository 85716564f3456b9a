// Accounts are bearer tokens: each distinct token is its own account, made on first use. One
// object per account stays in memory, so that a clock moved through one lookup is moved for
// every holder of the account (a delivery under way, a request).
import type { DatabaseSync } from "node:sqlite";
import { prepareAll } from "./database.ts";

export interface Account {
  id: number;
  /** The account's clock runs this far ahead of real time. */
  clockOffsetMs: number;
}

export class Accounts {
  readonly #byId = new Map<number, Account>();
  readonly #sql;

  constructor(db: DatabaseSync) {
    this.#sql = prepareAll(db, {
      // DO UPDATE (not DO NOTHING) so that RETURNING gives the row that was already there.
      upsert: `INSERT INTO accounts (token, created_at_ms) VALUES (?, ?)
        ON CONFLICT (token) DO UPDATE SET token = excluded.token
        RETURNING id, clock_offset_ms AS clockOffsetMs`,
      get: "SELECT id, clock_offset_ms AS clockOffsetMs FROM accounts WHERE id = ?",
      setOffset: "UPDATE accounts SET clock_offset_ms = ? WHERE id = ?",
    });
  }

  /** The account of a bearer token, made if new. */
  forToken(token: string): Account {
    return this.#cached(this.#sql.upsert.get(token, Date.now()) as unknown as Account);
  }

  /** The account with this id (the payment page knows a session's account, not its token). */
  byId(id: number): Account {
    return this.#byId.get(id) ?? this.#cached(this.#sql.get.get(id) as unknown as Account);
  }

  #cached(row: Account): Account {
    let account = this.#byId.get(row.id);
    if (!account) {
      account = { id: row.id, clockOffsetMs: row.clockOffsetMs };
      this.#byId.set(row.id, account);
    }
    return account;
  }

  setClockOffset(account: Account, offsetMs: number) {
    this.#sql.setOffset.run(offsetMs, account.id);
    account.clockOffsetMs = offsetMs;
  }
}
