// Type-level tests (checked by `npm run typecheck`): a handler switches over the seven events
// and reaches transaction_id on transaction events without a cast.
import { describe, expect, expectTypeOf, it } from "vitest";
import {
  EVENT_TYPES,
  type PayinEvent,
  type PayinEventOf,
  type PayinEventType,
  type TransactionFailedEvent,
} from "../../src/webhooks/index.ts";

function route(event: PayinEvent): string {
  switch (event.type) {
    case "session-created":
    case "session-completed":
    case "session-expired":
      expectTypeOf(event.data.session_id).toEqualTypeOf<string>();
      // @ts-expect-error: session events carry no transaction_id
      event.data.transaction_id;
      return `session ${event.data.session_id}`;
    case "transaction-created":
    case "transaction-completed":
    case "transaction-settled":
      return `fetch ${event.data.transaction_id}`;
    case "transaction-failed":
      expectTypeOf(event).toEqualTypeOf<TransactionFailedEvent>();
      return `fetch ${event.data.transaction_id} (${event.data.failure_reason})`;
    default: {
      const unreachable: never = event;
      return unreachable;
    }
  }
}

describe("PayinEvent", () => {
  it("has exactly the seven event types, named as the source names them", () => {
    expectTypeOf<PayinEventType>().toEqualTypeOf<
      | "session-created"
      | "transaction-created"
      | "transaction-completed"
      | "transaction-settled"
      | "session-expired"
      | "transaction-failed"
      | "session-completed"
    >();
    expectTypeOf<(typeof EVENT_TYPES)[number]>().toEqualTypeOf<PayinEventType>();
    expect(EVENT_TYPES).toEqual([
      "session-created",
      "transaction-created",
      "transaction-completed",
      "transaction-settled",
      "session-expired",
      "transaction-failed",
      "session-completed",
    ]);
  });

  it("narrows by type", () => {
    expectTypeOf<PayinEventOf<"transaction-settled">["data"]["transaction_id"]>().toEqualTypeOf<string>();
    const event = {
      id: "msg_1",
      type: "transaction-failed",
      timestamp: "2026-11-21T10:22:31Z",
      data: {
        transaction_id: "txn_1",
        session_id: "ps_1",
        counterparty_id: "cp_1",
        status: "failed",
        amount: 1,
        currency: "EUR",
        failure_reason: "card_declined",
      },
    } satisfies PayinEvent;
    expect(route(event)).toBe("fetch txn_1 (card_declined)");
  });
});
