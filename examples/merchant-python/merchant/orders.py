"""The merchant's orders, in memory and keyed by order_id: what a shop keeps in its database.

An order's status is worked out from what is known of its payment (the transactions as last fetched,
the session's state), never stepped by each event: so an event that comes late, twice or out of order
cannot move an order backwards.
"""

from __future__ import annotations

import copy
import threading
from typing import Optional


class Orders:
    def __init__(self) -> None:
        self._orders: dict[str, dict] = {}
        # Deliveries are handled on threads of their own, and may be about the same order.
        self._lock = threading.Lock()

    def list(self) -> list[dict]:
        with self._lock:
            # Copies: the answer is written out after the lock is let go, while deliveries may change the orders.
            return copy.deepcopy(list(self._orders.values()))

    def get(self, order_id: str) -> Optional[dict]:
        with self._lock:
            return copy.deepcopy(self._orders.get(order_id))

    def apply_transaction(self, transaction: dict) -> Optional[str]:
        """From a transaction fetched from the service, the truth about the payment: returns the change, if any, in words."""
        with self._lock:
            order = self._find(transaction)
            if order is None:
                return None
            order["transactions"][transaction["id"]] = transaction["status"]
            if transaction.get("failure_reason") is not None:
                order["failure_reason"] = transaction["failure_reason"]
            return self._update(order)

    def apply_session(self, data: dict, status: str) -> Optional[str]:
        """From a session event (created, completed or expired): returns the change, if any, in words."""
        with self._lock:
            order = self._find(data)
            if order is None:
                return None
            # A session only moves on from created; a late session-created changes nothing.
            if status != "created":
                order["session_status"] = status
            return self._update(order)

    def _find(self, ref: dict) -> Optional[dict]:
        """The order a payment belongs to; one is opened for a payment started elsewhere (./checkout is another process)."""
        order_id = ref.get("order_id")
        if order_id is None:
            return next((o for o in self._orders.values() if o["session_id"] == ref["session_id"]), None)
        if order_id not in self._orders:
            self._orders[order_id] = {
                "order_id": order_id,
                "session_id": ref["session_id"],
                "amount": ref["amount"],
                "currency": ref["currency"],
                "status": "pending",
                "session_status": "created",
                "transactions": {},
                "history": ["pending"],
            }
        return self._orders[order_id]

    @staticmethod
    def _update(order: dict) -> Optional[str]:
        before = order["status"]
        seen = order["transactions"].values()
        if "settled" in seen:
            order["status"] = "settled"
        elif "completed" in seen or order["session_status"] == "completed":
            order["status"] = "paid"
        elif order["session_status"] == "expired":
            order["status"] = "expired"
        elif "failed" in seen:
            order["status"] = "failed"
        else:
            order["status"] = "pending"
        if order["status"] == before:
            return None
        order["history"].append(order["status"])
        return f"order {order['order_id']}: {before} -> {order['status']}"
