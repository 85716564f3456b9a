// A hosted sandbox sees a new token with every CI run that uses it: its memory must not grow with
// them. The facts of the tokens seen lately are kept (here, 100), and an account's object stays in
// memory while something holds it (a delivery under way), so that a clock moved through another
// look-up moves it too; one that nothing holds, or keeps, is collected, and its next look-up reads
// it from the database again.
import { setFlagsFromString } from "node:v8";
import { runInNewContext } from "node:vm";
import { afterEach, describe, expect, it } from "vitest";
import type { Account } from "../../src/sandbox/store/accounts.ts";
import { Store } from "../../src/sandbox/store/index.ts";

setFlagsFromString("--expose-gc");
const gc = runInNewContext("gc") as () => void;

/** Collects garbage until `check` holds, or gives up: an object's entry goes in a task after its collection, not during it. */
async function collectUntil(check: () => boolean) {
  for (let round = 0; round < 100 && !check(); round++) {
    await new Promise((resolve) => setTimeout(resolve, 10));
    gc();
  }
}

const TOKENS = 2000;
/** The tokens' facts a process keeps, set low here so that a few thousand tokens push most out. */
const KEPT = 100;

let store: Store;
afterEach(() => store.close());

/** Looks up `TOKENS` tokens, one CI run's each, keeping none of their accounts. */
async function manyRuns() {
  for (let run = 0; run < TOKENS; run++) await store.accounts.forToken(`ci-run-${run}`);
}

describe("the accounts in memory", () => {
  it("are the ones held and the ones kept lately, however many tokens were seen", async () => {
    store = await Store.open({}, { keptAccounts: KEPT });
    const held = await store.accounts.forToken("held");
    await manyRuns();
    await collectUntil(() => store.accounts.inMemory <= 1 + KEPT);
    expect(store.accounts.inMemory).toBe(1 + KEPT);
    expect(await store.accounts.forToken("held")).toBe(held);
  });

  it("keep one object per account while it is held: a clock moved through another look-up moves it", async () => {
    store = await Store.open({}, { keptAccounts: KEPT });
    // As a delivery under way holds its account, across look-ups of many other tokens and collections.
    const delivering = await store.accounts.forToken("busy");
    await manyRuns();
    await collectUntil(() => store.accounts.inMemory <= 1 + KEPT);
    await store.advanceClock(await store.accounts.forToken("busy"), 60_000);
    expect(delivering.clockOffsetMs).toBe(60_000);
    expect(await store.accounts.byId(delivering.id)).toBe(delivering);
  });

  it("read an account that nothing held from the database again, its clock where it was moved", async () => {
    store = await Store.open({}, { keptAccounts: KEPT });
    let account: Account | undefined = await store.accounts.forToken("idle");
    const id = account.id;
    await store.advanceClock(account, 5000);
    account = undefined;
    // Pushed out of the kept by newer tokens, and held by no one.
    await manyRuns();
    await collectUntil(() => store.accounts.inMemory === KEPT);
    expect(store.accounts.inMemory).toBe(KEPT);
    expect(await store.accounts.byId(id)).toEqual({ id, clockOffsetMs: 5000 });
    expect((await store.accounts.forToken("idle")).clockOffsetMs).toBe(5000);
  });
});
