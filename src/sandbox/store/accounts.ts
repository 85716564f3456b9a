// Accounts are bearer tokens: each distinct token is its own account, made on first use (an open
// sandbox), or issued to a tenant beforehand (payin-sandbox accounts create), kept by the hash of
// its token only (token-hash.ts). Its
// clock's offset is read from the database at each look-up, so that every process serving the
// account keeps one clock; while anyone here holds an account's object, a look-up finds that
// object, so that a clock moved through one look-up is moved for every holder of the account
// here (a delivery under way). The objects are held weakly: an account no one holds any more
// (a CI run's token, used once) leaves memory, and its next look-up makes a new object from the
// database, which is all that an object no one holds could have known.
//
// A reading of the clock that was under way while this process moved the clock is not taken: it
// may have begun before the move committed, and would set the clock back (it did, in an
// advance's answer, with deliveries reading the account meanwhile). The move is taken again once
// it commits, over any reading taken in between.
import { randomBytes } from "node:crypto";
import type { Clock } from "../../lib/clock.ts";
import type { Database } from "./database.ts";
import { tokenHash } from "./token-hash.ts";

export interface Account {
  id: number;
  /** The account's clock runs this far ahead of real time. */
  clockOffsetMs: number;
}

// With it, whether the account has a request fault armed: most have none, and their requests need not ask.
const BY_TOKEN = `SELECT id, clock_offset_ms AS "clockOffsetMs", last_request_ms AS "lastRequestMs", issued,
  CASE WHEN EXISTS (SELECT 1 FROM faults WHERE faults.account_id = accounts.id AND target = 'request') THEN 1 ELSE 0 END AS "requestFaults"
  FROM accounts WHERE token_hash = ?`;
// A new token: made once, whichever request or process comes first (then read as above).
const INSERT = "INSERT INTO accounts (token_hash, created_at_ms, last_request_ms) VALUES (?, ?, ?) ON CONFLICT (token_hash) DO NOTHING";
const ISSUE = "INSERT INTO accounts (token_hash, name, issued, created_at_ms, last_request_ms) VALUES (?, ?, 1, ?, ?) RETURNING id";
const ISSUED =
  'SELECT id, name, created_at_ms AS "createdAtMs", last_request_ms AS "lastRequestMs" FROM accounts WHERE issued = 1 ORDER BY id';

/** What an issued token starts with, so that a secret scanner finds one leaked: then 32 random bytes, in base64url. */
export const ISSUED_TOKEN_PREFIX = "payin_sbx_";

/** An issued account as its operator sees it: never its token. */
export interface IssuedAccount {
  id: number;
  name: string | null;
  createdAtMs: number;
  lastRequestMs: number;
}
const TOUCH = "UPDATE accounts SET last_request_ms = ? WHERE id = ? AND last_request_ms < ?";
const GET = 'SELECT id, clock_offset_ms AS "clockOffsetMs" FROM accounts WHERE id = ?';
const ADVANCE = 'UPDATE accounts SET clock_offset_ms = clock_offset_ms + ? WHERE id = ? RETURNING clock_offset_ms AS "clockOffsetMs"';
const RESET = "UPDATE accounts SET clock_offset_ms = 0 WHERE id = ?";

export class Accounts {
  readonly #byId = new Map<number, WeakRef<Account>>();
  // Once an object is collected its entry goes too, unless a newer object of the account stands there.
  readonly #collected = new FinalizationRegistry<number>((id) => {
    if (this.#byId.get(id)?.deref() === undefined) this.#byId.delete(id);
  });
  readonly #db: Database;
  readonly #clock: Clock;
  /** Moves of a clock by this process, counted as each is made and as it commits. */
  #moves = 0;

  /** How stale an account's last request may be kept: a tenth of the retention, at most a minute. */
  readonly #touchEveryMs: number;

  constructor(db: Database, clock: Clock, touchEveryMs = 60_000) {
    this.#db = db;
    this.#clock = clock;
    this.#touchEveryMs = touchEveryMs;
  }

  /**
   * The account of a bearer token, made if new (unless `issuedOnly`: then only an account issued
   * beforehand, else undefined), and whether it has a request fault armed. A read, but for a new
   * token and, now and then, the time of the account's last request: every request makes one.
   */
  async lookUp(token: string, { issuedOnly = false } = {}): Promise<{ account: Account; requestFaults: boolean } | undefined> {
    type Row = Account & { requestFaults: number; lastRequestMs: number; issued: number };
    const moves = this.#moves;
    const now = this.#clock.now();
    const hash = tokenHash(token);
    let row = await this.#db.get<Row>(BY_TOKEN, hash);
    if (issuedOnly && row?.issued !== 1) return undefined;
    if (!row) {
      await this.#db.run(INSERT, hash, now, now);
      row = await this.#db.get<Row>(BY_TOKEN, hash);
    } else if (now - row.lastRequestMs >= this.#touchEveryMs) await this.#db.run(TOUCH, now, row.id, now);
    return { account: this.#cached(row!, moves), requestFaults: row!.requestFaults === 1 };
  }

  /** The account of a bearer token, made if new. */
  async forToken(token: string): Promise<Account> {
    return (await this.lookUp(token))!.account;
  }

  /** Issues an account to a tenant: its token, given once here and kept only as its hash, and its id. */
  async issue(name: string | null): Promise<{ id: number; token: string }> {
    const token = `${ISSUED_TOKEN_PREFIX}${randomBytes(32).toString("base64url")}`;
    const now = this.#clock.now();
    const { id } = (await this.#db.get<{ id: number }>(ISSUE, tokenHash(token), name, now, now))!;
    return { id, token };
  }

  /** Whether the account with this id was issued to a tenant. */
  async isIssued(id: number): Promise<boolean> {
    return (await this.#db.get<{ issued: number }>("SELECT issued FROM accounts WHERE id = ?", id))?.issued === 1;
  }

  /** The accounts issued to tenants, oldest first. */
  issued(): Promise<IssuedAccount[]> {
    return this.#db.all<IssuedAccount>(ISSUED);
  }

  /** The account with this id (the payment page knows a session's account, not its token). */
  async byId(id: number): Promise<Account> {
    const moves = this.#moves;
    return this.#cached((await this.#db.get<Account>(GET, id))!, moves);
  }

  /** How many accounts have an object in memory: those held here, and those no one holds that are not yet collected. */
  get inMemory(): number {
    return this.#byId.size;
  }

  /** The account's object, made from `row` if none is held; `row`'s clock is taken unless this process moved a clock since `moves`. */
  #cached(row: Account, moves: number): Account {
    let account = this.#byId.get(row.id)?.deref();
    if (account) {
      if (moves === this.#moves) account.clockOffsetMs = row.clockOffsetMs;
    } else {
      account = { id: row.id, clockOffsetMs: row.clockOffsetMs };
      this.#byId.set(row.id, new WeakRef(account));
      this.#collected.register(account, row.id);
    }
    return account;
  }

  /** Moves the account's clock `ms` ahead (from where it stands in the database, whoever moved it last). */
  async advanceClock(account: Account, ms: number) {
    this.#moved(account, (await this.#db.get<{ clockOffsetMs: number }>(ADVANCE, ms, account.id))!.clockOffsetMs);
  }

  async resetClock(account: Account) {
    await this.#db.run(RESET, account.id);
    this.#moved(account, 0);
  }

  /** Takes a move of the clock now, for the rest of its transaction, and again once it commits. */
  #moved(account: Account, clockOffsetMs: number) {
    const take = () => {
      this.#moves++;
      (this.#byId.get(account.id)?.deref() ?? account).clockOffsetMs = clockOffsetMs;
    };
    take();
    this.#db.afterCommit(take);
  }
}
