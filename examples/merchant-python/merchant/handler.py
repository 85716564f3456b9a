"""The webhook handler: from a delivery (its raw body and headers) to the answer, whatever the server.

Three rules, in this order:
  1. verify the delivery's signature and timestamp, before anything reads the body;
  2. dedupe on the event id: deliveries come at least once;
  3. on a transaction event, fetch the transaction and update the order from it: the transaction is the
     truth, the event only says that something changed.
Then answer 2xx. A delivery that fails verification is refused with 4xx; when our own work fails, the
event is not recorded as handled and the answer is 503: the service delivers it again.
"""

from __future__ import annotations

import json
import sys
import time
from typing import Callable, NamedTuple, Optional

from merchant.orders import Orders
from merchant.payin_client import PayinClient
from merchant.processed_events import ProcessedEvents
from merchant.verify import PROBLEM_TYPE_BASE, WebhookVerificationError, verify_webhook

SESSION_EVENTS = {"session-created": "created", "session-completed": "completed", "session-expired": "expired"}
TRANSACTION_EVENTS = {"transaction-created", "transaction-completed", "transaction-failed", "transaction-settled"}


class Answer(NamedTuple):
    status: int
    body: Optional[dict] = None


class WebhookHandler:
    def __init__(self, payin: PayinClient, orders: Orders, secrets: list[str], log: Callable[[str], None] = print):
        self.payin = payin
        self.orders = orders
        # More than one while the secret rotates: a delivery signed with any of them is the service's.
        self.secrets = secrets
        self.processed = ProcessedEvents()
        self.log = log

    # docs:handler:start
    def handle(self, body: bytes, headers) -> Answer:
        try:
            verify_webhook(body, headers, self.secrets, now=int(time.time()))
        except WebhookVerificationError as error:
            # Not a delivery the service made (forged, changed, replayed): refused, nothing handled.
            print(f"webhook refused: {error.reason}: {error}", file=sys.stderr)
            problem = error.to_problem()
            return Answer(problem["status"], problem)
        try:
            event = json.loads(body.decode("utf-8"))
        except ValueError as error:  # not UTF-8, or not JSON
            return Answer(400, invalid_event("webhook_invalid_payload", f"The body is not UTF-8 JSON: {error}"))
        if not isinstance(event, dict) or not isinstance(event.get("type"), str):
            return Answer(400, invalid_event("webhook_invalid_event", "The body has no event type: it is not an event."))
        if event["type"] not in SESSION_EVENTS and event["type"] not in TRANSACTION_EVENTS:
            # Authentic, of a type added after this shop was written: acknowledged, or it comes again for days.
            self.log(f"ignored: an event of type {event['type']!r}, which this shop does not know")
            return Answer(204)
        missing = missing_fields(event, headers)
        if missing:
            # Signed, but this shop could never handle it: 4xx, as 5xx would ask for it again and again.
            return Answer(400, invalid_event("webhook_invalid_event", f"The {event['type']} event lacks {missing}."))

        if event["id"] in self.processed:  # a redelivery of an event already handled
            return Answer(204)
        try:
            self.process(event)
        except Exception as error:
            # Our own failure (the service unreachable, a database down): not recorded, so the redelivery does the work.
            print(f"{event['type']} {event['id']} not handled, the service will deliver it again: {error}", file=sys.stderr)
            return Answer(503, {"type": "about:blank", "title": "Service Unavailable", "status": 503, "detail": "Not handled; deliver it again."})
        self.processed.add(event["id"])  # only once processing succeeded
        return Answer(204)
    # docs:handler:end

    def process(self, event: dict) -> None:
        data = event["data"]
        if event["type"] in TRANSACTION_EVENTS:
            transaction = self.payin.get_transaction(data["transaction_id"])
            change = self.orders.apply_transaction(transaction)  # the transaction is the truth, not the event
            why = f"{event['type']}; {transaction['id']} is {transaction['status']}"
            if transaction.get("failure_reason"):
                why += f": {transaction['failure_reason']}"
        else:
            change = self.orders.apply_session(data, SESSION_EVENTS[event["type"]])
            why = event["type"]
        if change:
            self.log(f"{change} ({why})")


def missing_fields(event: dict, headers) -> Optional[str]:
    """What a known event lacks of what handling it needs (its id is the webhook-id, the ids in its data), or None."""
    webhook_id = next((value for key, value in headers.items() if key.lower() == "webhook-id"), None)
    if event.get("id") != webhook_id:
        return "an id equal to the webhook-id header"
    data = event.get("data")
    if not isinstance(data, dict):
        return "its data"
    ids = ["session_id"] + (["transaction_id"] if event["type"] in TRANSACTION_EVENTS else [])
    absent = [field for field in ids if not isinstance(data.get(field), str) or not data[field]]
    absent += [field for field in ("amount", "currency") if data.get(field) is None]
    if "order_id" in data and not isinstance(data["order_id"], str):
        absent.append("order_id")
    return "data." + ", data.".join(absent) if absent else None


def invalid_event(code: str, detail: str) -> dict:
    return {"type": PROBLEM_TYPE_BASE + code, "title": "Invalid webhook event", "status": 400, "detail": detail, "code": code}
