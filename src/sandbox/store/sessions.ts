import type { components } from "../../../generated/openapi.ts";
import { isoTime } from "../../lib/time.ts";
import type { Database } from "./database.ts";
import { SESSION_LIFETIME_MS } from "../../lib/contract-facts.ts";

type PaymentSession = components["schemas"]["PaymentSession"];
/** A session as the store keeps it: all of its record but the link, which is the sandbox's origin and its id. */
export type SessionRecord = Omit<PaymentSession, "payment_link">;

/** A session as stored: its record with the status it has now, and the account it belongs to. */
export interface StoredSession {
  accountId: number;
  session: SessionRecord;
}

/** A session and its link are valid for one hour (the seed's rule). */

interface Row {
  account_id: number;
  id: string;
  counterparty_id: string;
  status: PaymentSession["status"];
  request: string;
  created_at_ms: number;
}

const COLUMNS = "account_id, id, counterparty_id, status, request, created_at_ms";

/** The record as sent, from the columns and the request's other fields. */
function stored(row: Row): StoredSession {
  const session = {
    id: row.id,
    status: row.status,
    counterparty_id: row.counterparty_id,
    ...(JSON.parse(row.request) as Omit<SessionRecord, "id" | "status" | "counterparty_id" | "created_at" | "expires_at">),
    created_at: isoTime(row.created_at_ms),
    expires_at: isoTime(row.created_at_ms + SESSION_LIFETIME_MS),
  };
  return { accountId: row.account_id, session };
}

// The insert finds the counterparty itself: none of the account's, no row (a foreign key error
// would end a PostgreSQL transaction).
const INSERT =
  `INSERT INTO payment_sessions (${COLUMNS}, due_ms) SELECT account_id, ?, id, 'created', ?, CAST(? AS BIGINT), CAST(? AS BIGINT) ` +
  "FROM counterparties WHERE account_id = ? AND id = ?";
const GET = `SELECT ${COLUMNS} FROM payment_sessions WHERE account_id = ? AND id = ?`;
const FIND = `SELECT ${COLUMNS} FROM payment_sessions WHERE id = ?`;
// Ids start with the time they were made: the key's order is newest last.
const RECENT = `SELECT ${COLUMNS} FROM payment_sessions WHERE account_id = ? ORDER BY id DESC LIMIT ?`;
const COMPLETE = "UPDATE payment_sessions SET status = 'completed', due_ms = NULL WHERE account_id = ? AND id = ? AND status = 'created'";
const EXPIRE = "UPDATE payment_sessions SET status = 'expired', due_ms = NULL";
const EXPIRE_FOR_ACCOUNT = `${EXPIRE} WHERE account_id = ? AND due_ms <= ? RETURNING ${COLUMNS}`;
const EXPIRE_FOR_ALL = `${EXPIRE} WHERE due_ms <= ? RETURNING ${COLUMNS}`;

export class Sessions {
  readonly #db: Database;

  constructor(db: Database) {
    this.#db = db;
  }

  /**
   * Stores a new session from its request body; `dueMs` is the real time it expires. False when
   * its counterparty is not one of the account's.
   */
  async create(accountId: number, id: string, body: { counterparty_id: string }, createdAtMs: number, dueMs: number): Promise<boolean> {
    const { counterparty_id, ...request } = body;
    return (await this.#db.run(INSERT, id, JSON.stringify(request), createdAtMs, dueMs, accountId, counterparty_id)) === 1;
  }

  async get(accountId: number, id: string): Promise<SessionRecord | undefined> {
    const row = await this.#db.get<Row>(GET, accountId, id);
    return row && stored(row).session;
  }

  /** The account's newest sessions, newest first (the dashboard's list). */
  async recent(accountId: number, limit: number): Promise<SessionRecord[]> {
    return (await this.#db.all<Row>(RECENT, accountId, limit)).map((row) => stored(row).session);
  }

  /** A session by its id alone, whichever account it is of: the payment page has no token. */
  async find(id: string): Promise<StoredSession | undefined> {
    const row = await this.#db.get<Row>(FIND, id);
    return row && stored(row);
  }

  /** An open session becomes `completed` (one its transaction holds the lock of, and read as open). */
  async complete(accountId: number, id: string) {
    await this.#db.write(COMPLETE, accountId, id);
  }

  /** Open sessions whose expiry has come by real time `nowMs` become `expired`, of one account or all; returns them. */
  async expireDue(accountId: number | null, nowMs: number): Promise<StoredSession[]> {
    const rows = await (accountId === null
      ? this.#db.all<Row>(EXPIRE_FOR_ALL, nowMs)
      : this.#db.all<Row>(EXPIRE_FOR_ACCOUNT, accountId, nowMs));
    return rows.map(stored);
  }
}
