// What requests need of accounts, kept in this process's memory and in step with every process
// (accounts.ts reads it from the database and hears the changes on its channel): no SQL here.
//
// The facts of the tokens seen lately (an account's id, its clock's offset, whether it was issued,
// whether it has a request fault armed) are kept by the hash of their token, the newest used last:
// past the limit, the oldest used go first, so that a flood of one-off tokens pushes out the oldest.
// A change heard of an account forgets its facts; all are forgotten when the channel is lost.
//
// While anyone here holds an account's object, a look-up finds that object, so that a clock moved
// is moved for every holder of the account here (a delivery under way). The objects are held
// weakly: an account no one holds any more leaves memory, and its next look-up makes a new object
// from the database. A reading of the clock under way while this process took a move of it is not
// taken: it may have begun before the move committed, and would set the clock back.
import type { Account } from "./accounts.ts";

/** What a request needs of its account. */
export interface Facts {
  account: Account;
  issued: boolean;
  requestFaults: boolean;
  /** The last request the database has of it, as this process knows it: its creation, until one is noted. */
  lastRequestMs: number;
  createdAtMs: number;
}

/** A change of an account's facts, as told on the channel: with its clock's offset when that is what changed. */
export interface Change {
  id: number;
  clockOffsetMs?: number;
}

/** Tokens whose facts are kept by default: the newest used; a flood of one-off tokens pushes out the oldest. */
export const KEPT = 10_000;

export class AccountCache {
  readonly #byId = new Map<number, WeakRef<Account>>();
  // Once an object is collected its entry goes too, unless a newer object of the account stands there.
  readonly #collected = new FinalizationRegistry<number>((id) => {
    if (this.#byId.get(id)?.deref() === undefined) this.#byId.delete(id);
  });
  /** The facts of the tokens seen lately, by token hash, oldest used first; and each one's hash by account. */
  readonly #kept = new Map<string, Facts>();
  readonly #hashOf = new Map<number, string>();
  readonly #keptAtMost: number;
  /** Moves of a clock taken by this process, counted as each is taken: a reading begun before one is not taken. */
  #moves = 0;

  /** `keptAtMost`: how many tokens' facts are kept. */
  constructor(keptAtMost = KEPT) {
    this.#keptAtMost = keptAtMost;
  }

  /** Whether the token's facts are kept (they may be forgotten before they are found). */
  keeps(hash: string): boolean {
    return this.#kept.has(hash);
  }

  /** The token's facts, if kept: used again, the newest, last to go. */
  find(hash: string): Facts | undefined {
    const facts = this.#kept.get(hash);
    if (facts) {
      this.#kept.delete(hash);
      this.#kept.set(hash, facts);
    }
    return facts;
  }

  /** The facts kept of the account, if any, by its id: not counted as a use. */
  factsOf(id: number): Facts | undefined {
    const hash = this.#hashOf.get(id);
    return hash === undefined ? undefined : this.#kept.get(hash);
  }

  /** Keeps the token's facts, the newest used: past the limit, the oldest used go. */
  keep(hash: string, facts: Facts) {
    this.#kept.set(hash, facts);
    this.#hashOf.set(facts.account.id, hash);
    if (this.#kept.size > this.#keptAtMost) this.forget(this.#kept.values().next().value!.account.id);
  }

  /** Forgets the account's facts, if kept. */
  forget(id: number) {
    const hash = this.#hashOf.get(id);
    if (hash === undefined) return;
    this.#hashOf.delete(id);
    this.#kept.delete(hash);
  }

  /** Forgets every token's facts (the objects held stay: a move heard later still moves them). */
  clear() {
    this.#kept.clear();
    this.#hashOf.clear();
  }

  /** The account's object, made from `row` if none is held; `row`'s clock is taken unless this process took a move since `readingFrom`. */
  object(row: Account, readingFrom: number): Account {
    let account = this.#byId.get(row.id)?.deref();
    if (account) {
      if (readingFrom === this.#moves) account.clockOffsetMs = row.clockOffsetMs;
    } else {
      account = { id: row.id, clockOffsetMs: row.clockOffsetMs };
      this.#byId.set(row.id, new WeakRef(account));
      this.#collected.register(account, row.id);
    }
    return account;
  }

  /** Whether an object of the account was made here and is not let go yet: it may be collected already. */
  hasObject(id: number): boolean {
    return this.#byId.has(id);
  }

  /** The account's object, while anyone here holds it. */
  held(id: number): Account | undefined {
    return this.#byId.get(id)?.deref();
  }

  /** Where a reading of accounts' clocks begins: given to `object` with what the reading found. */
  get readingFrom(): number {
    return this.#moves;
  }

  /** How many accounts have an object in memory: those held here, and those no one holds that are not yet collected. */
  get inMemory(): number {
    return this.#byId.size;
  }

  /** A change heard on the channel, from any process: its facts are forgotten, and a held object takes its clock's move. */
  heard({ id, clockOffsetMs }: Change) {
    this.#moves++;
    this.forget(id);
    const held = this.#byId.get(id)?.deref();
    if (held && clockOffsetMs !== undefined) held.clockOffsetMs = clockOffsetMs;
  }

  /** Takes a move of the account's clock now, in its held object (else in `account`), for the rest of its transaction. */
  moved(account: Account, clockOffsetMs: number) {
    this.#moves++;
    (this.#byId.get(account.id)?.deref() ?? account).clockOffsetMs = clockOffsetMs;
  }

  /** The transaction of a move committed: counted again, so that a reading begun before the commit is not taken either. */
  moveCommitted() {
    this.#moves++;
  }

  /** The transaction of a move rolled back: counted again, and the account's facts forgotten, to be read again. */
  moveRolledBack(id: number) {
    this.#moves++;
    this.forget(id);
  }
}
