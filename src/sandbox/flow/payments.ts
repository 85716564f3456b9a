// The payment flow on the account's clock. Paying a session creates a
// transaction, completes it and completes the session; the transaction settles a delay later.
// Failing creates and fails a transaction and leaves the session open for another try. A
// session with no completed payment expires at `expires_at`. Each state change and the event
// that announces it are written in one transaction: the outbox.
import type { components } from "../../../generated/openapi.ts";
import { announce, announceAll } from "./announce.ts";
import { accountNow, realTime } from "./clock.ts";
import { isoTime } from "../../lib/time.ts";
import { DEFAULT_SETTLEMENT_DELAY_SECONDS } from "./defaults.ts";
import { newId } from "../../lib/ids.ts";
import type { Account } from "../store/accounts.ts";
import type { Store } from "../store/index.ts";
import type { SessionRecord } from "../store/sessions.ts";

type Transaction = components["schemas"]["Transaction"];

/** What the customer does on the payment page (or a test through `simulate`). */
export type Outcome = { outcome: "pay" } | { outcome: "fail"; failure_reason: string };

export type PaymentResult =
  | { done: { session: SessionRecord; transaction: Transaction } }
  | { refused: "not_found" }
  | { refused: "completed" | "expired"; session: SessionRecord };

export class Payments {
  readonly #store: Store;
  readonly #settlementDelayMs: number;

  constructor(store: Store, settlementDelaySeconds = DEFAULT_SETTLEMENT_DELAY_SECONDS) {
    this.#store = store;
    this.#settlementDelayMs = settlementDelaySeconds * 1000;
  }

  /** The customer pays, or fails to pay, the session; refused when it is unknown or no longer open. */
  attempt(account: Account, sessionId: string, outcome: Outcome): Promise<PaymentResult> {
    const store = this.#store;
    return store.transaction(async (): Promise<PaymentResult> => {
      // Two payments of one session at once, in any process: the second sees what the first did.
      await store.lockSession(account.id, sessionId);
      const session = await store.sessions.get(account.id, sessionId);
      if (!session) return { refused: "not_found" };
      const now = accountNow(store.clock, account);
      // A session past its expiry is expired before anyone may pay it.
      if (session.status === "created" && Date.parse(session.expires_at) <= now) {
        await this.expireDue(account.id, store.clock.now());
        return { refused: "expired", session: { ...session, status: "expired" } };
      }
      if (session.status !== "created") return { refused: session.status, session };

      // The transaction is created and, in the same instant, fails or completes: it is written as it ends, and each of
      // its changes announced, in their order.
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
      const transactionBecame = (status: Transaction["status"]) => ({ session: session.id, transaction: created.id, status });
      if (outcome.outcome === "fail") {
        const failed: Transaction = { ...created, status: "failed", failure_reason: outcome.failure_reason };
        await store.transactions.create(account.id, failed, now);
        await announce(store, account.id, [transactionBecame("created"), transactionBecame("failed")], now);
        return { done: { session, transaction: failed } };
      }
      const completed: Transaction = { ...created, status: "completed" };
      await store.transactions.create(account.id, completed, now, realTime(account, now + this.#settlementDelayMs));
      await store.sessions.complete(account.id, session.id);
      const sessionCompleted = { session: session.id, status: "completed" };
      await announce(store, account.id, [transactionBecame("created"), transactionBecame("completed"), sessionCompleted], now);
      return { done: { session: { ...session, status: "completed" }, transaction: completed } };
    });
  }

  /**
   * Sessions with no completed payment at `expires_at` expire, and say so at that time: of one account, or all when
   * `accountId` is null.
   */
  async expireDue(accountId: number | null, now: number) {
    const expired = await this.#store.sessions.expireDue(accountId, now);
    // Each account's at once: their events in one statement.
    for (const [owner, sessions] of byAccount(expired)) {
      const each = sessions.map(({ session }) => ({
        changes: [{ session: session.id, status: "expired" }],
        atMs: Date.parse(session.expires_at),
      }));
      await announceAll(this.#store, owner, each);
    }
  }

  /** Completed transactions settle once their delay has passed, and say so at that time: of one account, or all. */
  async settleDue(accountId: number | null, now: number) {
    const settled = await this.#store.transactions.settleDue(accountId, now);
    // Each account's at once: their events in one statement.
    for (const [owner, transactions] of byAccount(settled)) {
      const each = transactions.map((t) => ({
        changes: [{ session: t.sessionId, transaction: t.id, status: "settled" }],
        atMs: t.settledAtMs,
      }));
      await announceAll(this.#store, owner, each);
    }
  }
}

/** Rows by their account, in the order met. */
function byAccount<Row extends { accountId: number }>(rows: readonly Row[]): Map<number, Row[]> {
  const grouped = new Map<number, Row[]>();
  for (const row of rows) {
    const ofAccount = grouped.get(row.accountId);
    if (ofAccount) ofAccount.push(row);
    else grouped.set(row.accountId, [row]);
  }
  return grouped;
}
