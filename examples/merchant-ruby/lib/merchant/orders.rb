# frozen_string_literal: true

# The merchant's orders, in memory and keyed by order_id: what a shop keeps in its database. An
# order's status is worked out from what is known of its payment (the transactions as last fetched,
# the session's state), never stepped by each event: so an event that comes late, twice or out of
# order cannot move an order backwards.
module Merchant
  class Orders
    def initialize
      @orders = {}
      # Deliveries are handled on threads of their own, and may be about the same order.
      @lock = Mutex.new
    end

    # Copies: the answer is written out after the lock is let go, while deliveries may change the orders.
    def list
      @lock.synchronize { Marshal.load(Marshal.dump(@orders.values)) }
    end

    def get(order_id)
      @lock.synchronize { Marshal.load(Marshal.dump(@orders[order_id])) }
    end

    # From a transaction fetched from the service, the truth about the payment: returns the change, if any, in words.
    def apply_transaction(transaction)
      @lock.synchronize do
        order = find(transaction)
        next nil unless order

        order["transactions"][transaction.fetch("id")] = transaction.fetch("status")
        order["failure_reason"] = transaction["failure_reason"] if transaction["failure_reason"]
        update(order)
      end
    end

    # From a session event (created, completed or expired): returns the change, if any, in words.
    def apply_session(data, status)
      @lock.synchronize do
        order = find(data)
        next nil unless order

        # A session only moves on from created; a late session-created changes nothing.
        order["session_status"] = status unless status == "created"
        update(order)
      end
    end

    private

    # The order a payment belongs to; one is opened for a payment started elsewhere (./checkout is another process).
    def find(ref)
      order_id = ref["order_id"]
      return @orders.values.find { |order| order["session_id"] == ref["session_id"] } if order_id.nil?

      @orders[order_id] ||= {
        "order_id" => order_id,
        "session_id" => ref.fetch("session_id"),
        "amount" => ref.fetch("amount"),
        "currency" => ref.fetch("currency"),
        "status" => "pending",
        "session_status" => "created",
        "transactions" => {},
        "history" => ["pending"]
      }
    end

    def update(order)
      before = order["status"]
      seen = order["transactions"].values
      order["status"] =
        if seen.include?("settled") then "settled"
        elsif seen.include?("completed") || order["session_status"] == "completed" then "paid"
        elsif order["session_status"] == "expired" then "expired"
        elsif seen.include?("failed") then "failed"
        else "pending"
        end
      return nil if order["status"] == before

      order["history"] << order["status"]
      "order #{order["order_id"]}: #{before} -> #{order["status"]}"
    end
  end
end
