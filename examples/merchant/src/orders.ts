// The merchant's orders, in memory and keyed by order_id: what a shop keeps in its database.
// An order's status is worked out from what is known of its payment (the transactions as last
// fetched, the session's state), never stepped by each event: so an event that comes late,
// twice or out of order cannot move an order backwards.
import type { SessionStatus, Transaction, TransactionStatus } from "payin-acceptance-contract";

export type OrderStatus = "pending" | "paid" | "failed" | "expired" | "settled";

export interface Order {
  order_id: string;
  session_id: string;
  amount: number;
  currency: string;
  status: OrderStatus;
  /** The session's state, as its last event said. */
  session_status: SessionStatus;
  /** Every transaction seen for the order, with its status as last fetched. */
  transactions: Record<string, TransactionStatus>;
  /** Why the last failed transaction failed. */
  failure_reason?: string;
  /** The statuses the order has had, oldest first. */
  history: OrderStatus[];
}

/** What identifies an order in a session, a session event or a transaction. */
interface OrderRef {
  order_id?: string;
  session_id: string;
  amount: number;
  currency: string;
}

export interface OrderChange {
  order: Order;
  from: OrderStatus;
}

export function createOrders() {
  const orders = new Map<string, Order>();

  /** The order a payment belongs to; one is opened for a payment started elsewhere (another process's checkout). */
  function find(ref: OrderRef): Order | undefined {
    const known = ref.order_id === undefined ? [...orders.values()].find((o) => o.session_id === ref.session_id) : orders.get(ref.order_id);
    return known ?? (ref.order_id === undefined ? undefined : open({ ...ref, order_id: ref.order_id }));
  }

  function open({ order_id, session_id, amount, currency }: Required<OrderRef>): Order {
    const order: Order = {
      order_id,
      session_id,
      amount,
      currency,
      status: "pending",
      session_status: "created",
      transactions: {},
      history: ["pending"],
    };
    orders.set(order.order_id, order);
    return order;
  }

  /** Works the status out again; returns the change, if any. */
  function update(order: Order): OrderChange | undefined {
    const from = order.status;
    const seen = Object.values(order.transactions);
    order.status = seen.includes("settled")
      ? "settled"
      : seen.includes("completed") || order.session_status === "completed"
        ? "paid"
        : order.session_status === "expired"
          ? "expired"
          : seen.includes("failed")
            ? "failed"
            : "pending";
    if (order.status === from) return undefined;
    order.history.push(order.status);
    return { order, from };
  }

  return {
    get: (orderId: string): Order | undefined => orders.get(orderId),
    list: (): Order[] => [...orders.values()],

    /** At checkout: a new order, pending until its payment says otherwise. */
    open: (ref: Required<OrderRef>): Order => orders.get(ref.order_id) ?? open(ref),

    /** From a transaction fetched from the service: the truth about the payment. */
    applyTransaction(transaction: Transaction): OrderChange | undefined {
      const order = find(transaction);
      if (!order) return undefined;
      order.transactions[transaction.id] = transaction.status;
      if (transaction.failure_reason !== undefined) order.failure_reason = transaction.failure_reason;
      return update(order);
    },

    /** From a session event: created, completed or expired. */
    applySession(event: OrderRef & { status: SessionStatus }): OrderChange | undefined {
      const order = find(event);
      if (!order) return undefined;
      // A session only moves on from created; a late session-created changes nothing.
      if (event.status !== "created") order.session_status = event.status;
      return update(order);
    },
  };
}

export type Orders = ReturnType<typeof createOrders>;
