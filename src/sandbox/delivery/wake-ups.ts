// When delivery looks for what is due. Commits, retries coming due and the tick each wake it; the
// wake-ups of one turn of the event loop are looked at together: each session named, by its own
// claim (a commit's events need no look at every account's: a busy sandbox has many events waiting
// behind their session's earlier one), and, when one asked for it, everything due, by one pass at
// a time per process (passes never pile up on the database; one asked for meanwhile follows).
import { every, type Clock } from "../../lib/clock.ts";
import { reportUnlessUnavailable } from "../store/database.ts";
import type { SessionKey } from "../store/outbox.ts";

export interface Looks {
  /** Claims and starts the session's event whose turn it is. */
  session(session: SessionKey): Promise<unknown>;
  /** Claims and starts a batch of everything due; resolves to whether the batch was full (more may be due). */
  everything(): Promise<boolean>;
  /** Runs the looks apart from whatever started them (a request's share of the database). */
  apart(start: () => void): void;
  /** Whether delivery has stopped: no look starts any more. */
  stopped(): boolean;
}

export class WakeUps {
  readonly #looks: Looks;
  readonly #sessions = new Map<string, SessionKey>();
  #everything = false;
  #scheduled = false;
  #passing = false;
  #stopTicking: (() => void) | undefined;

  constructor(looks: Looks) {
    this.#looks = looks;
  }

  /** Looks at everything due now, then every `ms` on `clock` (the retries that time brought due, should a wake-up be lost). */
  every(clock: Clock, ms: number) {
    this.#stopTicking ??= every(clock, ms, () => this.wake());
    this.wake();
  }

  stop() {
    this.#stopTicking?.();
  }

  /** Looks at the session (everything due, when none is named) once the transaction under way has committed. */
  wake(session?: SessionKey) {
    if (this.#looks.stopped()) return;
    if (session) this.#sessions.set(`${session.accountId}/${session.sessionId}`, session);
    else this.#everything = true;
    // Stryker disable next-line ConditionalExpression,BooleanLiteral: without the guard each wake-up schedules its own look
    if (this.#scheduled) return;
    this.#scheduled = true;
    this.#looks.apart(() => setImmediate(() => this.#look()));
  }

  #look() {
    this.#scheduled = false;
    const everything = this.#everything && !this.#passing;
    const sessions = [...this.#sessions.values()];
    // A pass under way takes what is due now when it ends, with another.
    this.#everything &&= this.#passing;
    this.#sessions.clear();
    if (this.#looks.stopped()) return;
    // The sessions named too: a pass shares a batch among the accounts, which may end before them.
    if (everything) void this.#pass();
    for (const session of sessions) this.#looks.session(session).catch(reportUnlessUnavailable);
  }

  async #pass() {
    this.#passing = true;
    let full = false;
    try {
      full = await this.#looks.everything();
    } catch (error) {
      reportUnlessUnavailable(error);
    } finally {
      this.#passing = false;
    }
    if (full || this.#everything) this.wake();
  }
}
