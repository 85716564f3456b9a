// Idempotency-Key (decision D16): the same key and body replay the first answer; the same key
// with another body is refused. Keys are kept 24 hours of the account's clock.
import type { Database } from "./database.ts";
import { createHash } from "node:crypto";
import { IDEMPOTENCY_KEY_LIFETIME_MS } from "../../lib/contract-facts.ts";

export interface StoredAnswer {
  status: number;
  body: string;
}

export type Claim = { fresh: true } | { fresh: false; sameBody: boolean; answer: StoredAnswer };

export const requestHash = (body: Buffer) => createHash("sha256").update(body).digest("base64");

// DO NOTHING: a key already taken is no error, which would end a PostgreSQL transaction.
const KEEP =
  "INSERT INTO idempotency_keys (account_id, operation, key, request_hash, status, response, created_at_ms, due_ms) " +
  "VALUES (?, ?, ?, ?, ?, ?, ?, ?) ON CONFLICT DO NOTHING";
// Optimistic (Database.optimistic): a key taken fails the transaction instead.
const KEEP_OR_FAIL =
  "INSERT INTO idempotency_keys (account_id, operation, key, request_hash, status, response, created_at_ms, due_ms) " +
  "VALUES (?, ?, ?, ?, ?, ?, ?, ?)";
const EXISTING =
  "SELECT request_hash, status, response, created_at_ms FROM idempotency_keys WHERE account_id = ? AND operation = ? AND key = ?";
// Only while it is still past its lifetime: of two requests that renew it at once, one does.
const RENEW =
  "UPDATE idempotency_keys SET request_hash = ?, status = ?, response = ?, created_at_ms = ?, due_ms = ? " +
  "WHERE account_id = ? AND operation = ? AND key = ? AND created_at_ms <= ?";
const FORGET_DUE_FOR_ALL = "DELETE FROM idempotency_keys WHERE due_ms <= ?";

export class IdempotencyKeys {
  readonly #db: Database;

  constructor(db: Database) {
    this.#db = db;
  }

  /**
   * Keeps the key with the answer of its request, made in this transaction: fresh then; or says
   * what it was first used for, when a request used it first (an earlier one, or one at the same
   * moment, whose transaction this one waits for). `nowMs` is the account's time, `offsetMs` how
   * far its clock is ahead of real time. A key past its lifetime is a new first use.
   */
  async keep(
    accountId: number,
    operation: string,
    key: string,
    hash: string,
    answer: StoredAnswer,
    nowMs: number,
    offsetMs: number,
  ): Promise<Claim> {
    const dueMs = nowMs + IDEMPOTENCY_KEY_LIFETIME_MS - offsetMs;
    const expired = nowMs - IDEMPOTENCY_KEY_LIFETIME_MS;
    if (this.#db.optimistic) {
      await this.#db.write(KEEP_OR_FAIL, accountId, operation, key, hash, answer.status, answer.body, nowMs, dueMs);
      return { fresh: true };
    }
    // Again when another request changed the key between two statements: swept it, or renewed it first.
    for (;;) {
      const kept = await this.#db.run(KEEP, accountId, operation, key, hash, answer.status, answer.body, nowMs, dueMs);
      if (kept === 1) return { fresh: true };
      const row = await this.#db.get<{ request_hash: string; status: number; response: string; created_at_ms: number }>(
        EXISTING,
        accountId,
        operation,
        key,
      );
      if (!row) continue;
      if (row.created_at_ms > expired)
        return { fresh: false, sameBody: row.request_hash === hash, answer: { status: row.status, body: row.response } };
      // Past its lifetime but not yet swept: a new first use.
      if ((await this.#db.run(RENEW, hash, answer.status, answer.body, nowMs, dueMs, accountId, operation, key, expired)) === 1)
        return { fresh: true };
    }
  }

  /** Sweeps the keys past their lifetime by real time `nowMs`, of one account or all. */
  async forgetExpired(accountId: number | null, nowMs: number) {
    if (accountId === null) await this.#db.run(FORGET_DUE_FOR_ALL, nowMs);
    else await this.#db.run(this.#db.statements.forgetDueKeys, accountId, nowMs);
  }
}
