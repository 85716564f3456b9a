// GET /_sandbox/v1/deliveries: every webhook attempt of the account, or of one session's events, oldest first.
import { isoTime } from "../../../lib/time.ts";
import type { Operation } from "../operation.ts";
import type { AttemptRow } from "../../store/outbox.ts";

export function delivery(row: AttemptRow) {
  return {
    event_id: row.event_id,
    event_type: row.type,
    session_id: row.session_id,
    ...(row.transaction_id === null ? {} : { transaction_id: row.transaction_id }),
    attempt: row.attempt,
    url: row.url,
    status: row.succeeded ? ("succeeded" as const) : ("failed" as const),
    ...(row.response_status === null ? {} : { response_status: row.response_status }),
    ...(row.error === null ? {} : { error: row.error }),
    attempted_at: isoTime(row.attempted_at_ms),
    duration_ms: row.duration_ms,
    ...(row.next_attempt_at_ms === null ? {} : { next_attempt_at: isoTime(row.next_attempt_at_ms) }),
    ...(row.faults === null ? {} : { faults: row.faults.split(",") }),
  };
}

export const listDeliveries: Operation = {
  async handle({ account, parameters }, { store }) {
    return { status: 200, body: { data: (await store.outbox.attempts(account.id, parameters.session_id)).map(delivery) } };
  },
};
