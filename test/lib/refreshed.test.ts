// A reading taken at most once per interval on its owner's clock: callers within the interval
// get the last one (its failure too), and callers while one is under way share it, however long
// it takes. What keeps a flood of health checks and scrapes at one query a second.
import { describe, expect, it } from "vitest";
import { Refreshed } from "../../src/lib/refreshed.ts";
import { ManualClock } from "../support/manual-clock.ts";

describe("Refreshed", () => {
  it("reads once per interval, its callers sharing the reading under way and the last one", async () => {
    const clock = new ManualClock();
    let reads = 0;
    const refreshed = new Refreshed(clock, 1000, async () => ++reads);
    expect(await Promise.all(Array.from({ length: 100 }, () => refreshed.get()))).toEqual(Array(100).fill(1));
    await clock.advance(999);
    expect(await refreshed.get()).toBe(1);
    await clock.advance(1);
    expect([await refreshed.get(), await refreshed.get(), reads]).toEqual([2, 2, 2]);
  });

  it("keeps a failure for the interval, and shares a reading that outlasts it", async () => {
    const clock = new ManualClock();
    let reads = 0;
    let release = () => {};
    const refreshed = new Refreshed(clock, 1000, () => {
      reads++;
      if (reads === 1) return Promise.reject(new Error("away"));
      return new Promise<number>((resolve) => (release = () => resolve(reads)));
    });
    await expect(refreshed.get()).rejects.toThrow("away");
    await expect(refreshed.get()).rejects.toThrow("away");
    await clock.advance(1000);
    const slow = refreshed.get();
    await clock.advance(5000);
    const meanwhile = refreshed.get();
    release();
    expect([await slow, await meanwhile, reads]).toEqual([2, 2, 2]);
  });
});
