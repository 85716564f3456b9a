// How many host-name look-ups a hosted sandbox makes at once: a few per account, and a bound in
// all (each holds a socket and a c-ares channel). An account whose webhook host's DNS never
// answers fills its own few slots, and its further attempts wait for them; another account's
// look-up starts at once.

export interface LookupBounds {
  /** Look-ups under way at once for one account. */
  perAccount: number;
  /** Look-ups under way at once in all. */
  total: number;
}

export const DEFAULT_LOOKUP_BOUNDS: LookupBounds = { perAccount: 4, total: 256 };

interface Waiting {
  accountId: number;
  grant: () => void;
}

export class LookupSlots {
  readonly #bounds: LookupBounds;
  /** The slots each account holds. */
  readonly #held = new Map<number, number>();
  #inUse = 0;
  /** Who waits, first come first served among those a slot can go to. */
  readonly #waiting: Waiting[] = [];

  constructor(bounds: LookupBounds = DEFAULT_LOOKUP_BOUNDS) {
    this.#bounds = bounds;
  }

  /** Resolves, once the account may start a look-up, to the function that ends it; rejects with the signal's reason if it aborts first. */
  take(accountId: number, signal: AbortSignal): Promise<() => void> {
    return new Promise((resolve, reject) => {
      const grant = () => {
        signal.removeEventListener("abort", abort);
        this.#hold(accountId, +1);
        let released = false;
        resolve(() => {
          if (released) return;
          released = true;
          this.#hold(accountId, -1);
          this.#next();
        });
      };
      const waiting: Waiting = { accountId, grant };
      const abort = () => {
        this.#waiting.splice(this.#waiting.indexOf(waiting), 1);
        reject(signal.reason);
      };
      if (signal.aborted) return reject(signal.reason);
      if (this.#free(accountId)) return grant();
      signal.addEventListener("abort", abort, { once: true });
      this.#waiting.push(waiting);
    });
  }

  #free(accountId: number): boolean {
    return this.#inUse < this.#bounds.total && (this.#held.get(accountId) ?? 0) < this.#bounds.perAccount;
  }

  #hold(accountId: number, change: 1 | -1) {
    this.#inUse += change;
    const held = (this.#held.get(accountId) ?? 0) + change;
    if (held === 0) this.#held.delete(accountId);
    else this.#held.set(accountId, held);
  }

  /** Grants what was freed to the first who waits and may have it. */
  #next() {
    const index = this.#waiting.findIndex((w) => this.#free(w.accountId));
    if (index === -1) return;
    const [waiting] = this.#waiting.splice(index, 1);
    waiting!.grant();
  }
}
