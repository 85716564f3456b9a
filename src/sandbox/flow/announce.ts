// Every change the sandbox makes to a session or a transaction is announced by the event the
// AsyncAPI document gives that change (its rules: what an event is about, and the status it
// announces), put in the outbox in the change's own transaction.
import { EVENT_RULES, EVENT_TYPES, type PayinEventType } from "../../../generated/event-types.ts";
import type { Store } from "../store/index.ts";

/** A session that moved to `status`, or a transaction of it that did. */
export type Change = { session: string; status: string } | { session: string; transaction: string; status: string };

const announcing = new Map<string, PayinEventType>(
  EVENT_TYPES.map((type) => [`${EVENT_RULES[type].about} ${EVENT_RULES[type].status}`, type]),
);

/**
 * Puts the events that announce the changes of one session, in their order, in the outbox, made at
 * `atMs` on the account's clock. Call inside the changes' transaction.
 */
export function announce(store: Store, accountId: number, changes: readonly Change[], atMs: number) {
  return announceAll(store, accountId, [{ changes, atMs }]);
}

/** `announce` of the changes of several sessions of one account at once (what came due together). */
export function announceAll(store: Store, accountId: number, each: ReadonlyArray<{ changes: readonly Change[]; atMs: number }>) {
  return store.outbox.addAll(
    accountId,
    each.map(({ changes, atMs }) => ({ sessionId: changes[0]!.session, events: changes.map(eventOf), atMs })),
  );
}

function eventOf(change: Change) {
  const about = "transaction" in change ? "transaction" : "session";
  const type = announcing.get(`${about} ${change.status}`);
  if (type === undefined) throw new Error(`No event of the contract announces a ${about} that became ${change.status}`);
  return { type, ...("transaction" in change ? { transactionId: change.transaction } : {}) };
}
