// The sandbox's identifiers: unique however many are made at once, and in the order they were made.
import { describe, expect, it } from "vitest";
import { newId } from "../../src/lib/ids.ts";

describe("sandbox ids", () => {
  it("stay unique and well formed across many refills of the random pool", () => {
    const ids = Array.from({ length: 2000 }, () => newId("ps"));
    expect(new Set(ids).size).toBe(ids.length);
    for (const id of ids) expect(id).toMatch(/^ps_[0-9a-z]{9}[A-Za-z0-9_-]{16}$/);
  });

  it("sort as text in the order they were made, millisecond by millisecond", async () => {
    const before = newId("txn");
    await new Promise((r) => setTimeout(r, 5));
    const after = newId("txn");
    expect(before.slice(0, 13) < after.slice(0, 13)).toBe(true);
  });
});
