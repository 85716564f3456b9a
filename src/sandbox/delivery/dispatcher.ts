// Delivers the outbox's events to each account's webhook URL (decision D14): signed with the
// account's secret, a 2xx within the transport's timeout acknowledges, anything else is retried
// with the same webhook-id and a fresh signature on a schedule measured on the account's clock.
// The events of one session go one at a time, in the order they were made, each once the earlier
// ones are acknowledged or have failed for good (the order rule, as Svix's ordered mode), so a
// receiver sees each flow in order, unless a delivery fault armed on the account says otherwise
// (duplicates, a shuffled order, a delay). Several processes on one database each deliver what is
// due: events are claimed first, many at a time, with a lease that another process takes over if
// this one dies before recording an attempt, and each outcome is written with the claim of its
// session's next event. What is sent and when is decided here; how it reaches the receiver is the
// transport's (transport.ts), so that another plugs in without touching the schedule.
import { randomUUID } from "node:crypto";
import { setTimeout as sleep } from "node:timers/promises";
import { every, sleepOn } from "../../lib/clock.ts";
import { realTime } from "../flow/clock.ts";
import { RETRY_JITTER, RETRY_SCHEDULE_SECONDS } from "../../lib/contract-facts.ts";
import type { Account } from "../store/accounts.ts";
import type { FaultRow } from "../store/faults.ts";
import type { ClaimTerms, DueEvent, DueKey, Scope, SessionKey } from "../store/outbox.ts";
import type { Store } from "../store/index.ts";
import { reportUnlessUnavailable } from "../store/database.ts";
import { HttpTransport } from "./http-transport.ts";
import { makeAttempt } from "./attempt.ts";
import type { Transport } from "./transport.ts";

/** How often retries that real time brought due are looked for. */
const TICK_MS = 1000;
/** Due events read at once; more wait for the next round. */
const BATCH = 256;
/** How often a wait on another process's attempt looks whether it is recorded. */
const HELD_POLL_MS = 20;
/**
 * The horizon of delivery as time goes: whatever is due when each claim is made. A session's next event, made while the
 * one before was under way, is claimed with that one's outcome, not left for the tick. (An advance has a fixed target.)
 */
const AS_TIME_GOES = Number.POSITIVE_INFINITY;

export interface DeliverySettings {
  /** Delays in seconds of sandbox time before each retry; its length is the number of retries. */
  retryScheduleSeconds?: readonly number[];
  /** How each attempt reaches its receiver: HTTP to the registered URL, with its default timeout, unless another is given. */
  transport?: Transport;
}

interface InFlight {
  accountId: number;
  /** How many attempts were made of the session's events, one after another. */
  done: Promise<number>;
}

export class Dispatcher {
  readonly #store: Store;
  readonly #schedule: readonly number[];
  readonly #transport: Transport;
  /** The attempt under way of each session that has one (`account/session`): a session's events go one at a time. */
  readonly #inFlight = new Map<string, InFlight>();
  /**
   * Sessions an event of which was given back while another of theirs was under way here, with the giving back: looked at
   * again once the attempt under way ends and the event is free (not before, or this process's own claim would hide it).
   */
  readonly #deferred = new Map<string, Promise<unknown>>();
  /**
   * What the next pass looks at: the sessions whose events commits made due, each by its own claim, or everything due.
   * A commit's events need no look at every account's: a busy sandbox has many events waiting behind their session's
   * earlier one, and a pass over all of them at each commit cost more than the deliveries.
   */
  readonly #sessionsDue = new Map<string, SessionKey>();
  #everythingDue = false;
  /** This process's claims on the events it is sending, released when it closes. */
  readonly #claim = randomUUID();
  readonly #closing = new AbortController();
  #kicked = false;
  /** Whether a pass over everything due is under way: one at a time, so that passes never pile up on the database. */
  #passing = false;
  #stopTicking: (() => void) | undefined;

  constructor(store: Store, settings: DeliverySettings = {}) {
    this.#store = store;
    this.#schedule = settings.retryScheduleSeconds ?? RETRY_SCHEDULE_SECONDS;
    this.#transport = settings.transport ?? new HttpTransport();
    // Whatever a transaction puts in the outbox goes out once it has committed, not at the next tick.
    store.outbox.onCommitted((session) => this.#kick(session));
  }

  /**
   * Delivers from now on: what a previous run left undelivered (with --db) now, each event as
   * its transaction commits, and each retry as real time brings it due.
   */
  start() {
    this.#stopTicking ??= every(this.#store.clock, TICK_MS, () => this.#kick());
    this.#kick();
  }

  /** Claims what is due (of `session` only, when given) and starts it, once the transaction under way has committed. */
  #kick(session?: SessionKey) {
    if (this.#closing.signal.aborted) return;
    if (session) this.#sessionsDue.set(`${session.accountId}/${session.sessionId}`, session);
    else this.#everythingDue = true;
    // Without the guard a kick schedules another pass; after close, no pass starts (the check in the callback).
    // Stryker disable next-line ConditionalExpression: see above
    if (this.#kicked) return;
    // Stryker disable next-line BooleanLiteral: as `false`, each kick schedules its own pass
    this.#kicked = true;
    // Delivery is the sandbox's own work, on no account's share of the database, whichever request's commit kicked it.
    this.#store.apart(() =>
      setImmediate(() => {
        this.#kicked = false;
        const everything = this.#everythingDue && !this.#passing;
        const sessions = [...this.#sessionsDue.values()];
        // A pass under way takes what is due now when it ends, with another.
        this.#everythingDue &&= this.#passing;
        this.#sessionsDue.clear();
        if (this.#closing.signal.aborted) return;
        // The sessions announced too: a pass shares a batch of what is due among the accounts, which may end before them.
        if (everything) void this.#passOverEverything();
        for (const session of sessions) this.#next(AS_TIME_GOES, session).catch(reportUnlessUnavailable);
      }),
    );
  }

  /** One pass over everything due at a time; another follows when one was asked for meanwhile, or the batch was full. */
  async #passOverEverything() {
    this.#passing = true;
    let full = false;
    try {
      full = (await this.#pass(AS_TIME_GOES)).length >= BATCH;
    } catch (error) {
      reportUnlessUnavailable(error);
    } finally {
      this.#passing = false;
    }
    if (full || this.#everythingDue) this.#kick();
  }

  /** Claims events due by real time `dueByMs` whose turn it is, of all accounts or of one, and starts their attempts. */
  async #pass(dueByMs: number, scope: Scope = {}): Promise<DueEvent[]> {
    const readingFrom = this.#store.accounts.readingFrom;
    const claimed = await this.#store.outbox.claimDue(this.#terms(dueByMs), BATCH, scope);
    this.#start(claimed, dueByMs, readingFrom);
    return claimed;
  }

  /** Claims the session's event whose turn it is, when it is due by real time `dueByMs`, and starts its attempt. */
  async #next(dueByMs: number, session: SessionKey) {
    const readingFrom = this.#store.accounts.readingFrom;
    const claimed = await this.#store.outbox.claimNext(this.#terms(dueByMs), session);
    if (claimed) this.#start([claimed], dueByMs, readingFrom);
  }

  /** A claim's terms: this process's, for as long as an attempt takes, of events due by `dueByMs` or now, whichever is earlier. */
  #terms(dueByMs: number, faults: readonly FaultRow[] = []): ClaimTerms {
    const now = this.#store.clock.now();
    return { claim: this.#claim, untilMs: now + this.#leaseMs(faults), dueByMs: Math.min(dueByMs, now) };
  }

  /**
   * Makes every attempt of the account due by real time `targetMs` (its clock's time then, less
   * its offset), and resolves once none is left to make or under way: what `clock/advance`
   * waits for. The target is fixed before the first pass, so a retry or a new event that comes
   * due after it waits for the next advance or for real time. A session's events go one at a
   * time and its first failure holds the rest (the order rule), while sessions go side by
   * side: with a receiver that never answers, an advance waits about one delivery timeout.
   */
  async deliverDue(account: Account, targetMs: number): Promise<{ made: number; stillDue: number }> {
    let made = 0;
    /** Events another process holds (it claimed them first): the advance waits for their attempts too. */
    const heldElsewhere = new Set<number>();
    while (!this.#closing.signal.aborted) {
      const claimed = await this.#pass(targetMs, { accountId: account.id });
      // Due here again: its holder's lease ran out without an attempt recorded, and this process makes it.
      for (const { seq } of claimed) heldElsewhere.delete(seq);
      // Waiting for other accounts' attempts as well only makes the advance answer later.
      // Stryker disable next-line MethodExpression,ConditionalExpression: see above
      const running = [...this.#inFlight.values()].filter((f) => f.accountId === account.id).map((f) => f.done);
      if (running.length > 0) {
        for (const attempts of await Promise.all(running)) made += attempts;
        continue;
      }
      const held = await this.#store.outbox.claimedFor(account.id, targetMs);
      if (held.length === 0) break;
      for (const seq of held) heldElsewhere.add(seq);
      await sleep(HELD_POLL_MS, undefined, { signal: this.#closing.signal }).catch(() => {});
    }
    return { made: made + heldElsewhere.size, stillDue: await this.#store.outbox.countDueFor(account.id, targetMs) };
  }

  /**
   * Sends one event now, whatever its session's order (a redelivery asked for by name), after
   * any attempt of its session under way here, and resolves once an attempt made after the call
   * is recorded, whichever process made it: true then, false when the event is gone (its account
   * reset) or the sandbox closed.
   */
  async redeliver(key: DueKey & { id: string }): Promise<boolean> {
    const session = `${key.accountId}/${key.sessionId}`;
    for (let busy = this.#inFlight.get(session); busy; busy = this.#inFlight.get(session)) await busy.done;
    const before = await this.#store.transaction(() => this.#store.outbox.redeliver(key.accountId, key.id, this.#store.clock.now()));
    // Due now, the event may be claimed by another process's pass first: its attempt is the one. Should that
    // process die before recording it, its lease runs out and this one tries again.
    let retryAt = 0;
    while (!this.#closing.signal.aborted) {
      const event = await this.#store.outbox.get(key.accountId, key.id);
      const attempts = event?.attempts;
      // Gone, or back to waiting: its account's listener left meanwhile, and it has no URL.
      if (attempts === undefined || before === undefined || event!.state === "waiting") return false;
      if (attempts !== before) return true;
      // Another process's claim is polled for on real time: only its lease is measured, on the sandbox's clock.
      if (this.#store.clock.now() < retryAt) {
        await sleep(HELD_POLL_MS, undefined, { signal: this.#closing.signal }).catch(() => {});
        continue;
      }
      const readingFrom = this.#store.accounts.readingFrom;
      const claimed = await this.#store.outbox.claimOne(key.seq, this.#terms(this.#store.clock.now()));
      if (claimed) this.#start([claimed], null, readingFrom);
      await this.#inFlight.get(session)?.done;
      retryAt = this.#store.clock.now() + this.#leaseMs([]);
    }
    return false;
  }

  /**
   * How long a claim holds: long enough for the attempt, its delay and the receiver's whole timeout, and a second to
   * record it (a duplicate fault's extra attempt comes after, the claim given up with the outcome). No longer: a killed
   * process's events wait this long for another to take them.
   */
  #leaseMs(faults: readonly FaultRow[]) {
    return this.#transport.timeoutMs + (faults.find((f) => f.effect === "delay")?.delay_ms ?? 0) + 1000;
  }

  /** Stops delivering; attempts under way are abandoned unrecorded, and made again after a restart. */
  async close() {
    this.#stopTicking?.();
    this.#closing.abort();
    await Promise.all([...this.#inFlight.values()].map((f) => f.done));
    // What this process claimed and did not record is free for any process at once, not when its lease ends.
    await this.#store.outbox.releaseClaims(this.#claim).catch(reportUnlessUnavailable);
  }

  /**
   * Starts the attempts of events claimed, one session's at a time: each session's next event
   * goes once the one before is done with, claimed with its outcome. `dueByMs`: the time the pass
   * claimed them for (null: an event named, as it is); `readingFrom`: when the claim read their
   * accounts' clocks.
   */
  #start(claimed: readonly DueEvent[], dueByMs: number | null, readingFrom: number) {
    for (const event of claimed) {
      const session = `${event.accountId}/${event.sessionId}`;
      // A pass read before the sandbox closed starts nothing after; an event of a session under way here is given back
      // for a later pass.
      if (this.#closing.signal.aborted || this.#inFlight.has(session)) {
        // Its session's turn comes once the attempt under way here ends.
        this.#deferred.set(session, this.#store.outbox.releaseClaim(event.seq, this.#claim).catch(reportUnlessUnavailable));
        continue;
      }
      const done = this.#session(event, dueByMs, readingFrom)
        .catch((error: unknown) => {
          reportUnlessUnavailable(error);
          return 0;
        })
        .finally(() => {
          this.#inFlight.delete(session);
          const released = this.#deferred.get(session);
          this.#deferred.delete(session);
          void released?.then(() => this.#kick({ accountId: event.accountId, sessionId: event.sessionId }));
        });
      this.#inFlight.set(session, { accountId: event.accountId, done });
    }
  }

  /** Delivers a claimed event, then its session's next ones, each claimed with the outcome before it; resolves to the attempts made. */
  async #session(first: DueEvent, dueByMs: number | null, readingFrom: number): Promise<number> {
    let made = 0;
    for (let event: DueEvent | undefined = first; event && !this.#closing.signal.aborted; ) {
      const outcome = await this.#deliver(event, dueByMs, readingFrom);
      if (outcome.made) made++;
      event = outcome.next;
      readingFrom = outcome.readingFrom;
    }
    return made;
  }

  /** Makes the attempt of a claimed event: the session's newest instead, under a shuffle fault. */
  async #deliver(claimed: DueEvent, dueByMs: number | null, readingFrom: number): Promise<Delivered> {
    const faults = claimed.deliveryFaults ? await this.#store.faults.forDelivery(claimed.accountId) : [];
    const shuffle = dueByMs === null ? undefined : faults.find((f) => f.effect === "shuffle");
    let event = claimed;
    if (shuffle) {
      const newest = await this.#store.outbox.newestPending(claimed, Math.min(dueByMs!, this.#store.clock.now()));
      const taken = newest.seq === claimed.seq ? undefined : await this.#store.outbox.claimOne(newest.seq, this.#terms(dueByMs!, faults));
      if (taken) {
        await this.#store.outbox.releaseClaim(claimed.seq, this.#claim);
        event = taken;
      }
    }
    // A delay fault makes the attempt wait: its claim is held that much longer.
    if (faults.some((f) => f.effect === "delay"))
      await this.#store.outbox.extendClaim(event.seq, this.#claim, this.#terms(0, faults).untilMs);
    const acting = faults.filter((f) => f.effect !== "shuffle" || (f === shuffle && event.seq !== claimed.seq));
    return this.#attempt(event, acting, dueByMs, readingFrom);
  }

  /** One attempt of the event, and the duplicate a duplicate fault adds to an acknowledged one. */
  async #attempt(event: DueEvent, faults: readonly FaultRow[], dueByMs: number | null, readingFrom: number): Promise<Delivered> {
    const account = this.#store.accounts.of({ id: event.accountId, clockOffsetMs: event.clockOffsetMs }, readingFrom);
    const delayed = faults.find((f) => f.effect === "delay");
    // Cut short when the sandbox closes; the attempt is then not made, and made after a restart.
    if (delayed) await sleepOn(this.#store.clock, delayed.delay_ms!, this.#closing.signal);
    const first = await makeAttempt(this.#store.clock, this.#transport, event, account, event.attempts + 1, this.#closing.signal);
    if (first === "nowhere") {
      await this.#store.outbox.wait(event.accountId, event.seq, this.#claim);
      return { made: false, readingFrom };
    }
    if (!first) return { made: false, readingFrom };
    const { succeeded } = first;
    const delay = this.#schedule[first.attempt - 1];
    // Counted from the attempt's end on the clock it was made by: a clock advanced while it was under way brings its
    // retry due as it would have had the attempt been recorded before the advance.
    const nextAttemptAtMs = succeeded || delay === undefined ? null : first.attemptedAtMs + first.durationMs + jittered(delay * 1000);
    const nextDueMs = nextAttemptAtMs === null ? null : realTime(account, nextAttemptAtMs);
    const applied = faults.filter((f) => f.effect !== "duplicate");
    const duplicate = faults.find((f) => f.effect === "duplicate");
    // The session's next event is claimed with this outcome, unless a fault is to act on it first (a duplicate of this one).
    const claimNext = dueByMs !== null && !(succeeded && duplicate);
    const attempt = { ...first, nextAttemptAtMs, nextDueMs, faults: applied.map((f) => f.effect) };
    const nextReading = this.#store.accounts.readingFrom;
    // Not recorded when this process's lease ran out and another took the event: that one records it.
    const { recorded, next } = await this.#store.outbox.finish(attempt, this.#claim, claimNext ? this.#terms(dueByMs!) : undefined);
    if (recorded) for (const fault of applied) await this.#store.faults.acted(fault);
    // The retry goes when it is due, not at the tick after: its session's turn, claimed on its own, never a pass over everything.
    if (recorded && nextDueMs !== null)
      this.#store.clock.setTimer(nextDueMs - this.#store.clock.now(), () =>
        this.#kick({ accountId: event.accountId, sessionId: event.sessionId }),
      );
    if (recorded && succeeded && duplicate) {
      const again = await makeAttempt(this.#store.clock, this.#transport, event, account, first.attempt + 1, this.#closing.signal);
      if (again && again !== "nowhere")
        await this.#store.transaction(async () => {
          await this.#store.outbox.recordExtraAttempt({ ...again, nextAttemptAtMs: null, nextDueMs: null, faults: ["duplicate"] });
          await this.#store.faults.acted(duplicate);
        });
    }
    return { made: true, next, readingFrom: nextReading };
  }
}

/** What became of a claimed event: whether an attempt was made, and its session's next event, claimed with the outcome. */
interface Delivered {
  made: boolean;
  next?: DueEvent;
  readingFrom: number;
}

/** A delay drawn uniformly within RETRY_JITTER of `ms`. */
export const jittered = (ms: number) => Math.round(ms * (1 + (Math.random() * 2 - 1) * RETRY_JITTER));
