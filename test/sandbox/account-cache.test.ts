// The cache of what requests need of accounts, alone: no database. The facts of the tokens used
// lately stay, the oldest used going first past the limit; a change heard forgets an account's
// facts and moves its held object's clock; a reading begun before a move does not set it back.
import { describe, expect, it } from "vitest";
import { AccountCache, type Facts } from "../../src/sandbox/store/account-cache.ts";

const facts = (id: number, clockOffsetMs = 0): Facts => ({
  account: { id, clockOffsetMs },
  issued: false,
  requestFaults: false,
  lastRequestMs: 0,
  createdAtMs: 0,
});

describe("the facts kept", () => {
  it("past the limit, lose the least recently used first", () => {
    const cache = new AccountCache(2);
    cache.keep("a", facts(1));
    cache.keep("b", facts(2));
    // "a" used again: "b" is now the oldest used.
    expect(cache.find("a")?.account.id).toBe(1);
    cache.keep("c", facts(3));
    expect(cache.keeps("b")).toBe(false);
    expect(cache.find("a")?.account.id).toBe(1);
    expect(cache.find("c")?.account.id).toBe(3);
  });

  it("are forgotten by the account's id, and found by it until then", () => {
    const cache = new AccountCache();
    cache.keep("a", facts(1));
    cache.keep("b", facts(2));
    expect(cache.factsOf(1)?.account.id).toBe(1);
    cache.forget(1);
    expect(cache.keeps("a")).toBe(false);
    expect(cache.factsOf(1)).toBeUndefined();
    expect(cache.find("b")?.account.id).toBe(2);
  });

  it("are all forgotten by clear, and by a change heard of their account", () => {
    const cache = new AccountCache();
    cache.keep("a", facts(1));
    cache.keep("b", facts(2));
    cache.heard({ id: 2 });
    expect(cache.keeps("b")).toBe(false);
    expect(cache.keeps("a")).toBe(true);
    cache.clear();
    expect(cache.keeps("a")).toBe(false);
  });
});

describe("the accounts' objects", () => {
  it("are shared while held: a reading of the clock begun before a move does not set it back", () => {
    const cache = new AccountCache();
    const held = cache.object({ id: 7, clockOffsetMs: 0 }, cache.readingFrom);
    expect(cache.object({ id: 7, clockOffsetMs: 0 }, cache.readingFrom)).toBe(held);
    expect(cache.held(7)).toBe(held);
    const before = cache.readingFrom;
    cache.moved(held, 5000);
    expect(held.clockOffsetMs).toBe(5000);
    // What a reading begun before the move found: the offset before it, not taken.
    expect(cache.object({ id: 7, clockOffsetMs: 0 }, before).clockOffsetMs).toBe(5000);
    // Nor after the move committed, if it began before the commit.
    const beforeCommit = cache.readingFrom;
    cache.moveCommitted();
    expect(cache.object({ id: 7, clockOffsetMs: 0 }, beforeCommit).clockOffsetMs).toBe(5000);
    // A reading begun since is taken.
    expect(cache.object({ id: 7, clockOffsetMs: 9000 }, cache.readingFrom).clockOffsetMs).toBe(9000);
  });

  it("take a move heard of their account, with its clock's offset", () => {
    const cache = new AccountCache();
    const held = cache.object({ id: 7, clockOffsetMs: 0 }, cache.readingFrom);
    const other = cache.object({ id: 8, clockOffsetMs: 0 }, cache.readingFrom);
    cache.heard({ id: 7, clockOffsetMs: 60_000 });
    expect(held.clockOffsetMs).toBe(60_000);
    expect(other.clockOffsetMs).toBe(0);
    // A change without an offset (a fault armed) leaves the clock where it is.
    cache.heard({ id: 7 });
    expect(held.clockOffsetMs).toBe(60_000);
    expect(cache.inMemory).toBe(2);
  });

  it("forget a rolled-back move's facts, and count it: a reading begun before the rollback is not taken", () => {
    const cache = new AccountCache();
    const held = cache.object({ id: 7, clockOffsetMs: 0 }, cache.readingFrom);
    cache.keep("a", { ...facts(7), account: held });
    cache.moved(held, 5000);
    const beforeRollback = cache.readingFrom;
    cache.moveRolledBack(7);
    expect(cache.keeps("a")).toBe(false);
    expect(cache.object({ id: 7, clockOffsetMs: 1 }, beforeRollback).clockOffsetMs).toBe(5000);
    expect(cache.object({ id: 7, clockOffsetMs: 0 }, cache.readingFrom).clockOffsetMs).toBe(0);
  });
});
