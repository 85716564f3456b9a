// The payment flow on the account's clock (sandbox guide, point 8). Paying a session creates a
// transaction, completes it and completes the session; the transaction settles a delay later.
// Failing creates and fails a transaction and leaves the session open for another try. A
// session with no completed payment expires at `expires_at`. Each state change and the event
// that announces it are written in one SQLite transaction: the outbox.
import type { components } from "../../generated/openapi.ts";
import { accountNow, isoTime } from "./clock.ts";
import { DEFAULT_SETTLEMENT_DELAY_SECONDS } from "./defaults.ts";
import { sessionEvent, transactionEvent } from "./events.ts";
import { newId } from "./ids.ts";
import type { Account } from "./store/accounts.ts";
import type { Store } from "./store/index.ts";

type PaymentSession = components["schemas"]["PaymentSession"];
type Transaction = components["schemas"]["Transaction"];

/** What the customer does on the payment page (or a test through `simulate`). */
export type Outcome = { outcome: "pay" } | { outcome: "fail"; failure_reason: string };

export type PaymentResult =
  | { done: { session: PaymentSession; transaction: Transaction } }
  | { refused: "not_found" }
  | { refused: "completed" | "expired"; session: PaymentSession };


export class Payments {
  readonly #store: Store;
  readonly #settlementDelayMs: number;

  constructor(store: Store, settlementDelaySeconds = DEFAULT_SETTLEMENT_DELAY_SECONDS) {
    this.#store = store;
    this.#settlementDelayMs = settlementDelaySeconds * 1000;
    store.dueJobs.add((account, now) => this.#expire(account, now));
    store.dueJobs.add((account, now) => this.#settle(account, now));
  }

  /** The customer pays, or fails to pay, the session; refused when it is unknown or no longer open. */
  attempt(account: Account, sessionId: string, outcome: Outcome): PaymentResult {
    const store = this.#store;
    return store.transaction(() => {
      store.dueJobs.runFor(account); // a session past its expiry is expired before anyone may pay it
      const session = store.sessions.get(account.id, sessionId);
      if (!session) return { refused: "not_found" };
      if (session.status !== "created") return { refused: session.status, session };

      const now = accountNow(account);
      const at = isoTime(now);
      const created: Transaction = {
        id: newId("txn"),
        status: "created",
        session_id: session.id,
        counterparty_id: session.counterparty_id,
        ...(session.order_id === undefined ? {} : { order_id: session.order_id }),
        amount: session.amount,
        currency: session.currency,
        created_at: at,
        updated_at: at,
      };
      store.transactions.create(account.id, created, now);
      store.events.add(account.id, transactionEvent("transaction-created", created, at), now);

      if (outcome.outcome === "fail") {
        const failed: Transaction = { ...created, status: "failed", failure_reason: outcome.failure_reason };
        store.transactions.update(account.id, failed, now);
        store.events.add(account.id, transactionEvent("transaction-failed", failed, at), now);
        return { done: { session, transaction: failed } };
      }

      const completed: Transaction = { ...created, status: "completed" };
      store.transactions.update(account.id, completed, now, now + this.#settlementDelayMs);
      store.events.add(account.id, transactionEvent("transaction-completed", completed, at), now);
      store.sessions.complete(account.id, session.id, now);
      const paid: PaymentSession = { ...session, status: "completed" };
      store.events.add(account.id, sessionEvent("session-completed", paid, at), now);
      return { done: { session: paid, transaction: completed } };
    });
  }

  /** Sessions with no completed payment at `expires_at` expire, and say so. */
  #expire(account: Account | null, now: number) {
    for (const { accountId, session } of this.#store.sessions.expireDue(account?.id ?? null, now)) {
      this.#store.events.add(accountId, sessionEvent("session-expired", session, session.expires_at), Date.parse(session.expires_at));
    }
  }

  /** Completed transactions settle once their delay has passed. */
  #settle(account: Account | null, now: number) {
    for (const { accountId, transaction, settlesAtMs } of this.#store.transactions.dueToSettle(account?.id ?? null, now)) {
      const settled: Transaction = { ...transaction, status: "settled", updated_at: isoTime(settlesAtMs) };
      this.#store.transactions.update(accountId, settled, settlesAtMs);
      this.#store.events.add(accountId, transactionEvent("transaction-settled", settled, settled.updated_at), settlesAtMs);
    }
  }
}
