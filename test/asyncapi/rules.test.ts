// What each event announces and carries, read by the build from its schema (EVENT_RULES): the one
// list the sandbox's flow, the testing toolkit's fixtures and the conformance kit build events by.
import { readFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { EVENT_RULES, EVENT_TYPES, EVENT_VALIDATORS } from "../../generated/event-types.ts";
import { eventEntries } from "../../scripts/lib/events.ts";
import { generatedDir } from "../../scripts/lib/paths.ts";
import { eventPayload } from "../../src/lib/event-payload.ts";

const asyncapiBundle = JSON.parse(readFileSync(path.join(generatedDir, "asyncapi.json"), "utf8"));

const facts = {
  id: "msg_1",
  timestamp: "2026-01-01T00:00:00Z",
  sessionId: "ps_1",
  counterpartyId: "cp_1",
  request: { order_id: "ORD-1", amount: 10, currency: "EUR" },
  transactionId: "txn_1",
  failureReason: "card_declined",
};

describe("the events' rules, from their schemas", () => {
  it("say what each event is about and the status it announces", () => {
    expect(Object.fromEntries(EVENT_TYPES.map((type) => [type, `${EVENT_RULES[type].about} ${EVENT_RULES[type].status}`]))).toEqual({
      "session-created": "session created",
      "transaction-created": "transaction created",
      "transaction-completed": "transaction completed",
      "transaction-settled": "transaction settled",
      "session-expired": "session expired",
      "transaction-failed": "transaction failed",
      "session-completed": "session completed",
    });
  });

  it("give a payload of every fact its schema has, and only those: a valid event of each type", () => {
    for (const type of EVENT_TYPES) {
      const event = JSON.parse(eventPayload({ ...facts, type }));
      expect(EVENT_VALIDATORS[type](event), type).toBe(true);
      expect("transaction_id" in event.data, type).toBe(EVENT_RULES[type].about === "transaction");
      expect("failure_reason" in event.data, type).toBe(type === "transaction-failed");
      expect(event.data.status, type).toBe(EVENT_RULES[type].status);
    }
  });

  it("are refused by the build for an event whose data gives no status to announce", () => {
    const operations = asyncapiBundle.operations;
    const [name, operation] = Object.entries<any>(operations).find(([, op]) => op.action === "send")!;
    const message = { name: "odd-event", payload: { title: "OddEvent", properties: { data: { properties: { session_id: {} } } } } };
    const document = { ...asyncapiBundle, operations: { [name]: { ...operation, messages: [message] } } };
    expect(() => eventEntries(document)).toThrow("AsyncAPI: odd-event's data must give its status as a const: the state it announces");
  });
});
