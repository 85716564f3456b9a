// Time as its owner gives it: code that measures a rate, a timeout or a retention reads the
// clock it was handed and waits on that clock's timers, so that a test can hand it a clock it
// moves itself and see an hour pass at once, where the system's clock would make it wait.

export interface Clock {
  /** Milliseconds since the epoch. */
  now(): number;
  /**
   * Calls `task` once `ms` have passed on this clock; the returned function cancels it. A timer
   * never keeps the process alive. What `task` returns is awaited by a clock that a test moves.
   */
  setTimer(ms: number, task: () => unknown): () => void;
}

export const systemClock: Clock = {
  now: () => Date.now(),
  setTimer(ms, task) {
    // A time already past is now (Node warns of a negative delay, and takes it as 1 ms anyway).
    const timer = setTimeout(task, Math.max(0, ms));
    timer.unref();
    return () => clearTimeout(timer);
  },
};

/**
 * Calls `task` every `ms` on `clock`, the next call counted from the end of the one before (a
 * slow task is never joined by another); the returned function stops it.
 */
export function every(clock: Clock, ms: number, task: () => unknown): () => void {
  let stopped = false;
  let cancel = () => {};
  const schedule = () => {
    cancel = clock.setTimer(ms, async () => {
      try {
        await task();
      } finally {
        if (!stopped) schedule();
      }
    });
  };
  schedule();
  return () => {
    stopped = true;
    cancel();
  };
}

/** Resolves after `ms` on `clock`, or at once when `signal` aborts. */
export function sleepOn(clock: Clock, ms: number, signal?: AbortSignal): Promise<void> {
  return new Promise((resolve) => {
    if (signal?.aborted || ms <= 0) return resolve();
    const done = () => {
      cancel();
      signal?.removeEventListener("abort", done);
      resolve();
    };
    const cancel = clock.setTimer(ms, done);
    signal?.addEventListener("abort", done, { once: true });
  });
}

/**
 * Resolves as `sleepOn` does, keeping the process alive meanwhile: a clock's timers never do (a sandbox's must not hold
 * its process open), and a wait between two requests, with nothing else under way, would otherwise end the process.
 */
export async function pauseOn(clock: Clock, ms: number, signal?: AbortSignal): Promise<void> {
  const alive = setInterval(() => {}, 60_000);
  try {
    await sleepOn(clock, ms, signal);
  } finally {
    clearInterval(alive);
  }
}

/** A signal that aborts once `ms` have passed on `clock`, with a TimeoutError, as `AbortSignal.timeout` does on the system's. */
export function timeoutSignal(clock: Clock, ms: number): AbortSignal {
  const controller = new AbortController();
  clock.setTimer(ms, () => controller.abort(new DOMException("The operation timed out.", "TimeoutError")));
  return controller.signal;
}
