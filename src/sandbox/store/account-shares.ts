// Each account's share of a process's database connections. A tenant that sends a burst of
// requests which queue on one of its own locks (fifty clock advances on its account's row) would
// otherwise hold a pooled connection for each waiting request, and every other tenant of the
// process would wait for the pool. Requests made on an account's behalf take one of its few slots
// before they take a connection, and give it back with the connection: a burst of one account
// waits on itself, in memory, holding nothing the others need.
import type { Clock } from "../../lib/clock.ts";
import { DatabaseUnavailableError } from "./database.ts";

interface Slots {
  held: number;
  /** The requests waiting for a slot, first come first served. */
  queue: Array<() => void>;
}

export class AccountShares {
  readonly #each: number;
  readonly #clock: Clock;
  readonly #waitMs: number;
  readonly #byAccount = new Map<number, Slots>();

  /** `each`: the connections one account may hold at once; `waitMs`: how long a request waits for one of them before it fails. */
  constructor(each: number, clock: Clock, waitMs: number) {
    this.#each = each;
    this.#clock = clock;
    this.#waitMs = waitMs;
  }

  /**
   * Resolves once the account has a slot free, to the function that gives it back; rejects as the database being
   * unavailable when none was free within the wait (the account's own requests hold them all).
   */
  take(accountId: number): Promise<() => void> {
    let slots = this.#byAccount.get(accountId);
    if (!slots) this.#byAccount.set(accountId, (slots = { held: 0, queue: [] }));
    const give = this.#giver(accountId, slots);
    if (slots.held < this.#each) {
      slots.held++;
      return Promise.resolve(give);
    }
    return new Promise((resolve, reject) => {
      const granted = () => {
        cancel();
        resolve(give);
      };
      const cancel = this.#clock.setTimer(this.#waitMs, () => {
        slots.queue.splice(slots.queue.indexOf(granted), 1);
        reject(
          new DatabaseUnavailableError(
            `This account's requests held all ${this.#each} of its database connections for ${this.#waitMs / 1000} s.`,
          ),
        );
      });
      slots.queue.push(granted);
    });
  }

  /** How many accounts hold a slot or wait for one. */
  get accounts(): number {
    return this.#byAccount.size;
  }

  /** Gives the slot back, once: to the first request waiting, else free; an account with none held and none waiting is forgotten. */
  #giver(accountId: number, slots: Slots) {
    let given = false;
    return () => {
      if (given) return;
      given = true;
      const next = slots.queue.shift();
      if (next) return next();
      slots.held--;
      if (slots.held === 0) this.#byAccount.delete(accountId);
    };
  }
}
