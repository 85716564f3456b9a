"""A merchant's CI test against the Payin sandbox, on Python's standard library alone.

It creates a customer and a payment session, pays the session through the sandbox's control API, and
receives the session's signed events at an endpoint of its own, each verified (Standard Webhooks:
HMAC-SHA256 of `id.timestamp.body` under the account's signing secret, in constant time) before it is
read. Run it with `python3 -m unittest discover -s tests -v` beside a running sandbox.

PAYIN_BASE_URL  the sandbox (default http://127.0.0.1:4010)
PAYIN_TOKEN     the account, any token (default: a new one each run)
WEBHOOK_PORT    where the test's endpoint listens on 127.0.0.1 (default: a free port)
WEBHOOK_URL     the URL it registers (default http://127.0.0.1:$WEBHOOK_PORT/webhooks); never called while
                payin-listen takes the account's deliveries and passes them on to WEBHOOK_PORT
"""

from __future__ import annotations

import base64
import hashlib
import hmac
import json
import os
import queue
import threading
import time
import unittest
import urllib.error
import urllib.request
import uuid
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

BASE_URL = os.environ.get("PAYIN_BASE_URL", "http://127.0.0.1:4010").rstrip("/")
TOKEN = os.environ.get("PAYIN_TOKEN") or f"ci-python-{uuid.uuid4()}"
# What a paid session sends at once; transaction-settled follows a day of sandbox time later.
PAID_EVENTS = ["session-created", "transaction-created", "transaction-completed", "session-completed"]


def call(method: str, path: str, body: dict | None = None) -> tuple[int, dict]:
    """One request to the sandbox as the account; its status and its JSON answer."""
    headers = {"Authorization": f"Bearer {TOKEN}", "Content-Type": "application/json"}
    if method == "POST":
        headers["Idempotency-Key"] = str(uuid.uuid4())
    data = None if body is None else json.dumps(body).encode()
    request = urllib.request.Request(BASE_URL + path, data=data, headers=headers, method=method)
    try:
        with urllib.request.urlopen(request, timeout=10) as response:
            return response.status, json.loads(response.read() or b"null")
    except urllib.error.HTTPError as error:
        return error.code, json.loads(error.read() or b"null")


def verified(body: bytes, headers, secret: str) -> dict:
    """The event, once its signature and timestamp are the service's; ValueError otherwise."""
    webhook_id, timestamp, signatures = (headers.get(name, "") for name in ("webhook-id", "webhook-timestamp", "webhook-signature"))
    if not (webhook_id and timestamp.isdigit() and abs(time.time() - int(timestamp)) <= 300):
        raise ValueError(f"headers refused: {webhook_id!r} {timestamp!r}")
    key = base64.b64decode(secret.removeprefix("whsec_"))
    expected = b"v1," + base64.b64encode(hmac.new(key, f"{webhook_id}.{timestamp}.".encode() + body, hashlib.sha256).digest())
    if not any(hmac.compare_digest(candidate.encode(), expected) for candidate in signatures.split(" ")):
        raise ValueError("no signature matches")
    return json.loads(body)


class Endpoint(ThreadingHTTPServer):
    """The test's webhook endpoint: each delivery verified, then queued; a refused one answers 401."""

    def __init__(self, port: int):
        self.secret = ""
        self.events: queue.Queue = queue.Queue()
        self.refused: list[str] = []
        endpoint = self

        class Handler(BaseHTTPRequestHandler):
            def do_POST(self):
                body = self.rfile.read(int(self.headers.get("Content-Length", "0")))
                try:
                    endpoint.events.put(verified(body, self.headers, endpoint.secret))
                    self.send_response(204)
                except ValueError as error:
                    endpoint.refused.append(str(error))
                    self.send_response(401)
                self.end_headers()

            def log_message(self, *args):
                pass

        super().__init__(("127.0.0.1", port), Handler)


class PaidSessionTest(unittest.TestCase):
    def setUp(self):
        self.endpoint = Endpoint(int(os.environ.get("WEBHOOK_PORT", "0")))
        threading.Thread(target=self.endpoint.serve_forever, daemon=True).start()
        url = os.environ.get("WEBHOOK_URL", f"http://127.0.0.1:{self.endpoint.server_port}/webhooks")
        status, webhook = call("POST", "/webhooks", {"url": url})
        self.assertIn(status, (200, 201), webhook)
        self.endpoint.secret = webhook["signing_secret"]

    def tearDown(self):
        self.endpoint.shutdown()
        self.endpoint.server_close()

    def test_a_paid_session_sends_its_events_signed(self):
        customer = {"type": "INDIVIDUAL", "payment_rail": "PAYIN", "first_name": "Lucía", "last_name": "García"}
        customer |= {"email": f"lucia+{uuid.uuid4().hex[:8]}@example.com", "phone_number": "+34612345678"}
        status, counterparty = call("POST", "/api/v1/send/counterparties/", customer)
        self.assertEqual(status, 201, counterparty)
        order = {"amount": 49.99, "currency": "EUR", "counterparty_id": counterparty["id"], "redirect_url": "https://shop.example.com/thanks"}
        status, session = call("POST", "/api/v1/earn/payment-sessions/", order)
        self.assertEqual(status, 201, session)
        status, paid = call("POST", f"/_sandbox/v1/payment-sessions/{session['id']}/simulate", {"outcome": "pay"})
        self.assertEqual(status, 200, paid)

        received = {}
        deadline = time.monotonic() + 15
        while set(PAID_EVENTS) - set(received) and time.monotonic() < deadline:
            try:
                event = self.endpoint.events.get(timeout=max(0.0, deadline - time.monotonic()))
            except queue.Empty:
                break
            if event["data"].get("session_id") == session["id"]:
                received[event["type"]] = event
        self.assertEqual(self.endpoint.refused, [])
        self.assertEqual(sorted(received), sorted(PAID_EVENTS))
        self.assertEqual(received["transaction-completed"]["data"]["transaction_id"], paid["transaction"]["id"])


if __name__ == "__main__":
    unittest.main()
