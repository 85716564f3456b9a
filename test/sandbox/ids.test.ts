// The sandbox's identifiers: unique however many are made at once, and in the order they were made;
// and text that none of them can be, told without a database.
import { describe, expect, it } from "vitest";
import { couldBeId, newId } from "../../src/lib/ids.ts";

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

  it("are told from text none can be: a NUL, a character outside base64url, another kind's prefix, over 64 characters", () => {
    for (const prefix of ["cp", "ps", "txn", "msg", "flt", "dlv"] as const) expect(couldBeId(prefix, newId(prefix))).toBe(true);
    // As the sandbox made them before its ids began with the time, and as tests write them.
    for (const id of ["ps_3Nf8Kd1WzQ6vAbCdEfGh", "ps_0", "ps_a-b_c", `ps_${"x".repeat(61)}`])
      expect([id, couldBeId("ps", id)]).toEqual([id, true]);
    for (const text of [
      "ps_\0x",
      "ps_",
      "ps",
      "",
      "\0",
      "ps_\uFFFDx",
      "ps_%FF",
      "ps_é",
      "ps_a b",
      "PS_abc",
      "txn_abc",
      "cp_abc",
      `ps_${"x".repeat(62)}`,
    ])
      expect([text, couldBeId("ps", text)]).toEqual([text, false]);
  });
});
