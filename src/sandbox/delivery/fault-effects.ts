// What the delivery faults armed on an account do to an attempt of its events, as wrappers around
// the attempt: `delay` makes it wait first (its claim held that much longer), `duplicate` sends an
// acknowledged one once more and records it as an extra attempt. (`shuffle` acted already: the
// outbox's claim took the session's newest event in place of the one whose turn it was.) Each
// fault that acted is counted once the attempt's outcome is recorded, and the record names it. The
// dispatcher schedules and keeps each session's order: it asks for the attempt, never for a fault.
import { sleepOn } from "../../lib/clock.ts";
import type { Store } from "../store/index.ts";
import type { DueEvent } from "../store/outbox.ts";
import { makeAttempt, type MadeAttempt } from "./attempt.ts";
import type { Transport } from "./transport.ts";

/** One attempt of a claimed event, as its account's faults make it. */
export interface PlannedAttempt {
  /** Makes the attempt: undefined when `signal` aborted it, "nowhere" when the account has nowhere to send it now. */
  make(signal: AbortSignal): Promise<MadeAttempt | "nowhere" | undefined>;
  /** What the attempt's record says was done to it on purpose. */
  readonly marks: readonly string[];
  /** Whether something follows this outcome (an extra attempt) before the session's next event may be claimed. */
  follows(made: MadeAttempt): boolean;
  /** Once the outcome is recorded: what acted is counted, and what follows is made and recorded. */
  recorded(made: MadeAttempt, signal: AbortSignal): Promise<void>;
}

/** The attempt of an event claimed under `claim`, with what its account's delivery faults do to it. */
export function planAttempt(store: Store, transport: Transport, claim: string, event: DueEvent): PlannedAttempt {
  const acting = event.faults.filter((f) => f.effect !== "shuffle" || event.shuffled);
  const delay = acting.find((f) => f.effect === "delay");
  const duplicate = acting.find((f) => f.effect === "duplicate");
  const attempt = (n: number, signal: AbortSignal) => makeAttempt(store.clock, transport, event, event.account, n, signal);
  return {
    marks: acting.filter((f) => f !== duplicate).map((f) => f.effect),
    async make(signal) {
      if (delay) {
        // The claim holds for the wait too, so that no other process takes the event meanwhile.
        await store.outbox.extendClaim(event.seq, claim, store.clock.now() + delay.delay_ms! + transport.timeoutMs + 1000);
        // Cut short when the sandbox closes; the attempt is then not made, and made after a restart.
        await sleepOn(store.clock, delay.delay_ms!, signal);
      }
      return attempt(event.attempts + 1, signal);
    },
    follows: (made) => made.succeeded && duplicate !== undefined,
    async recorded(made, signal) {
      for (const fault of acting) if (fault !== duplicate) await store.faults.acted(fault);
      if (!made.succeeded || !duplicate) return;
      const again = await attempt(made.attempt + 1, signal);
      if (!again || again === "nowhere") return;
      await store.transaction(async () => {
        await store.outbox.recordExtraAttempt({ ...again, nextAttemptAtMs: null, nextDueMs: null, marks: ["duplicate"] });
        await store.faults.acted(duplicate);
      });
    },
  };
}
