// A clock a test moves itself: its time stands still until `advance`, which runs every timer
// that comes due on the way, in the order they fall due, and waits for what each one started.
// A rate, a timeout or a retention is then seen at once and the same on any machine, however
// busy, where the system's clock would make the test wait and race.
import type { Clock } from "../../src/lib/clock.ts";

interface Timer {
  at: number;
  seq: number;
  task: () => unknown;
}

export class ManualClock implements Clock {
  #now: number;
  #seq = 0;
  readonly #timers = new Set<Timer>();

  constructor(startMs = Date.parse("2026-01-01T00:00:00Z")) {
    this.#now = startMs;
  }

  now() {
    return this.#now;
  }

  setTimer(ms: number, task: () => unknown) {
    const timer = { at: this.#now + Math.max(0, ms), seq: this.#seq++, task };
    this.#timers.add(timer);
    return () => void this.#timers.delete(timer);
  }

  /** Moves the time `ms` ahead, running each timer due on the way at its own time, and resolves once what they started is done. */
  async advance(ms: number) {
    const target = this.#now + ms;
    for (;;) {
      const next = [...this.#timers].filter((t) => t.at <= target).sort((a, b) => a.at - b.at || a.seq - b.seq)[0];
      if (!next) break;
      this.#timers.delete(next);
      this.#now = Math.max(this.#now, next.at);
      await next.task();
    }
    this.#now = target;
  }

  /** How many timers wait. */
  get pending() {
    return this.#timers.size;
  }

  /** How long each waiting timer has left, soonest first: what its owner waits for, seen without waiting. */
  dueIn(): number[] {
    return [...this.#timers].map((t) => t.at - this.#now).sort((a, b) => a - b);
  }
}

/**
 * How long a test waits for real work (a request on its way, an answer) to reach the point where it waits on a clock the
 * test moves: long enough for a machine with both cores busy, and over as soon as it is there.
 */
export const REAL_WORK = { timeout: 10_000, interval: 10 };
