// GET /_sandbox/v1/deliveries: the account's webhook attempts, or one session's, oldest first, a page at a time.
import { couldBeId } from "../../../lib/ids.ts";
import { validationProblem } from "../../../lib/problem.ts";
import { isoTime } from "../../../lib/time.ts";
import { refusal } from "../answer.ts";
import type { Operation } from "../operation.ts";
import type { AttemptRow } from "../../store/outbox.ts";
import { cursorAfter, positionOf } from "./delivery-cursor.ts";

/** The attempts a page holds when `limit` is not given: as many as it may. */
const PAGE_SIZE = 100;

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
    const { session_id: sessionId, cursor } = parameters;
    const scope = { accountId: account.id, sessionId };
    const after = cursor === undefined ? undefined : positionOf(cursor, scope);
    if (cursor !== undefined && after === undefined)
      return refusal(
        validationProblem([{ field: "cursor", message: "is not a next_cursor this sandbox gave for this account and session_id" }]),
      );
    // A session the account cannot have (no id the sandbox makes) has no attempts: the database is not asked.
    if (sessionId !== undefined && !couldBeId("ps", sessionId)) return { status: 200, body: { data: [], next_cursor: null } };
    // The schema took it as a whole number from 1 to 100.
    const limit = parameters.limit === undefined ? PAGE_SIZE : Number(parameters.limit);
    // One more than the page: whether another page follows.
    const rows = await store.outbox.attemptsPage(account.id, { sessionId, after, limit: limit + 1 });
    const page = rows.slice(0, limit);
    const last = page.at(-1);
    const next =
      rows.length > limit && last
        ? cursorAfter({ attemptedAtMs: last.attempted_at_ms, eventSeq: last.event_seq, attempt: last.attempt }, scope)
        : null;
    return { status: 200, body: { data: page.map(delivery), next_cursor: next } };
  },
};
