// Accounts are bearer tokens: each distinct token is its own account, made on first use (an open
// sandbox), or issued to a tenant beforehand (payin-sandbox accounts create), kept by the hash of
// its token only (token-hash.ts).
//
// What a request needs of its account (its id, its clock's offset, whether it was issued, whether
// it has a request fault armed) is kept in this process once read, for the tokens seen lately
// (account-cache.ts, with the objects of the accounts held here): most requests then read nothing
// of it. A change of these facts (a clock moved, a fault armed or used up, the account reset or
// deleted) is told on the database's channel when it commits, and every process, this one
// included, forgets or takes it. What is kept is used only once the channel has caught up with
// every change committed before the request (on PostgreSQL one empty query, shared by the requests
// waiting): a change answered through another process a moment ago is never missed. While the
// channel is lost, nothing is kept, and all is read again once it is back.
//
// With `--accounts issued`, the process also keeps the hash of every issued account's token, read
// once when first needed and then only what was issued since, at most once a second, and told of
// each account issued through another process on the same channel: whether a token is valid is
// then known without a query, so that a token guessed from an address past its refusals costs the
// database nothing (../api/access.ts).
import { randomBytes } from "node:crypto";
import type { Clock } from "../../lib/clock.ts";
import { AccountCache, KEPT, type Change } from "./account-cache.ts";
import type { Database, Subscription } from "./database.ts";
import { tokenHash } from "./token-hash.ts";

export interface Account {
  id: number;
  /** The account's clock runs this far ahead of real time. */
  clockOffsetMs: number;
}

type Row = Account & { requestFaults: number; lastRequestMs: number; createdAtMs: number; issued: number };

// With it, whether the account has a request fault armed: most have none, and their requests need not ask.
const FACTS = `SELECT id, clock_offset_ms AS "clockOffsetMs", last_request_ms AS "lastRequestMs", created_at_ms AS "createdAtMs", issued,
  CASE WHEN EXISTS (SELECT 1 FROM faults WHERE faults.account_id = accounts.id AND target = 'request') THEN 1 ELSE 0 END AS "requestFaults"
  FROM accounts`;
const BY_TOKEN = `${FACTS} WHERE token_hash = ?`;
// A new token: made once, whichever request or process comes first (then read as above).
const INSERT = "INSERT INTO accounts (token_hash, created_at_ms, last_request_ms) VALUES (?, ?, ?) ON CONFLICT (token_hash) DO NOTHING";
const ISSUE = "INSERT INTO accounts (token_hash, name, issued, created_at_ms, last_request_ms) VALUES (?, ?, 1, ?, ?) RETURNING id";
const ISSUED =
  'SELECT id, name, created_at_ms AS "createdAtMs", last_request_ms AS "lastRequestMs" FROM accounts WHERE issued = 1 ORDER BY id';
const TOUCH = "UPDATE accounts SET last_request_ms = ? WHERE id = ? AND (last_request_ms < ? OR last_request_ms = created_at_ms)";
const GET = 'SELECT id, clock_offset_ms AS "clockOffsetMs" FROM accounts WHERE id = ?';
const ADVANCE = 'UPDATE accounts SET clock_offset_ms = clock_offset_ms + ? WHERE id = ? RETURNING clock_offset_ms AS "clockOffsetMs"';
const RESET = "UPDATE accounts SET clock_offset_ms = 0 WHERE id = ?";
// The issued accounts' token hashes from an id on: every one the first time, then those issued since.
const ISSUED_HASHES = 'SELECT id, token_hash AS "hash" FROM accounts WHERE issued = 1 AND id > ? ORDER BY id';

/** The channel a change of an account's facts is told on: `{ id }`, with its clock's offset when that is what changed. */
const CHANNEL = "payin_accounts";
/** The issued tokens are read again at most this often, however many unknown tokens ask. */
const ISSUED_READ_EVERY_MS = 1000;

/** What an issued token starts with, so that a secret scanner finds one leaked: then 32 random bytes, in base64url. */
export const ISSUED_TOKEN_PREFIX = "payin_sbx_";

/** An issued account as its operator sees it: never its token. */
export interface IssuedAccount {
  id: number;
  name: string | null;
  createdAtMs: number;
  lastRequestMs: number;
}

export class Accounts {
  /** The facts of the tokens seen lately, the accounts' objects held here, and the moves of their clocks taken here. */
  readonly #cache: AccountCache;
  readonly #db: Database;
  readonly #clock: Clock;
  /** Whether changes are heard: facts are kept only while they are. */
  #hearing = false;
  #changes: Subscription | undefined;
  /** The issued accounts' ids by token hash, as last read (undefined until asked for), and the highest id read. */
  #issued: Map<string, number> | undefined;
  #issuedUpTo = 0;
  #issuedReadAt = -Infinity;
  #issuedReading: Promise<void> | undefined;
  /** How many times the channel was lost: a read during which it was is not taken as complete. */
  #issuedLost = 0;

  /** How stale an account's last request may be kept. */
  readonly touchEveryMs: number;

  /** `kept`: how many tokens' facts are kept. */
  constructor(db: Database, clock: Clock, touchEveryMs = 60_000, kept = KEPT) {
    this.#db = db;
    this.#clock = clock;
    this.touchEveryMs = touchEveryMs;
    this.#cache = new AccountCache(kept);
  }

  /** Hears the changes of accounts' facts, from every process: facts are kept from now on. */
  async hearChanges() {
    this.#changes = await this.#db.subscribe(
      CHANNEL,
      (message) => this.#heard(JSON.parse(message) as Change & { issued?: string }),
      () => {
        // What changed while the channel was lost is not heard: nothing kept can be trusted until it is back.
        this.#hearing = false;
        this.#cache.clear();
        // Accounts issued meanwhile were not heard of either: the next read of the issued tokens reads them all.
        this.#issuedUpTo = 0;
        this.#issuedLost++;
      },
    );
    this.#hearing = true;
  }

  async stopHearing() {
    this.#hearing = false;
    await this.#changes?.close();
  }

  /**
   * The account of a bearer token, made if new (unless `issuedOnly`: then only an account issued
   * beforehand, else undefined), and whether it has a request fault armed. `fresh`: read from the
   * database, what was kept being found wrong (the account gone under a request).
   */
  async lookUp(
    token: string,
    { issuedOnly = false, fresh = false } = {},
  ): Promise<{ account: Account; requestFaults: boolean } | undefined> {
    const hash = tokenHash(token);
    if (fresh) this.#cache.forget(this.#cache.find(hash)?.account.id ?? -1);
    // Used again, if found: the newest, last to go.
    let facts = this.#cache.keeps(hash) && (await this.#caughtUp()) ? this.#cache.find(hash) : undefined;
    if (!facts) {
      const moves = this.#cache.readingFrom;
      const hearing = this.#hearing;
      let row = await this.#db.get<Row>(BY_TOKEN, hash);
      if (!row && !issuedOnly) {
        const now = this.#clock.now();
        await this.#db.run(INSERT, hash, now, now);
        row = await this.#db.get<Row>(BY_TOKEN, hash);
      }
      // A token known for an issued one that is gone (revoked) is known no more; one found is known from now on.
      if (row?.issued === 1) this.#issued?.set(hash, Number(row.id));
      else this.#issued?.delete(hash);
      if (!row) return undefined;
      facts = {
        account: this.#cache.object(row, moves),
        issued: row.issued === 1,
        requestFaults: row.requestFaults === 1,
        lastRequestMs: row.lastRequestMs,
        createdAtMs: row.createdAtMs,
      };
      // Kept only if no change was missed while it was read.
      if (hearing && this.#hearing && moves === this.#cache.readingFrom) this.#cache.keep(hash, facts);
    }
    if (issuedOnly && !facts.issued) return undefined;
    return { account: facts.account, requestFaults: facts.requestFaults };
  }

  /** Whether the token is an issued account's, as this process last read or heard of them: no query. */
  knownIssued(token: string): boolean {
    return this.#issued?.has(tokenHash(token)) ?? false;
  }

  /**
   * Reads the issued accounts' tokens again: all of them the first time (and after the channel was lost), then those
   * issued since, at most once a second (an account issued through a process that cannot tell this one: SQLite's
   * `payin-sandbox accounts create` beside its server). Callers meanwhile share the read under way, or the last.
   */
  readIssued(): Promise<void> {
    if (this.#issuedReading) return this.#issuedReading;
    const now = this.#clock.now();
    if (now - this.#issuedReadAt < ISSUED_READ_EVERY_MS) return Promise.resolve();
    this.#issuedReadAt = now;
    const from = this.#issuedUpTo;
    const lost = this.#issuedLost;
    this.#issuedReading = (async () => {
      const rows = await this.#db.all<{ id: number; hash: string }>(ISSUED_HASHES, from);
      // A read of them all replaces what was kept, so that the revoked ones go.
      const issued = from === 0 || !this.#issued ? new Map<string, number>() : this.#issued;
      let upTo = from;
      for (const { id, hash } of rows) {
        issued.set(hash, Number(id));
        upTo = Math.max(upTo, Number(id));
      }
      this.#issued = issued;
      // Unless the channel was lost meanwhile: the next read then reads them all again.
      if (this.#issuedLost === lost) this.#issuedUpTo = upTo;
    })().finally(() => (this.#issuedReading = undefined));
    return this.#issuedReading;
  }

  /** The account of a bearer token, made if new. */
  async forToken(token: string): Promise<Account> {
    return (await this.lookUp(token))!.account;
  }

  /**
   * Notes a request of the account as its last, when the one the database has is older than the
   * touch interval, or none is noted yet: most requests write nothing. Inside the request's transaction.
   */
  async touch(account: Account) {
    const now = this.#clock.now();
    const facts = this.#cache.factsOf(account.id);
    if (facts && now - facts.lastRequestMs < this.touchEveryMs && facts.lastRequestMs !== facts.createdAtMs) return;
    await this.#db.write(TOUCH, now, account.id, now - this.touchEveryMs);
    if (facts) facts.lastRequestMs = now;
  }

  /** Issues an account to a tenant: its token, given once here and kept only as its hash, and its id. */
  async issue(name: string | null): Promise<{ id: number; token: string }> {
    const token = `${ISSUED_TOKEN_PREFIX}${randomBytes(32).toString("base64url")}`;
    const now = this.#clock.now();
    const hash = tokenHash(token);
    const id = await this.#db.transaction(async () => {
      const { id } = (await this.#db.get<{ id: number }>(ISSUE, hash, name, now, now))!;
      // Every process knows it as it commits (its hash only, as the table keeps it), before its tenant can use it.
      await this.#db.notify(CHANNEL, JSON.stringify({ id: Number(id), issued: hash }));
      return id;
    });
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

  /** The account with this id (the payment page knows a session's account, not its token): its object held here, or read. */
  async byId(id: number): Promise<Account> {
    const held = this.#cache.hasObject(id) && (await this.#caughtUp()) ? this.#cache.held(id) : undefined;
    if (held) return held;
    const moves = this.#cache.readingFrom;
    return this.#cache.object((await this.#db.get<Account>(GET, id))!, moves);
  }

  /** Where a reading of accounts' clocks begins: given to `of` with what the reading found. */
  get readingFrom(): number {
    return this.#cache.readingFrom;
  }

  /** The account's object, its clock as a reading begun at `readingFrom` found it, unless this process took a move of it since. */
  of(row: Account, readingFrom: number): Account {
    return this.#cache.object(row, readingFrom);
  }

  /** How many accounts have an object in memory: those held here, and those no one holds that are not yet collected. */
  get inMemory(): number {
    return this.#cache.inMemory;
  }

  /** Moves the account's clock `ms` ahead (from where it stands in the database, whoever moved it last). */
  async advanceClock(account: Account, ms: number) {
    await this.#moved(account, (await this.#db.get<{ clockOffsetMs: number }>(ADVANCE, ms, account.id))!.clockOffsetMs);
  }

  async resetClock(account: Account) {
    await this.#db.run(RESET, account.id);
    await this.#moved(account, 0);
  }

  /**
   * Inside the transaction that changed what a request needs of the account (its faults, its
   * records, the account itself): every process forgets what it kept, once that commits.
   */
  async changed(id: number) {
    await this.#db.notify(CHANNEL, JSON.stringify({ id }));
  }

  /**
   * Whether what is kept here may be used: the changes committed before now, through any process, are heard (a request
   * that another process answered a moment ago changed them); false while they cannot be.
   */
  async #caughtUp() {
    return this.#hearing && (await this.#changes!.caughtUp()) && this.#hearing;
  }

  #heard({ issued, ...change }: Change & { issued?: string }) {
    if (issued !== undefined) this.#issued?.set(issued, change.id);
    this.#cache.heard(change);
  }

  /**
   * Takes a move of the clock now, for the rest of its transaction, and tells every process once it
   * commits; if it rolls back, the clock is read again from the database.
   */
  async #moved(account: Account, clockOffsetMs: number) {
    this.#cache.moved(account, clockOffsetMs);
    // Counted again once it commits: a reading begun between the move and its commit (a delivery's claim on another
    // connection) still read the offset before it, and must not set the clock back.
    this.#db.afterCommit(() => this.#cache.moveCommitted());
    this.#db.afterRollback(() => {
      this.#cache.moveRolledBack(account.id);
      const moves = this.#cache.readingFrom;
      void this.#db
        .get<Account>(GET, account.id)
        .then((row) => row && this.#cache.object(row, moves))
        .catch(() => {});
    });
    await this.#db.notify(CHANNEL, JSON.stringify({ id: account.id, clockOffsetMs }));
  }
}
