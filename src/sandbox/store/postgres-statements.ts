// PostgreSQL's own statements (statements.ts): several processes claim at once, so a claim skips
// the rows another is claiming (SKIP LOCKED) and a sweep locks the row it deletes; and what takes
// SQLite a few statements is one here, each a round trip saved.
import { postgresMigrations } from "./migrations.ts";
import {
  AFTER_ATTEMPT,
  ATTEMPT_COLUMNS,
  attemptValues,
  DUE,
  EVENT_COLUMNS,
  INSERT_EVENTS,
  JOINED,
  NEEDED,
  NEW_EVENTS,
  TURN,
  type LoadedRow,
} from "./outbox-sql.ts";
import type { EngineStatements } from "./statements.ts";

// For each account its allowance of due events whose turn it is, soonest first, claimed with what the attempts need,
// in one statement; SKIP LOCKED passes what another process is claiming. Parameters: claim, until, the accounts and
// their allowances (as arrays), due by, now.
const CLAIM_DUE = `UPDATE events e SET claim = ?, claim_until_ms = ?
  FROM (SELECT picked.seq FROM unnest(CAST(? AS BIGINT[]), CAST(? AS INTEGER[])) AS allowed(account_id, allowance),
    LATERAL (${DUE} AND d.account_id = allowed.account_id ORDER BY d.due_ms LIMIT allowed.allowance FOR UPDATE SKIP LOCKED) AS picked
  ) AS due, ${JOINED("e")}
  AND e.seq = due.seq RETURNING ${NEEDED("e")}`;
// One session's turn: its oldest event not done with, when that is pending, due and claimed by no one. Found by the
// session's index, not among the due events, of which a busy sandbox has many waiting behind their session's earlier one.
// Locked as it is found: an event another process is recording the outcome of is waited for, and passed once it is
// done with for the next, which that outcome's own claim may not have seen (written as it ran, by another process).
// Parameters: claim, until, account, session, due by, now.
const CLAIM_NEXT = `UPDATE events e SET claim = ?, claim_until_ms = ? FROM ${JOINED("e")}
  AND e.seq = (SELECT b.seq FROM events b WHERE b.account_id = ? AND b.session_id = ? AND b.state IN ('pending', 'waiting')
    ORDER BY b.seq LIMIT 1 FOR UPDATE)
  AND ${TURN("e")} RETURNING ${NEEDED("e")}`;
// The outcome, the attempt's record and the claim of its session's next event due, in one statement. Its parts see the
// rows as they were: the next is the session's oldest not done with but the one finished, found from the one finished
// by the session's index (never among the pending events, which a busy sandbox has many of). Parameters: state, attempts,
// due, account, event, claim; the attempt's 14 values; claim, until, whether to claim the next, due by, now.
const FINISH = `WITH done AS (${AFTER_ATTEMPT} WHERE account_id = ? AND id = ? AND claim = ?
    RETURNING seq, account_id, session_id, state),
  recorded AS (INSERT INTO delivery_attempts (${ATTEMPT_COLUMNS})
    SELECT CAST(? AS BIGINT), ?, CAST(? AS INTEGER), ?, CAST(? AS INTEGER), ?, CAST(? AS INTEGER), CAST(? AS BIGINT), CAST(? AS BIGINT),
      CAST(? AS BIGINT), ?, ?, ?, CAST(? AS BIGINT) FROM done ON CONFLICT DO NOTHING),
  following AS (
    UPDATE events n SET claim = ?, claim_until_ms = ?
    FROM (SELECT MIN(b.seq) AS seq FROM done, events b WHERE CAST(? AS INTEGER) = 1 AND done.state <> 'pending'
      AND b.account_id = done.account_id AND b.session_id = done.session_id AND b.state IN ('pending', 'waiting') AND b.seq <> done.seq
    ) AS next, ${JOINED("n")}
    AND n.seq = next.seq AND n.state = 'pending' AND n.due_ms <= ? AND (n.claim_until_ms IS NULL OR n.claim_until_ms <= ?)
    RETURNING ${NEEDED("n")})
  SELECT (SELECT COUNT(*) FROM done) AS finished, following.* FROM (SELECT 1) AS one LEFT JOIN following ON true`;

// New events, each session's first claimed as it is written when its turn has come (it goes somewhere now, and no earlier
// event of its session is left to send): the insert, and what the attempts need read from the other tables as it
// returns them. Parameters: claim, until, the account, then NEW_EVENTS'.
const ADD_CLAIMING = (rows: number) => {
  // Read for the claimed rows only.
  const of = (column: string, table: string, where: string) =>
    `CASE WHEN claim IS NOT NULL THEN (SELECT ${column} FROM ${table} WHERE ${where.replaceAll("$", "events.")}) END`;
  return `INSERT INTO events (${EVENT_COLUMNS}, claim, claim_until_ms)
  SELECT ${EVENT_COLUMNS}, CASE WHEN turn THEN CAST(? AS TEXT) END, CASE WHEN turn THEN CAST(? AS BIGINT) END
  FROM (SELECT n.*, n.state = 'pending' AND n.first = 1
      AND NOT EXISTS (SELECT 1 FROM events b WHERE b.account_id = CAST(? AS BIGINT) AND b.session_id = n.session_id
        AND b.state IN ('pending', 'waiting')) AS turn
    FROM (${NEW_EVENTS(rows)}) AS n) AS r
  ORDER BY place
  RETURNING seq, account_id AS "accountId", id, type, session_id AS "sessionId", transaction_id AS "transactionId",
    created_at_ms AS "createdAtMs", attempts, claim,
    ${of("url", "webhooks w", "w.account_id = $account_id")} AS url,
    ${of("signing_secret", "webhooks w", "w.account_id = $account_id")} AS secret,
    ${of("counterparty_id", "payment_sessions s", "s.account_id = $account_id AND s.id = $session_id")} AS "counterpartyId",
    ${of("request", "payment_sessions s", "s.account_id = $account_id AND s.id = $session_id")} AS request,
    ${of("clock_offset_ms", "accounts a", "a.id = $account_id")} AS "clockOffsetMs",
    ${of("failure_reason", "transactions t", "t.account_id = $account_id AND t.id = $transaction_id")} AS "failureReason",
    ${of("COUNT(*)", "faults f", "f.account_id = $account_id AND f.target = 'delivery'")} AS "deliveryFaults",
    ${of("COUNT(*)", "listeners l", "l.account_id = $account_id")} AS listening`;
};

/** PostgreSQL's planner finds the rows with work due by the `_due_by_account` indexes itself. */
const shiftDue = (table: string) => `UPDATE ${table} SET due_ms = due_ms - ? WHERE account_id = ? AND due_ms IS NOT NULL`;
const array = (values: readonly number[]) => `{${values.join(",")}}`;

export const postgresStatements: EngineStatements = {
  migrations: postgresMigrations,
  // Locked: a request that wrote to the account meanwhile has it touched by the time the lock is granted.
  stillIdle: "SELECT id FROM accounts WHERE id = ? AND last_request_ms < ? FOR UPDATE",
  // Every key has its end due: the primary key finds the account's.
  shiftDue: [
    ...["payment_sessions", "transactions", "events"].map(shiftDue),
    "UPDATE idempotency_keys SET due_ms = due_ms - ? WHERE account_id = ?",
  ],
  forgetDueKeys: "DELETE FROM idempotency_keys WHERE account_id = ? AND due_ms <= ?",

  async addEvents(db, rows, parameters, claim) {
    if (!claim) return db.write(INSERT_EVENTS(rows), ...parameters);
    const { terms, claimed } = claim;
    await db.writeReturning(ADD_CLAIMING(rows), [terms.claim, terms.untilMs, parameters[0]!, ...parameters], (returned) =>
      claimed((returned as Array<LoadedRow & { claim: string | null }>).filter((row) => row.claim !== null)),
    );
  },

  claimDue(db, { claim, untilMs, dueByMs }, allowed, nowMs) {
    const [ids, allowances] = [array(allowed.map((a) => a.id)), array(allowed.map((a) => a.allowance))];
    return db.all<LoadedRow>(CLAIM_DUE, claim, untilMs, ids, allowances, dueByMs, nowMs);
  },

  claimNext(db, terms, { accountId, sessionId }, nowMs) {
    return db.get<LoadedRow>(CLAIM_NEXT, terms.claim, terms.untilMs, accountId, sessionId, terms.dueByMs, nowMs);
  },

  async finish(db, { state, attempts, nextDueMs, claim }, attempt, next, nowMs) {
    const asked = next === undefined ? [null, null, 0, null] : [next.claim, next.untilMs, 1, next.dueByMs];
    const outcome = [state, attempts, nextDueMs, attempt.accountId, attempt.eventId, claim];
    const { finished, ...row } = (await db.get<LoadedRow & { finished: number }>(
      FINISH,
      ...outcome,
      ...attemptValues(attempt),
      ...asked,
      nowMs,
    ))!;
    if (Number(finished) === 0) return { finished: false };
    return row.seq === null ? { finished: true } : { finished: true, following: row };
  },
};
