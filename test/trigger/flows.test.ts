// The flows the trigger sends, in this process: names, identifiers and timestamps.
import { describe, expect, it } from "vitest";
import { EVENT_TYPES, type PayinEvent } from "../../generated/event-types.ts";
import { EVENT_FLOWS } from "../../generated/event-flows.ts";
import { buildFlow, eventTypesOf, examplesFrom } from "../../src/trigger/flows.ts";
import { openapi } from "../support/documents.ts";
import { exampleEvents } from "../support/events.ts";

const examples = examplesFrom(openapi);

describe("trigger flows", () => {
  it("takes the first example of every event from the document's webhooks", () => {
    expect([...examples.keys()].sort()).toEqual([...EVENT_TYPES].sort());
    for (const type of EVENT_TYPES) expect(examples.get(type)).toEqual(exampleEvents.find(([t]) => t === type)![2]);
  });

  it("names a flow, a single event, or nothing", () => {
    expect(eventTypesOf("success")).toEqual(EVENT_FLOWS.success);
    expect(eventTypesOf("expiry")).toEqual(["session-created", "session-expired"]);
    expect(eventTypesOf("transaction-failed")).toEqual(["transaction-failed"]);
    for (const name of ["nonsense", "constructor", "toString", "__proto__", ""]) expect(eventTypesOf(name), name).toBeUndefined();
  });

  it("gives the events of a flow one session, counterparty, order and transaction, fresh ids, and timestamps 2 s apart ending now", () => {
    const now = new Date("2026-11-22T05:00:00Z");
    const events = buildFlow(EVENT_FLOWS.success, examples, now);
    expect(events.map((e) => e.type)).toEqual(EVENT_FLOWS.success);
    const data = events.map((e) => e.data as unknown as Record<string, string>);
    for (const key of ["session_id", "counterparty_id", "order_id"]) expect(new Set(data.map((d) => d[key])).size, key).toBe(1);
    expect(new Set(data.flatMap((d) => (d.transaction_id ? [d.transaction_id] : []))).size).toBe(1);
    expect(data[0]!.session_id).toMatch(/^ps_[0-9a-f]{20}$/);
    expect(data[0]!.counterparty_id).toMatch(/^cp_[0-9a-f]{20}$/);
    expect(data[0]!.order_id).toBe(`ORD-${now.getTime()}`);
    expect(data[1]!.transaction_id).toMatch(/^txn_[0-9a-f]{20}$/);
    expect("transaction_id" in data[0]!).toBe(false);
    for (const e of events) expect(e.id).toMatch(/^msg_[0-9a-f]{20}$/);
    expect(new Set(events.map((e) => e.id)).size).toBe(events.length);
    expect(events.map((e) => e.timestamp)).toEqual([
      "2026-11-22T04:59:52.000Z",
      "2026-11-22T04:59:54.000Z",
      "2026-11-22T04:59:56.000Z",
      "2026-11-22T04:59:58.000Z",
      "2026-11-22T05:00:00.000Z",
    ]);
    // Everything else is the example's.
    const example = examples.get("transaction-completed")!;
    expect({
      ...events[2],
      id: example.id,
      timestamp: example.timestamp,
      data: { ...events[2]!.data, ...pick(example.data, data[2]!) },
    }).toEqual(example);
    // Each flow anew.
    expect(buildFlow(EVENT_FLOWS.success, examples, now)[0]!.data).not.toEqual(events[0]!.data);
  });

  it("ends now by default", () => {
    const before = Date.now();
    const [only] = buildFlow(["session-created"], examples);
    expect(Date.parse(only!.timestamp)).toBeGreaterThanOrEqual(before - 1000);
    expect(Date.parse(only!.timestamp)).toBeLessThanOrEqual(Date.now());
  });

  it("names the event a flow has no example of", () => {
    expect(() => buildFlow(["session-created"], new Map<never, PayinEvent>())).toThrow("The contract has no example of session-created.");
  });
});

/** The identifier fields of `ids`, with the values they have in `example`. */
function pick(example: object, ids: Record<string, string>) {
  return Object.fromEntries(
    ["session_id", "counterparty_id", "order_id", "transaction_id"]
      .filter((k) => k in ids)
      .map((k) => [k, (example as Record<string, string>)[k]]),
  );
}
