// The order the contract's state machines allow a session's events to happen in, judged from
// their timestamps: the events check of `service` and the flows' receiver both hold to it.
import { EVENT_RANKS } from "../../generated/event-flows.ts";
import type { PayinEvent } from "../webhooks/index.ts";

/** Why a session's events, by their timestamps, did not happen in an order the state machines allow; undefined when they did. */
export function orderViolation(events: readonly PayinEvent[], sessionId: string): string | undefined {
  const sorted = [...events].sort((a, b) => Date.parse(a.timestamp) - Date.parse(b.timestamp) || EVENT_RANKS[a.type] - EVENT_RANKS[b.type]);
  for (const [i, event] of sorted.entries()) {
    const earlier = sorted[i - 1];
    if (
      earlier &&
      EVENT_RANKS[earlier.type] > EVENT_RANKS[event.type] &&
      // A customer may try again after a failed payment (D5): a session's next transaction starts after its last one failed.
      !(earlier.type === "transaction-failed" && event.type === "transaction-created")
    )
      return (
        `session ${sessionId}: ${event.type} happened at ${event.timestamp}, after ${earlier.type} at ${earlier.timestamp}, ` +
        "an order the contract's state machines do not allow"
      );
  }
  return undefined;
}
