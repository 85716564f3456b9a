// The listener connected to each account (payin-listen, decision D23): which process holds its
// connection, and until when, a lease that process renews while the connection lives. Every
// process reads it to send an account's deliveries to its listener, wherever it is connected. A
// lease that ran out is not taken for a listener gone: its row stays, and the account's events
// wait for its holder to renew it (the database was away from everyone, or the holder stalled),
// until the row is dropped, by its holder when the connection ends, or by any process once the
// holder has renewed nothing for long enough to count as dead.
import { randomBytes } from "node:crypto";
import type { Clock } from "../../lib/clock.ts";
import type { Database } from "./database.ts";

export interface ListenerRow {
  process: string;
  connection: string;
  /** Where the listener passes each delivery on, as it said when it connected: the delivery log shows it. */
  forward_to: string | null;
}

/** A listener's lease runs past real time `?`. */
const LIVE = "until_ms > ?";
/** SQL: the account (`?`) has a listener whose lease runs past real time `?`: its deliveries go to it. */
export const LIVE_LISTENER = `EXISTS (SELECT 1 FROM listeners WHERE account_id = ? AND ${LIVE})`;
/** SQL: the account (`?`) has a listener's row, its lease live or run out: its events are the listener's, not the URL's. */
export const ANY_LISTENER = "EXISTS (SELECT 1 FROM listeners WHERE account_id = ?)";

// A newer connection takes the account's listener over: one listener per account.
const HOLD = `INSERT INTO listeners (account_id, process, connection, forward_to, until_ms) VALUES (?, ?, ?, ?, ?)
  ON CONFLICT (account_id) DO UPDATE
  SET process = excluded.process, connection = excluded.connection, forward_to = excluded.forward_to, until_ms = excluded.until_ms`;
// One statement for every lease a process holds, however many: what it does not return ran out or is another's now.
const RENEW_ALL = `UPDATE listeners SET until_ms = ? WHERE process = ? AND ${LIVE} RETURNING connection`;
const REVIVE = "UPDATE listeners SET until_ms = ? WHERE account_id = ? AND connection = ?";
const DROP = "DELETE FROM listeners WHERE account_id = ? AND connection = ?";
const DROP_RUN_OUT = 'DELETE FROM listeners WHERE until_ms <= ? RETURNING account_id AS "accountId"';
const ACTIVE = `SELECT process, connection, forward_to FROM listeners WHERE account_id = ? AND ${LIVE}`;
const HELD = `SELECT process, connection, forward_to, CASE WHEN ${LIVE} THEN 1 ELSE 0 END AS live FROM listeners WHERE account_id = ?`;
// The sandbox's own keys: made by the first process that asks, read by every other.
const MAKE_KEY = "INSERT INTO sandbox_keys (name, secret) VALUES (?, ?) ON CONFLICT (name) DO NOTHING";
const KEY = "SELECT secret FROM sandbox_keys WHERE name = ?";

export class Listeners {
  readonly #db: Database;
  readonly #clock: Clock;

  constructor(db: Database, clock: Clock) {
    this.#db = db;
    this.#clock = clock;
  }

  /** The account's listener is `connection`, held by `process` until real time `untilMs`. */
  async hold(accountId: number, process: string, connection: string, forwardTo: string | null, untilMs: number) {
    await this.#db.run(HOLD, accountId, process, connection, forwardTo, untilMs);
  }

  /** Renews, until real time `untilMs`, every lease `process` holds that has not run out: the connections renewed. */
  async renewAll(process: string, untilMs: number): Promise<Set<string>> {
    const rows = await this.#db.all<{ connection: string }>(RENEW_ALL, untilMs, process, this.#clock.now());
    return new Set(rows.map((row) => row.connection));
  }

  /**
   * Renews a lease that ran out (its process stalled, or the database was away), while the row is still the
   * connection's; false when another connection took the account's listener over, or the row is gone (the account
   * was reset, or the holder counted as dead).
   */
  async revive(accountId: number, connection: string, untilMs: number): Promise<boolean> {
    return (await this.#db.run(REVIVE, untilMs, accountId, connection)) === 1;
  }

  async drop(accountId: number, connection: string) {
    await this.#db.run(DROP, accountId, connection);
  }

  /** Drops every listener whose lease ran out by real time `ranOutByMs`: their holders are gone. The accounts they were of. */
  async dropRunOut(ranOutByMs: number): Promise<number[]> {
    return (await this.#db.all<{ accountId: number }>(DROP_RUN_OUT, ranOutByMs)).map((row) => row.accountId);
  }

  /** The account's listener whose lease has not run out, if it has one. */
  active(accountId: number): Promise<ListenerRow | undefined> {
    return this.#db.get<ListenerRow>(ACTIVE, accountId, this.#clock.now());
  }

  /**
   * The key named `name` that every process of this sandbox shares (the one a listener's delivery ids are signed with, so
   * that any process checks one without the database): made at random by the first process to ask.
   */
  async sharedKey(name: string): Promise<Buffer> {
    await this.#db.run(MAKE_KEY, name, randomBytes(32).toString("base64url"));
    return Buffer.from((await this.#db.get<{ secret: string }>(KEY, name))!.secret, "base64url");
  }

  /** The account's listener, if it has one, and whether its lease runs (`live`) or ran out with its holder yet to renew it. */
  async held(accountId: number): Promise<(ListenerRow & { live: boolean }) | undefined> {
    const row = await this.#db.get<ListenerRow & { live: number }>(HELD, this.#clock.now(), accountId);
    return row && { ...row, live: Number(row.live) === 1 };
  }
}
