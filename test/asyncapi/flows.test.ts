// The flows of the AsyncAPI document's `x-flows`, as the build generates them (generated/event-flows.ts),
// and the ranks it derives from them: the one place the trigger, the conformance kit and the
// sandbox's tests take a flow's events and their order from.
import { readFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, expectTypeOf, it } from "vitest";
import { EVENT_FLOWS, EVENT_RANKS, type EventFlowName } from "../../generated/event-flows.ts";
import { EVENT_TYPES, type PayinEventType } from "../../generated/event-types.ts";
import { eventFlows, eventRanks, type EventEntry } from "../../scripts/lib/events.ts";
import { generatedDir, root } from "../../scripts/lib/paths.ts";

const asyncapiBundle = JSON.parse(readFileSync(path.join(generatedDir, "asyncapi.json"), "utf8"));

const entries = (...types: string[]): Array<Pick<EventEntry, "type">> => types.map((type) => ({ type }));
const flowsDocument = (flows: Record<string, string[]>) => ({
  "x-flows": Object.fromEntries(Object.entries(flows).map(([name, events]) => [name, { events }])),
});

describe("the flows, from the AsyncAPI document", () => {
  it("are the three the trigger and the kit name, each an ordered list of the document's events", () => {
    expectTypeOf<EventFlowName>().toEqualTypeOf<"success" | "failure" | "expiry">();
    expectTypeOf<(typeof EVENT_FLOWS)[EventFlowName][number]>().toEqualTypeOf<PayinEventType>();
    expect(EVENT_FLOWS).toEqual(
      Object.fromEntries(Object.entries<{ events: string[] }>(asyncapiBundle["x-flows"]).map(([name, flow]) => [name, flow.events])),
    );
  });

  it("send every event type between them", () => {
    expect(new Set(Object.values(EVENT_FLOWS).flat())).toEqual(new Set(EVENT_TYPES));
  });

  it("give every event type a rank, which rises along each flow", () => {
    expectTypeOf(EVENT_RANKS).toEqualTypeOf<{ readonly [T in PayinEventType]: number }>();
    expect(Object.keys(EVENT_RANKS).sort()).toEqual([...EVENT_TYPES].sort());
    for (const flow of Object.values(EVENT_FLOWS))
      for (const [i, type] of flow.entries()) if (i > 0) expect(EVENT_RANKS[type], type).toBeGreaterThan(EVENT_RANKS[flow[i - 1]!]);
  });

  it("are the typical order the document's delivery rules and decision D13 state in words", () => {
    const paid = EVENT_FLOWS.success.join(" → ");
    expect(asyncapiBundle.info.description.replace(/\s+/g, " ")).toContain(`The typical order of a paid session is ${paid}`);
    const register = readFileSync(path.join(root, "openapi", "DECISIONS.md"), "utf8");
    expect(register).toContain(`Typical order: ${paid};`);
  });
});

describe("the build's reading of the flows", () => {
  it("ranks an event by the longest chain of events before it in any flow, not by its place in one", () => {
    const ranks = eventRanks(entries("a", "b", "c", "d", "e"), { one: ["a", "b", "c", "d"], two: ["a", "d", "e"] });
    expect(Object.fromEntries(ranks)).toEqual({ a: 0, b: 1, c: 2, d: 3, e: 4 });
  });

  it("refuses flows that order two events both ways", () => {
    expect(() => eventRanks(entries("a", "b"), { one: ["a", "b"], two: ["b", "a"] })).toThrow("order some events both ways");
  });

  it("refuses a flow that names an event the document does not send, and an event in no flow", () => {
    expect(() => eventFlows(flowsDocument({ one: ["a", "z"] }), entries("a"))).toThrow("x-flows.one: z is no event of the document");
    expect(() => eventFlows(flowsDocument({ one: ["a"] }), entries("a", "b"))).toThrow("x-flows: b is in no flow, so it has no rank");
  });
});
