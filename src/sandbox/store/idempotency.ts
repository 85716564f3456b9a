// Idempotency-Key (decision D16): the same key and body replay the first answer; the same key
// with another body is refused. Keys are kept 24 hours of the account's clock.
import type { DatabaseSync } from "node:sqlite";
import { isConstraint, SQLITE_CONSTRAINT_PRIMARYKEY } from "./database.ts";

// node:crypto as CommonJS would take it (see ids.ts).
const { createHash } = process.getBuiltinModule("node:crypto");

export const IDEMPOTENCY_KEY_LIFETIME_MS = 24 * 60 * 60 * 1000;

export interface StoredAnswer {
  status: number;
  body: string;
}

export type Claim = { fresh: true } | { fresh: false; sameBody: boolean; answer: StoredAnswer };

export const requestHash = (body: Buffer) => createHash("sha256").update(body).digest("base64");

export class IdempotencyKeys {
  readonly #claim;
  readonly #existing;
  readonly #renew;
  readonly #answer;
  readonly #forgetOlderThan;
  readonly #forgetOlderThanForAll;

  constructor(db: DatabaseSync) {
    this.#claim = db.prepare(
      "INSERT INTO idempotency_keys (account_id, operation, key, request_hash, status, response, created_at_ms) VALUES (?, ?, ?, ?, 0, '', ?)",
    );
    this.#existing = db.prepare("SELECT request_hash, status, response, created_at_ms FROM idempotency_keys WHERE account_id = ? AND operation = ? AND key = ?");
    this.#renew = db.prepare("UPDATE idempotency_keys SET request_hash = ?, status = 0, response = '', created_at_ms = ? WHERE account_id = ? AND operation = ? AND key = ?");
    this.#answer = db.prepare("UPDATE idempotency_keys SET status = ?, response = ? WHERE account_id = ? AND operation = ? AND key = ?");
    this.#forgetOlderThan = db.prepare("DELETE FROM idempotency_keys WHERE account_id = ? AND created_at_ms <= ?");
    this.#forgetOlderThanForAll = db.prepare(
      `DELETE FROM idempotency_keys WHERE created_at_ms <= ?1 + (SELECT MAX(clock_offset_ms) FROM accounts)
         AND created_at_ms <= ?1 + (SELECT clock_offset_ms FROM accounts WHERE accounts.id = account_id)`,
    );
  }

  /**
   * Takes the key for this request, or says what it was first used for. Call inside the
   * transaction that then records the answer, so a key is never taken without one.
   */
  claim(accountId: number, operation: string, key: string, hash: string, nowMs: number): Claim {
    try {
      this.#claim.run(accountId, operation, key, hash, nowMs);
      return { fresh: true };
    } catch (error) {
      if (!isConstraint(error, SQLITE_CONSTRAINT_PRIMARYKEY)) throw error;
    }
    const row = this.#existing.get(accountId, operation, key) as { request_hash: string; status: number; response: string; created_at_ms: number };
    if (row.created_at_ms <= nowMs - IDEMPOTENCY_KEY_LIFETIME_MS) {
      // Past its lifetime but not yet swept: a new first use.
      this.#renew.run(hash, nowMs, accountId, operation, key);
      return { fresh: true };
    }
    return { fresh: false, sameBody: row.request_hash === hash, answer: { status: row.status, body: row.response } };
  }

  record(accountId: number, operation: string, key: string, answer: StoredAnswer) {
    this.#answer.run(answer.status, answer.body, accountId, operation, key);
  }

  /** Sweeps keys past their lifetime on their account's clock. */
  forgetExpired(accountId: number | null, nowMs: number) {
    if (accountId === null) this.#forgetOlderThanForAll.run(nowMs - IDEMPOTENCY_KEY_LIFETIME_MS);
    else this.#forgetOlderThan.run(accountId, nowMs - IDEMPOTENCY_KEY_LIFETIME_MS);
  }
}
