// A reading that many callers want and that costs something each time (a query of a shared
// database): taken at most once per interval on the clock its owner gives, callers within the
// interval get the last reading, and callers while one is under way share it. A probe that anyone
// may call (a health check, a metrics scrape) then costs its database the same however often it is
// called.
import type { Clock } from "./clock.ts";

export class Refreshed<T> {
  readonly #clock: Clock;
  readonly #everyMs: number;
  readonly #read: () => Promise<T>;
  #last: Promise<T> | undefined;
  #startedAt = -Infinity;
  #underWay = false;

  /** `read` is called at most once per `everyMs` on `clock`, counted from the start of the reading before. */
  constructor(clock: Clock, everyMs: number, read: () => Promise<T>) {
    this.#clock = clock;
    this.#everyMs = everyMs;
    this.#read = read;
  }

  /**
   * The reading under way (however long it takes: a database away may take its whole timeout), or the one begun within
   * the interval (its value, or its failure, which is kept as long so that a database away is not asked again by every
   * caller), or a new one.
   */
  get(): Promise<T> {
    const now = this.#clock.now();
    if (this.#last && (this.#underWay || now - this.#startedAt < this.#everyMs)) return this.#last;
    this.#startedAt = now;
    this.#underWay = true;
    const reading = (async () => this.#read())();
    this.#last = reading;
    // A failure is each caller's to handle; kept here, it must not count as unhandled.
    reading.then(
      () => this.#ended(reading),
      () => this.#ended(reading),
    );
    return reading;
  }

  #ended(reading: Promise<T>) {
    if (this.#last === reading) this.#underWay = false;
  }
}
