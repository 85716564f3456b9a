// Idempotency-Key (decision D16): the same key and body replay the first answer; the same key
// with another body is refused. Keys are kept 24 hours of the account's clock.
import type { DatabaseSync } from "node:sqlite";
import { isConstraint, prepareAll, SQLITE_CONSTRAINT_PRIMARYKEY } from "./database.ts";

import { createHash } from "node:crypto";
import { IDEMPOTENCY_KEY_LIFETIME_MS } from "../../lib/contract-facts.ts";

export interface StoredAnswer {
  status: number;
  body: string;
}

export type Claim = { fresh: true } | { fresh: false; sameBody: boolean; answer: StoredAnswer };

export const requestHash = (body: Buffer) => createHash("sha256").update(body).digest("base64");

export class IdempotencyKeys {
  readonly #sql;

  constructor(db: DatabaseSync) {
    this.#sql = prepareAll(db, {
      claim:
        "INSERT INTO idempotency_keys (account_id, operation, key, request_hash, status, response, created_at_ms, due_ms) " +
        "VALUES (?, ?, ?, ?, 0, '', ?, ?)",
      existing:
        "SELECT request_hash, status, response, created_at_ms FROM idempotency_keys WHERE account_id = ? AND operation = ? AND key = ?",
      renew:
        "UPDATE idempotency_keys SET request_hash = ?, status = 0, response = '', created_at_ms = ?, due_ms = ? " +
        "WHERE account_id = ? AND operation = ? AND key = ?",
      answer: "UPDATE idempotency_keys SET status = ?, response = ? WHERE account_id = ? AND operation = ? AND key = ?",
      forgetDue: "DELETE FROM idempotency_keys INDEXED BY idempotency_keys_due WHERE account_id = ? AND due_ms <= ?",
      forgetDueForAll: "DELETE FROM idempotency_keys WHERE due_ms <= ?",
    });
  }

  /**
   * Takes the key for this request, or says what it was first used for. Call inside the
   * transaction that then records the answer, so a key is never taken without one. `nowMs` is
   * the account's time, `offsetMs` how far its clock is ahead of real time.
   */
  claim(accountId: number, operation: string, key: string, hash: string, nowMs: number, offsetMs: number): Claim {
    const dueMs = nowMs + IDEMPOTENCY_KEY_LIFETIME_MS - offsetMs;
    try {
      this.#sql.claim.run(accountId, operation, key, hash, nowMs, dueMs);
      return { fresh: true };
    } catch (error) {
      if (!isConstraint(error, SQLITE_CONSTRAINT_PRIMARYKEY)) throw error;
    }
    const row = this.#sql.existing.get(accountId, operation, key) as {
      request_hash: string;
      status: number;
      response: string;
      created_at_ms: number;
    };
    if (row.created_at_ms <= nowMs - IDEMPOTENCY_KEY_LIFETIME_MS) {
      // Past its lifetime but not yet swept: a new first use.
      this.#sql.renew.run(hash, nowMs, dueMs, accountId, operation, key);
      return { fresh: true };
    }
    return { fresh: false, sameBody: row.request_hash === hash, answer: { status: row.status, body: row.response } };
  }

  record(accountId: number, operation: string, key: string, answer: StoredAnswer) {
    this.#sql.answer.run(answer.status, answer.body, accountId, operation, key);
  }

  /** Sweeps the keys past their lifetime by real time `nowMs`, of one account or all. */
  forgetExpired(accountId: number | null, nowMs: number) {
    if (accountId === null) this.#sql.forgetDueForAll.run(nowMs);
    else this.#sql.forgetDue.run(accountId, nowMs);
  }
}
