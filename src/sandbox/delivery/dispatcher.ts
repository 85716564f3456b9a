// Delivers the outbox's events to each account's webhook URL (decision D14): a 2xx within the
// transport's timeout acknowledges, anything else is retried with the same webhook-id on a
// schedule measured on the account's clock. The events of one session go one at a time, in the
// order they were made, each once the earlier ones are acknowledged or have failed for good (the
// order rule, as Svix's ordered mode). Several processes on one database each deliver what is due:
// events are claimed first, with a lease that another process takes over if this one dies before
// recording an attempt, and each outcome is written with the claim of its session's next event.
// This is the schedule only: what the claims take is the outbox's, what the account's faults do to
// an attempt is fault-effects.ts's, and how it reaches the receiver is the transport's.
import { randomUUID } from "node:crypto";
import { sleepOn } from "../../lib/clock.ts";
import { RETRY_SCHEDULE_SECONDS } from "../../lib/contract-facts.ts";
import type { Account } from "../store/accounts.ts";
import type { ClaimTerms, DueEvent, DueKey, Scope, SessionKey } from "../store/outbox.ts";
import type { Store } from "../store/index.ts";
import { reportUnlessUnavailable } from "../store/database.ts";
import { HttpTransport } from "./http-transport.ts";
import { planAttempt } from "./fault-effects.ts";
import { nextAttempt } from "./retry-schedule.ts";
import { WakeUps } from "./wake-ups.ts";
import type { Transport } from "./transport.ts";

/** How often retries that real time brought due are looked for. */
const TICK_MS = 1000;
/** Due events read at once; more wait for the next round. */
const BATCH = 256;
/** How often a wait on another process's attempt looks whether it is recorded. */
const HELD_POLL_MS = 20;
/** The horizon of delivery as time goes: whatever is due when each claim is made (an advance has a fixed target). */
const AS_TIME_GOES = Number.POSITIVE_INFINITY;

export interface DeliverySettings {
  /** Delays in seconds of sandbox time before each retry; its length is the number of retries. */
  retryScheduleSeconds?: readonly number[];
  /** How each attempt reaches its receiver: HTTP to the registered URL, with its default timeout, unless another is given. */
  transport?: Transport;
}

/** A session's attempts under way here, and how many they made, one after another. */
type InFlight = { accountId: number; done: Promise<number> };

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
   * Sessions whose events a commit here announced while an attempt of theirs was under way here, since that attempt's
   * outcome was sent: what the outcome's claim of the next event may not have seen. Looked at once the attempt ends; a
   * session no commit here announced meanwhile needs no look (another process's commit looks for itself: its claim
   * waits for an outcome being recorded, and one recorded after it sees its event).
   */
  readonly #woken = new Set<string>();
  /** This process's claims on the events it is sending, released when it closes. */
  readonly #claim = randomUUID();
  readonly #closing = new AbortController();
  readonly #wakeUps: WakeUps;

  constructor(store: Store, settings: DeliverySettings = {}) {
    this.#store = store;
    this.#schedule = settings.retryScheduleSeconds ?? RETRY_SCHEDULE_SECONDS;
    this.#transport = settings.transport ?? new HttpTransport();
    this.#wakeUps = new WakeUps({
      session: (session) => this.#next(AS_TIME_GOES, session),
      everything: async () => (await this.#pass(AS_TIME_GOES)).length >= BATCH,
      // Delivery is the sandbox's own work, on no account's share of the database, whichever request's commit woke it.
      apart: (start) => store.apart(start),
      stopped: () => this.#closing.signal.aborted,
    });
    // Whatever a transaction puts in the outbox goes out once it has committed, not at the next tick: claimed with it
    // where the engine can, else claimed then.
    store.outbox.onCommitted((session) => this.#wakeUps.wake(session));
    store.outbox.claimAsAdded(
      () => (this.#closing.signal.aborted ? undefined : this.#terms(AS_TIME_GOES)),
      (events) => store.apart(() => this.#start(events, { turn: true, dueByMs: AS_TIME_GOES })),
    );
  }

  /**
   * Delivers from now on: what a previous run left undelivered (with --db) now, each event as
   * its transaction commits, and each retry as real time brings it due.
   */
  start() {
    this.#wakeUps.every(this.#store.clock, TICK_MS);
  }

  /** Claims events due by real time `dueByMs` whose turn it is, of all accounts or of one, and starts their attempts. */
  async #pass(dueByMs: number, scope: Scope = {}): Promise<DueEvent[]> {
    const claimed = await this.#store.outbox.claimDue(this.#terms(dueByMs), BATCH, scope);
    this.#start(claimed, { turn: true, dueByMs });
    return claimed;
  }

  /** Claims the session's event whose turn it is, when it is due by real time `dueByMs`, and starts its attempt. */
  async #next(dueByMs: number, session: SessionKey) {
    const key = `${session.accountId}/${session.sessionId}`;
    // Its turn is not come while its attempt is under way here: looked at once the attempt ends, if its outcome missed it.
    if (this.#inFlight.has(key)) return void this.#woken.add(key);
    const claimed = await this.#store.outbox.claimNext(this.#terms(dueByMs), session);
    if (claimed) this.#start([claimed], { turn: true, dueByMs });
  }

  /** A claim's terms: this process's, for as long as an attempt takes, of events due by `dueByMs` or now, whichever is earlier. */
  #terms(dueByMs: number): ClaimTerms {
    const now = this.#store.clock.now();
    return { claim: this.#claim, untilMs: now + this.#leaseMs, dueByMs: Math.min(dueByMs, now) };
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
      await sleepOn(this.#store.clock, HELD_POLL_MS, this.#closing.signal);
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
      if (this.#store.clock.now() < retryAt) {
        await sleepOn(this.#store.clock, HELD_POLL_MS, this.#closing.signal);
        continue;
      }
      const claimed = await this.#store.outbox.claimOne(key.seq, this.#terms(this.#store.clock.now()));
      if (claimed) this.#start([claimed], { turn: false });
      await this.#inFlight.get(session)?.done;
      retryAt = this.#store.clock.now() + this.#leaseMs;
    }
    return false;
  }

  /**
   * How long a claim holds: the receiver's whole timeout, and a second to record the attempt (an attempt made to wait
   * holds its claim longer). No longer: a killed process's events wait this long for another to take them.
   */
  get #leaseMs() {
    return this.#transport.timeoutMs + 1000;
  }

  /** Stops delivering; attempts under way are abandoned unrecorded, and made again after a restart. */
  async close() {
    this.#wakeUps.stop();
    this.#closing.abort();
    await Promise.all([...this.#inFlight.values()].map((f) => f.done));
    // What this process claimed and did not record is free for any process at once, not when its lease ends.
    await this.#store.outbox.releaseClaims(this.#claim).catch(reportUnlessUnavailable);
  }

  /**
   * Starts the attempts of events claimed, one session's at a time: each session's next event goes once the one before
   * is done with, claimed with its outcome when `occasion` is its turn.
   */
  #start(claimed: readonly DueEvent[], occasion: Occasion) {
    for (const event of claimed) {
      const session = `${event.accountId}/${event.sessionId}`;
      // A pass read before the sandbox closed starts nothing after; an event of a session under way here is given back
      // for a later pass.
      if (this.#closing.signal.aborted || this.#inFlight.has(session)) {
        // Its session's turn comes once the attempt under way here ends.
        this.#deferred.set(session, this.#store.outbox.releaseClaim(event.seq, this.#claim).catch(reportUnlessUnavailable));
        continue;
      }
      const done = this.#session(event, occasion)
        .catch((error: unknown) => {
          reportUnlessUnavailable(error);
          return 0;
        })
        .finally(() => {
          this.#inFlight.delete(session);
          const released = this.#deferred.get(session);
          this.#deferred.delete(session);
          const woken = this.#woken.delete(session);
          if (released || woken)
            void (released ?? Promise.resolve()).then(() => this.#wakeUps.wake({ accountId: event.accountId, sessionId: event.sessionId }));
        });
      this.#inFlight.set(session, { accountId: event.accountId, done });
    }
  }

  /** Delivers a claimed event, then its session's next ones, each claimed with the outcome before it; resolves to the attempts made. */
  async #session(first: DueEvent, occasion: Occasion): Promise<number> {
    let made = 0;
    for (let event: DueEvent | undefined = first; event && !this.#closing.signal.aborted; ) {
      const outcome = await this.#attempt(event, occasion);
      if (outcome.made) made++;
      event = outcome.next;
    }
    return made;
  }

  /** One attempt of a claimed event, its outcome recorded with the claim of its session's next event when that is due. */
  async #attempt(event: DueEvent, occasion: Occasion): Promise<Delivered> {
    const planned = planAttempt(this.#store, this.#transport, this.#claim, event);
    const made = await planned.make(this.#closing.signal);
    if (made === "nowhere") {
      await this.#store.outbox.wait(event.accountId, event.seq, this.#claim);
      return { made: false };
    }
    if (!made) return { made: false };
    const { nextAttemptAtMs, nextDueMs } = nextAttempt(this.#schedule, made, event.account);
    const attempt = { ...made, nextAttemptAtMs, nextDueMs, marks: planned.marks };
    const sent = this.#store.clock.now();
    const claimNext = occasion.turn && !planned.follows(made) ? this.#terms(occasion.dueByMs) : undefined;
    // What committed before the outcome is sent, its claim of the next event sees, when it claims what is due by now (an
    // advance's claims stop at its target).
    if (claimNext && occasion.turn && occasion.dueByMs >= sent) this.#woken.delete(`${event.accountId}/${event.sessionId}`);
    // Not recorded when this process's lease ran out and another took the event: that one records it.
    const { recorded, next } = await this.#store.outbox.finish(attempt, this.#claim, claimNext);
    // The retry goes when it is due, not at the tick after: its session's turn, claimed on its own, never a pass over everything.
    if (recorded && nextDueMs !== null)
      this.#store.clock.setTimer(nextDueMs - this.#store.clock.now(), () =>
        this.#wakeUps.wake({ accountId: event.accountId, sessionId: event.sessionId }),
      );
    if (recorded) await planned.recorded(made, this.#closing.signal);
    return { made: true, next };
  }
}

/** Why an event is sent: its turn in its session's order, claimed as due by a time; or a redelivery asked for by name. */
type Occasion = { turn: true; dueByMs: number } | { turn: false };

/** What became of a claimed event: whether an attempt was made, and its session's next event, claimed with the outcome. */
type Delivered = { made: boolean; next?: DueEvent };
