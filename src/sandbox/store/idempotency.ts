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
  readonly #forgetDue;
  readonly #forgetDueForAll;
  readonly #shift;

  constructor(db: DatabaseSync) {
    this.#claim = db.prepare(
      "INSERT INTO idempotency_keys (account_id, operation, key, request_hash, status, response, created_at_ms, due_ms) VALUES (?, ?, ?, ?, 0, '', ?, ?)",
    );
    this.#existing = db.prepare("SELECT request_hash, status, response, created_at_ms FROM idempotency_keys WHERE account_id = ? AND operation = ? AND key = ?");
    this.#renew = db.prepare("UPDATE idempotency_keys SET request_hash = ?, status = 0, response = '', created_at_ms = ?, due_ms = ? WHERE account_id = ? AND operation = ? AND key = ?");
    this.#answer = db.prepare("UPDATE idempotency_keys SET status = ?, response = ? WHERE account_id = ? AND operation = ? AND key = ?");
    this.#forgetDue = db.prepare("DELETE FROM idempotency_keys INDEXED BY idempotency_keys_due WHERE account_id = ? AND due_ms <= ?");
    this.#forgetDueForAll = db.prepare("DELETE FROM idempotency_keys WHERE due_ms <= ?");
    this.#shift = db.prepare("UPDATE idempotency_keys SET due_ms = due_ms - ? WHERE account_id = ?");
  }

  /**
   * Takes the key for this request, or says what it was first used for. Call inside the
   * transaction that then records the answer, so a key is never taken without one. `nowMs` is
   * the account's time, `offsetMs` how far its clock is ahead of real time.
   */
  claim(accountId: number, operation: string, key: string, hash: string, nowMs: number, offsetMs: number): Claim {
    const dueMs = nowMs + IDEMPOTENCY_KEY_LIFETIME_MS - offsetMs;
    try {
      this.#claim.run(accountId, operation, key, hash, nowMs, dueMs);
      return { fresh: true };
    } catch (error) {
      if (!isConstraint(error, SQLITE_CONSTRAINT_PRIMARYKEY)) throw error;
    }
    const row = this.#existing.get(accountId, operation, key) as { request_hash: string; status: number; response: string; created_at_ms: number };
    if (row.created_at_ms <= nowMs - IDEMPOTENCY_KEY_LIFETIME_MS) {
      // Past its lifetime but not yet swept: a new first use.
      this.#renew.run(hash, nowMs, dueMs, accountId, operation, key);
      return { fresh: true };
    }
    return { fresh: false, sameBody: row.request_hash === hash, answer: { status: row.status, body: row.response } };
  }

  record(accountId: number, operation: string, key: string, answer: StoredAnswer) {
    this.#answer.run(answer.status, answer.body, accountId, operation, key);
  }

  /** Sweeps the keys past their lifetime by real time `nowMs`, of one account or all. */
  forgetExpired(accountId: number | null, nowMs: number) {
    if (accountId === null) this.#forgetDueForAll.run(nowMs);
    else this.#forgetDue.run(accountId, nowMs);
  }

  /** The account's clock moved `ms` ahead: its keys expire that much sooner in real time. */
  shiftDue(accountId: number, ms: number) {
    this.#shift.run(ms, accountId);
  }
}
