// The request journal's bounds, which the HTTP tests do not reach: a ring of 100 per account,
// and the 1,000 accounts that made a request last.
import { describe, expect, it } from "vitest";
import { Journal, type JournalEntry } from "../../src/sandbox/store/journal.ts";

const entry = (path: string, extra: Partial<JournalEntry> = {}): JournalEntry => ({
  method: "GET",
  path,
  operationId: "getWebhook",
  status: 200,
  answered: true,
  idempotencyKey: undefined,
  fault: undefined,
  receivedAtMs: 0,
  durationMs: 1,
  ...extra,
});

describe("the request journal", () => {
  it("lists an entry with neither key nor fault without those fields, and one with both with them", () => {
    const journal = new Journal();
    journal.record(1, entry("/a"));
    journal.record(1, entry("/b", { idempotencyKey: "k", fault: { id: "flt_1", effect: "drop" }, answered: false }));
    expect(journal.list(1)).toStrictEqual([
      {
        method: "GET",
        path: "/b",
        operation_id: "getWebhook",
        status: 200,
        answered: false,
        idempotency_key: "k",
        fault: { id: "flt_1", effect: "drop" },
        received_at: "1970-01-01T00:00:00.000Z",
        duration_ms: 1,
      },
      {
        method: "GET",
        path: "/a",
        operation_id: "getWebhook",
        status: 200,
        answered: true,
        received_at: "1970-01-01T00:00:00.000Z",
        duration_ms: 1,
      },
    ]);
  });

  it("forgets the account that made a request longest ago once 1,000 others made one since", () => {
    const journal = new Journal();
    for (let account = 1; account <= 1000; account++) journal.record(account, entry(`/${account}`));
    // Account 1 makes another request: now account 2 is the one longest ago.
    journal.record(1, entry("/1 again"));
    journal.record(1001, entry("/1001"));
    expect(journal.list(2)).toEqual([]);
    expect(journal.list(1).map((e) => e.path)).toEqual(["/1 again", "/1"]);
    expect(journal.list(3).map((e) => e.path)).toEqual(["/3"]);
    expect(journal.list(1001).map((e) => e.path)).toEqual(["/1001"]);
  });

  it("starts an account again after it was cleared, though it made the last request", () => {
    const journal = new Journal();
    journal.record(7, entry("/old"));
    journal.clear(7);
    journal.record(7, entry("/new"));
    expect(journal.list(7).map((e) => e.path)).toEqual(["/new"]);
  });
});
