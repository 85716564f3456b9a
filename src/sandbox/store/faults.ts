// Faults armed on an account (POST /_sandbox/v1/faults): what goes wrong on its requests and
// deliveries, and how often. Read from the database on each request and delivery attempt (one
// indexed look-up of the account's faults), so that every process on the database sees them.
import { newId } from "../../lib/ids.ts";
import type { Database } from "./database.ts";

export type FaultTarget = "request" | "delivery";
export type FaultEffect = "status" | "delay" | "drop" | "duplicate" | "shuffle";

/** What arm fault takes, as its body names it. */
export interface FaultSpec {
  target: FaultTarget;
  effect: FaultEffect;
  operation_id?: string;
  status?: number;
  retry_after_seconds?: number;
  delay_ms?: number;
  times?: number;
  share?: number;
}

export interface FaultRow {
  seq: number;
  id: string;
  target: FaultTarget;
  effect: FaultEffect;
  operation_id: string | null;
  status: number | null;
  retry_after_seconds: number | null;
  delay_ms: number | null;
  times_left: number | null;
  share: number | null;
  matched: number;
  met: number;
  created_at_ms: number;
}

const COLUMNS =
  "seq, id, target, effect, operation_id, status, retry_after_seconds, delay_ms, times_left, share, matched, met, created_at_ms";

/** Whether a share acts on the n-th request it applies to: 0.25 on the 4th, the 8th, …; 1/3 on the 3rd, the 6th, … */
const shareActsOn = (n: number, share: number) => Math.floor(n * share + 1e-9) > Math.floor((n - 1) * share + 1e-9);

const INSERT =
  "INSERT INTO faults (account_id, id, target, effect, operation_id, status, retry_after_seconds, " +
  `delay_ms, times_left, share, created_at_ms)
  VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?) RETURNING ${COLUMNS}`;
const LIST = `SELECT ${COLUMNS} FROM faults WHERE account_id = ? ORDER BY seq`;
const OF_TARGET = `SELECT ${COLUMNS} FROM faults WHERE account_id = ? AND target = ? ORDER BY seq`;
const ACTED = "UPDATE faults SET met = met + 1, times_left = times_left - 1, matched = matched + 1 WHERE seq = ?";
// Each statement counts and decides at once, so that two requests at once, in any process, count as two.
const MATCHED = "UPDATE faults SET matched = matched + 1 WHERE seq = ? RETURNING matched";
const TAKE_TURN = "UPDATE faults SET met = met + 1, times_left = times_left - 1 WHERE seq = ? AND (times_left IS NULL OR times_left > 0)";
const USED_UP = "DELETE FROM faults WHERE account_id = ? AND times_left = 0";
const CLEAR = "DELETE FROM faults WHERE account_id = ?";
const DISARM = "DELETE FROM faults WHERE account_id = ? AND id = ?";

export class Faults {
  readonly #db: Database;
  /** Tells every process that what a request needs of the account changed: whether it has request faults. */
  readonly #changed: (accountId: number) => Promise<void>;

  constructor(db: Database, changed: (accountId: number) => Promise<void>) {
    this.#db = db;
    this.#changed = changed;
  }

  async arm(accountId: number, spec: FaultSpec, atMs: number): Promise<FaultRow> {
    const row = await this.#db.get<FaultRow>(
      INSERT,
      accountId,
      newId("flt"),
      spec.target,
      spec.effect,
      spec.operation_id ?? null,
      spec.status ?? null,
      spec.retry_after_seconds ?? null,
      spec.delay_ms ?? null,
      spec.times ?? null,
      spec.share ?? null,
      atMs,
    );
    await this.#changed(accountId);
    return row!;
  }

  list(accountId: number): Promise<FaultRow[]> {
    return this.#db.all<FaultRow>(LIST, accountId);
  }

  async clear(accountId: number) {
    await this.#db.run(CLEAR, accountId);
    await this.#changed(accountId);
  }

  /** Disarms one fault; false when the account has none armed with that id. */
  async disarm(accountId: number, id: string): Promise<boolean> {
    if ((await this.#db.run(DISARM, accountId, id)) === 0) return false;
    await this.#changed(accountId);
    return true;
  }

  /**
   * The fault a request to `operationId` meets, counted as having acted: the oldest that applies
   * to it and whose turn it is: a share acts on an evenly spread part of the requests it
   * applies to. A fault with `times` is gone once used up.
   */
  async forRequest(accountId: number, operationId: string): Promise<FaultRow | undefined> {
    for (const fault of await this.#db.all<FaultRow>(OF_TARGET, accountId, "request")) {
      if (fault.operation_id !== null && fault.operation_id !== operationId) continue;
      const { matched } = (await this.#db.get<{ matched: number }>(MATCHED, fault.seq)) ?? { matched: 0 };
      // Gone meanwhile (used up by another request), or not its turn.
      if (matched === 0 || (fault.share !== null && !shareActsOn(matched, fault.share))) continue;
      if ((await this.#db.run(TAKE_TURN, fault.seq)) === 0) continue;
      // Whichever request took its last turn, this one or another at once, it is gone.
      if (fault.times_left !== null && (await this.#db.run(USED_UP, accountId)) > 0) await this.#changed(accountId);
      return fault;
    }
    return undefined;
  }

  /** The delivery faults of the account, which act together on every attempt. */
  forDelivery(accountId: number): Promise<FaultRow[]> {
    return this.#db.all<FaultRow>(OF_TARGET, accountId, "delivery");
  }

  /** Counts an attempt a delivery fault acted on. */
  async acted(fault: FaultRow) {
    await this.#db.run(ACTED, fault.seq);
  }
}
