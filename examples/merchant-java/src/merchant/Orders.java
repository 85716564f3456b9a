package merchant;

import java.math.BigDecimal;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The shop's orders, in memory and keyed by order id: what a real shop keeps in its database.
 * An order's status is worked out from what is known of its payment (the transactions as last
 * fetched, the session's state), never stepped by each event: an event that comes late, twice
 * or out of order cannot move an order backwards. Synchronized: deliveries come concurrently.
 */
public final class Orders {
    /** An order; status is pending, paid, failed, expired or settled. */
    private static final class Order {
        final String orderId;
        final String sessionId;
        final BigDecimal amount;
        final String currency;
        String status = "pending";
        /** As its last session event said. */
        String sessionStatus = "created";
        /** Every transaction seen, by id, with its status as last fetched. */
        final Map<String, String> transactions = new LinkedHashMap<>();
        String failureReason;
        /** The statuses it has had, oldest first. */
        final List<String> history = new ArrayList<>(List.of("pending"));

        Order(String orderId, String sessionId, BigDecimal amount, String currency) {
            this.orderId = orderId;
            this.sessionId = sessionId;
            this.amount = amount;
            this.currency = currency;
        }
    }

    private final Map<String, Order> orders = new LinkedHashMap<>();

    /** Every order as JSON values, oldest first. */
    public synchronized List<Object> list() {
        List<Object> list = new ArrayList<>();
        for (Order order : orders.values()) {
            Map<String, Object> json = new LinkedHashMap<>();
            json.put("order_id", order.orderId);
            json.put("session_id", order.sessionId);
            json.put("amount", order.amount);
            json.put("currency", order.currency);
            json.put("status", order.status);
            json.put("session_status", order.sessionStatus);
            json.put("transactions", new LinkedHashMap<>(order.transactions));
            if (order.failureReason != null) json.put("failure_reason", order.failureReason);
            json.put("history", new ArrayList<>(order.history));
            list.add(json);
        }
        return list;
    }

    /** From a transaction fetched from the service: the truth about the payment. Returns the change ("ORD-1: pending -> paid"), or null. */
    public synchronized String applyTransaction(PayinClient.Transaction transaction) {
        Order order = find(transaction.orderId(), transaction.sessionId(), transaction.amount(), transaction.currency());
        if (order == null) return null;
        order.transactions.put(transaction.id(), transaction.status());
        if (transaction.failureReason() != null) order.failureReason = transaction.failureReason();
        return update(order);
    }

    /** From a session event (created, completed or expired). Returns the change, or null. */
    public synchronized String applySession(Map<String, Object> data) {
        Order order = find((String) data.get("order_id"), (String) data.get("session_id"), (BigDecimal) data.get("amount"),
                (String) data.get("currency"));
        if (order == null) return null;
        // A session only moves on from created: a late session-created changes nothing.
        if (!"created".equals(data.get("status"))) order.sessionStatus = (String) data.get("status");
        return update(order);
    }

    /**
     * The order a payment belongs to. One is opened for a payment the shop has not seen yet:
     * ./checkout is another process, which tells the endpoint nothing.
     */
    private Order find(String orderId, String sessionId, BigDecimal amount, String currency) {
        if (orderId == null) {
            return orders.values().stream().filter((order) -> order.sessionId.equals(sessionId)).findFirst().orElse(null);
        }
        return orders.computeIfAbsent(orderId, (id) -> new Order(id, sessionId, amount, currency));
    }

    /** Works the order's status out again from what is known; returns the change, if any. */
    private static String update(Order order) {
        String from = order.status;
        var seen = order.transactions.values();
        if (seen.contains("settled")) order.status = "settled";
        else if (seen.contains("completed") || order.sessionStatus.equals("completed")) order.status = "paid";
        else if (order.sessionStatus.equals("expired")) order.status = "expired";
        else if (seen.contains("failed")) order.status = "failed";
        else order.status = "pending";
        if (order.status.equals(from)) return null;
        order.history.add(order.status);
        return "order " + order.orderId + ": " + from + " -> " + order.status;
    }
}
