// The listener connected to each account (payin-listen, decision D23): which process holds its
// connection, and until when, a lease that process renews while the connection lives. Every
// process reads it to send an account's deliveries to its listener, wherever it is connected; a
// process that dies leaves a lease that runs out within seconds.
import type { Clock } from "../../lib/clock.ts";
import type { Database } from "./database.ts";

export interface ListenerRow {
  process: string;
  connection: string;
  /** Where the listener passes each delivery on, as it said when it connected: the delivery log shows it. */
  forward_to: string | null;
}

// A newer connection takes the account's listener over: one listener per account.
const HOLD = `INSERT INTO listeners (account_id, process, connection, forward_to, until_ms) VALUES (?, ?, ?, ?, ?)
  ON CONFLICT (account_id) DO UPDATE
  SET process = excluded.process, connection = excluded.connection, forward_to = excluded.forward_to, until_ms = excluded.until_ms`;
const RENEW = "UPDATE listeners SET until_ms = ? WHERE account_id = ? AND connection = ? AND until_ms > ?";
const REVIVE = "UPDATE listeners SET until_ms = ? WHERE account_id = ? AND connection = ?";
const DROP = "DELETE FROM listeners WHERE account_id = ? AND connection = ?";
const ACTIVE = "SELECT process, connection, forward_to FROM listeners WHERE account_id = ? AND until_ms > ?";

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

  /**
   * Renews the lease: "renewed", or "revived" when it had run out meanwhile (its process stalled,
   * the database was away), and events made then waited; false when another connection took the
   * account's listener over.
   */
  async renew(accountId: number, connection: string, untilMs: number): Promise<"renewed" | "revived" | false> {
    if ((await this.#db.run(RENEW, untilMs, accountId, connection, this.#clock.now())) === 1) return "renewed";
    return (await this.#db.run(REVIVE, untilMs, accountId, connection)) === 1 ? "revived" : false;
  }

  async drop(accountId: number, connection: string) {
    await this.#db.run(DROP, accountId, connection);
  }

  /** The account's listener whose lease has not run out, if it has one. */
  active(accountId: number): Promise<ListenerRow | undefined> {
    return this.#db.get<ListenerRow>(ACTIVE, accountId, this.#clock.now());
  }
}
