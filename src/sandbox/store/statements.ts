// What each engine says its own way. The store's modules write their SQL once, in what both
// engines speak; where SQLite and PostgreSQL differ (an index named to SQLite's planner, a row
// lock only PostgreSQL takes, one statement where SQLite's single writer takes several), a module
// asks its database's engine statements (`Database.statements`), and sqlite-statements.ts and
// postgres-statements.ts each answer in their own way.
import type { Database, Parameter } from "./database.ts";
import type { LoadedRow } from "./outbox-sql.ts";
import type { Attempt, ClaimTerms, SessionKey } from "./outbox.ts";

/** An account's allowance of attempts, for a claim of due events. */
export interface Allowance {
  id: number;
  allowance: number;
}

/** What an attempt left of its event: its state, its attempts, when it is due again (null when not), under whose claim. */
export interface Outcome {
  state: "delivered" | "failed" | "pending";
  attempts: number;
  nextDueMs: number | null;
  claim: string;
}

export interface EngineStatements {
  /** The engine's schema, as an append-only history of migrations (migrations.ts). */
  readonly migrations: readonly string[];
  /** The account (`?`) if still idle since real time `?`, its row locked until the transaction ends where another process may write it. */
  readonly stillIdle: string;
  /** For each table with work due: moves one account's due times `?` ms nearer; parameters: ms, account. */
  readonly shiftDue: readonly string[];
  /** Forgets one account's (`?`) Idempotency-Keys past their end by real time `?`. */
  readonly forgetDueKeys: string;
  /**
   * Writes one account's new events (`parameters`: INSERT_EVENTS' for `rows` of them, outbox-sql.ts), a write of their
   * transaction (Database.write). With `claim`, where the engine can in the same statement, claims under its terms each
   * session's first new event that goes now, when no earlier one of its session is left to send, and hands them, with
   * what their attempts need, to `claim.claimed` once written (before the transaction commits).
   */
  addEvents(
    db: Database,
    rows: number,
    parameters: Parameter[],
    claim?: { terms: ClaimTerms; claimed(rows: LoadedRow[]): void },
  ): Promise<void>;
  /** Claims, for each account, its allowance of due events whose turn it is, soonest first; with what their attempts need. */
  claimDue(db: Database, terms: ClaimTerms, allowed: readonly Allowance[], nowMs: number): Promise<LoadedRow[]>;
  /** Claims the session's event whose turn it is, when that one is due and claimed by no one. */
  claimNext(db: Database, terms: ClaimTerms, session: SessionKey, nowMs: number): Promise<LoadedRow | undefined>;
  /**
   * Records the attempt and what it left of its event, only while `outcome.claim` still holds it (`finished` false
   * otherwise); with `next`, claims the session's next event once it is done with this one, when that one is due.
   */
  finish(
    db: Database,
    outcome: Outcome,
    attempt: Attempt,
    next: ClaimTerms | undefined,
    nowMs: number,
  ): Promise<{ finished: boolean; following?: LoadedRow }>;
}
