// The order the contract's state machines allow a session's events to happen in, judged from
// their timestamps: the events check of `service` and the flows' receiver both hold to it.
import type { PayinEvent } from "../webhooks/index.ts";

/**
 * What each event announces of its session, in the order the state machines allow: a session is created, then paid or
 * expired; a transaction is created, then completed (then settled) or failed.
 */
const RANK: Record<string, number> = {
  "session-created": 0,
  "transaction-created": 1,
  "transaction-completed": 2,
  "transaction-failed": 2,
  "session-completed": 3,
  "session-expired": 3,
  "transaction-settled": 4,
};

/** Why a session's events, by their timestamps, did not happen in an order the state machines allow; undefined when they did. */
export function orderViolation(events: readonly PayinEvent[], sessionId: string): string | undefined {
  const sorted = [...events].sort((a, b) => Date.parse(a.timestamp) - Date.parse(b.timestamp) || RANK[a.type]! - RANK[b.type]!);
  for (const [i, event] of sorted.entries()) {
    const earlier = sorted[i - 1];
    if (
      earlier &&
      RANK[earlier.type]! > RANK[event.type]! &&
      !(earlier.type === "transaction-failed" && event.type === "transaction-created")
    )
      return (
        `session ${sessionId}: ${event.type} happened at ${event.timestamp}, after ${earlier.type} at ${earlier.timestamp}, ` +
        "an order the contract's state machines do not allow"
      );
  }
  return undefined;
}
