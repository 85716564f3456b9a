// SQLite's own statements (statements.ts): one writer, so a claim's rows need no lock, and what
// PostgreSQL does in one statement is done in a few inside one transaction. SQLite is told which
// index to use where its planner would take the primary key, which also finds rows with nothing due.
import type { Database } from "./database.ts";
import { sqliteMigrations } from "./migrations.ts";
import { AFTER_ATTEMPT, attemptValues, DUE, INSERT_ATTEMPT, INSERT_EVENTS, LOAD, TURN, type LoadedRow } from "./outbox-sql.ts";
import type { EngineStatements } from "./statements.ts";

/** Only rows with work due are in a `_due_by_account` index. */
const shiftDue = (table: string) =>
  `UPDATE ${table} INDEXED BY ${table}_due_by_account SET due_ms = due_ms - ? WHERE account_id = ? AND due_ms IS NOT NULL`;
// One account's allowance claimed; parameters: claim, until, due by, now, account, limit.
const CLAIM_DUE = `UPDATE events SET claim = ?, claim_until_ms = ?
  WHERE seq IN (${DUE} AND d.account_id = ? ORDER BY d.due_ms LIMIT ?) RETURNING seq`;
/** A session's oldest event not yet done with (parameters: account, session): the one its turn is. */
const NEXT_OF_SESSION = `(SELECT MIN(b.seq) FROM events b
  WHERE b.account_id = ? AND b.session_id = ? AND b.state IN ('pending', 'waiting'))`;
// Parameters: claim, until, account, session, due by, now.
const CLAIM_NEXT = `UPDATE events SET claim = ?, claim_until_ms = ?
  WHERE seq = ${NEXT_OF_SESSION} AND ${TURN("events")} RETURNING seq`;
const FINISH = `${AFTER_ATTEMPT} WHERE account_id = ? AND id = ? AND claim = ?`;

/** The events of these numbers, as claimed: what their attempts need. */
async function loaded(db: Database, seqs: readonly number[]): Promise<LoadedRow[]> {
  const rows: LoadedRow[] = [];
  for (const seq of seqs) {
    const row = await db.get<LoadedRow>(LOAD, seq);
    if (row) rows.push(row);
  }
  return rows;
}

async function claimNext(
  db: Database,
  terms: Parameters<EngineStatements["claimNext"]>[1],
  session: { accountId: number; sessionId: string },
  nowMs: number,
) {
  const row = await db.get<{ seq: number }>(
    CLAIM_NEXT,
    terms.claim,
    terms.untilMs,
    session.accountId,
    session.sessionId,
    terms.dueByMs,
    nowMs,
  );
  return row && (await loaded(db, [row.seq]))[0];
}

export const sqliteStatements: EngineStatements = {
  migrations: sqliteMigrations,
  stillIdle: "SELECT id FROM accounts WHERE id = ? AND last_request_ms < ?",
  // Every key has its end due: the primary key finds the account's.
  shiftDue: [
    ...["payment_sessions", "transactions", "events"].map(shiftDue),
    "UPDATE idempotency_keys SET due_ms = due_ms - ? WHERE account_id = ?",
  ],
  forgetDueKeys: "DELETE FROM idempotency_keys INDEXED BY idempotency_keys_due WHERE account_id = ? AND due_ms <= ?",

  // One writer, whose statements cost no round trip: its events are claimed as any others are, after the commit.
  async addEvents(db, rows, parameters) {
    await db.write(INSERT_EVENTS(rows), ...parameters);
  },

  async claimDue(db, { claim, untilMs, dueByMs }, allowed, nowMs) {
    const seqs: number[] = [];
    for (const { id, allowance } of allowed)
      for (const row of await db.all<{ seq: number }>(CLAIM_DUE, claim, untilMs, dueByMs, nowMs, id, allowance)) seqs.push(row.seq);
    return loaded(db, seqs);
  },

  claimNext,

  finish(db, outcome, attempt, next, nowMs) {
    return db.transaction(async () => {
      const { state, attempts, nextDueMs, claim } = outcome;
      if ((await db.run(FINISH, state, attempts, nextDueMs, attempt.accountId, attempt.eventId, claim)) === 0) return { finished: false };
      await db.run(INSERT_ATTEMPT, ...attemptValues(attempt));
      const following = next && state !== "pending" ? await claimNext(db, next, attempt, nowMs) : undefined;
      return following ? { finished: true, following } : { finished: true };
    });
  },
};
