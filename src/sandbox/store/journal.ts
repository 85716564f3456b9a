// The request journal (GET /_sandbox/v1/requests): each account's last requests to the
// contract's operations, in the database, so that the journal is the sandbox's whichever
// process took a request. Bounded so that it never grows with the traffic: an account keeps its
// last 100 requests, and every 32nd entry a process writes forgets what is older than those. An
// entry is a write (Database.write): in its request's transaction, it goes with the request's own.
import { isoTime } from "../../lib/time.ts";
import type { Database } from "./database.ts";

export const JOURNAL_PER_ACCOUNT = 100;

export interface JournalEntry {
  method: string;
  path: string;
  operationId: string;
  status: number;
  /** False when a drop fault closed the connection before the answer. */
  answered: boolean;
  idempotencyKey: string | undefined;
  fault: { id: string; effect: string } | undefined;
  /** On the account's clock. */
  receivedAtMs: number;
  durationMs: number;
}

interface Row {
  method: string;
  path: string;
  operation_id: string;
  status: number;
  answered: number;
  idempotency_key: string | null;
  fault_id: string | null;
  fault_effect: string | null;
  received_at_ms: number;
  duration_ms: number;
}

const COLUMNS = "method, path, operation_id, status, answered, idempotency_key, fault_id, fault_effect, received_at_ms, duration_ms";
const INSERT = `INSERT INTO requests (account_id, ${COLUMNS}) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`;
/** How often, in a process's entries, a write also forgets its account's older ones: a delete costs more than the rows it keeps. */
const FORGET_EVERY = 32;
// The index on (account_id, seq) finds the account's 101st newest request, and what is older.
const FORGET = `DELETE FROM requests WHERE account_id = ? AND seq <= (
  SELECT seq FROM requests WHERE account_id = ? ORDER BY seq DESC LIMIT 1 OFFSET ${JOURNAL_PER_ACCOUNT})`;
const LIST = `SELECT ${COLUMNS} FROM requests WHERE account_id = ? ORDER BY seq DESC LIMIT ${JOURNAL_PER_ACCOUNT}`;
const CLEAR = "DELETE FROM requests WHERE account_id = ?";

export class Journal {
  readonly #db: Database;
  #written = 0;

  constructor(db: Database) {
    this.#db = db;
  }

  async record(accountId: number, e: JournalEntry) {
    // Its older ones before it: the two writes may go as one statement, where neither sees the other's rows.
    if (++this.#written % FORGET_EVERY === 0) await this.#db.write(FORGET, accountId, accountId);
    await this.#db.write(
      INSERT,
      accountId,
      e.method,
      e.path,
      e.operationId,
      e.status,
      e.answered ? 1 : 0,
      e.idempotencyKey ?? null,
      e.fault?.id ?? null,
      e.fault?.effect ?? null,
      e.receivedAtMs,
      e.durationMs,
    );
  }

  /** The account's requests, newest first, as the control API shows them. */
  async list(accountId: number) {
    return (await this.#db.all<Row>(LIST, accountId)).map((e) => ({
      method: e.method,
      path: e.path,
      operation_id: e.operation_id,
      status: e.status,
      answered: e.answered === 1,
      ...(e.idempotency_key === null ? {} : { idempotency_key: e.idempotency_key }),
      ...(e.fault_id === null ? {} : { fault: { id: e.fault_id, effect: e.fault_effect! } }),
      received_at: isoTime(e.received_at_ms),
      duration_ms: e.duration_ms,
    }));
  }

  async clear(accountId: number) {
    await this.#db.run(CLEAR, accountId);
  }
}
