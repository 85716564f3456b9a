"""The HTTP side of the shop, on http.server: POST /webhooks/payin to the handler, GET /orders, GET /thanks.

ThreadingHTTPServer answers each request on a thread of its own: a delivery whose fetch of the
transaction hangs holds up no other. Whatever fails in one request is answered there (500 at worst),
and the server goes on.
"""

from __future__ import annotations

import json
import sys
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Optional
from urllib.parse import unquote, urlsplit

from merchant.handler import WebhookHandler
from merchant.orders import Orders

MAX_BODY_BYTES = 1024 * 1024
# Past the limit, what is still read (and dropped) before the connection closes, so that the sender
# sees the 413 rather than a reset; past this too, the connection is closed on the rest.
MAX_DRAINED_BYTES = 8 * 1024 * 1024


class MerchantServer(ThreadingHTTPServer):
    def __init__(self, port: int, orders: Orders):
        super().__init__(("127.0.0.1", port), MerchantRequests)
        self.orders = orders
        # Set once the URL is registered: its answer carries the signing secret.
        self.webhooks: Optional[WebhookHandler] = None

    @property
    def url(self) -> str:
        return f"http://127.0.0.1:{self.server_address[1]}"


class MerchantRequests(BaseHTTPRequestHandler):
    server: MerchantServer

    def do_POST(self) -> None:
        self.answer_safely(self.route_post)

    def do_GET(self) -> None:
        self.answer_safely(self.route_get)

    # Any other method, on any path: nothing here.
    def do_HEAD(self) -> None:
        self.answer_safely(lambda: self.send_text(404, "Not found\n"))

    do_PUT = do_DELETE = do_PATCH = do_OPTIONS = do_HEAD

    def route_post(self) -> None:
        if urlsplit(self.path).path != "/webhooks/payin":
            return self.send_text(404, "Not found\n")
        body = self.read_body()
        if body is None:
            return
        if self.server.webhooks is None:  # not registered yet: no secret to verify with
            return self.send_json(503, {"type": "about:blank", "title": "Service Unavailable", "status": 503}, "application/problem+json")
        answer = self.server.webhooks.handle(body, self.headers)
        if answer.body is None:
            self.send_response(answer.status)
            self.send_header("Content-Length", "0")
            self.end_headers()
        else:
            self.send_json(answer.status, answer.body, "application/problem+json")

    def route_get(self) -> None:
        path = urlsplit(self.path).path
        if path == "/orders":
            return self.send_json(200, self.server.orders.list())
        if path.startswith("/orders/"):
            order = self.server.orders.get(unquote(path[len("/orders/") :]))
            return self.send_json(200, order) if order else self.send_text(404, "Not found\n")
        # The session's redirect_url: where the customer lands after paying.
        if path == "/thanks":
            return self.send_text(200, "Thank you! Your payment is being confirmed.\n")
        self.send_text(404, "Not found\n")

    def read_body(self) -> Optional[bytes]:
        """The raw body, at most 1 MiB; None once a refusal is answered."""
        length = self.headers.get("Content-Length", "")
        if self.headers.get("Transfer-Encoding") or not length.isascii() or not length.isdigit():
            # The service always sends Content-Length; without it, the end of the body is unknown.
            self.close_connection = True
            self.send_text(411, "Length Required\n")
            return None
        if int(length) > MAX_BODY_BYTES:
            self.close_connection = True
            self.send_text(413, f"The body is over {MAX_BODY_BYTES} bytes.\n")
            self.drain(min(int(length), MAX_DRAINED_BYTES))
            return None
        return self.rfile.read(int(length))

    def drain(self, remaining: int) -> None:
        while remaining > 0:
            chunk = self.rfile.read(min(remaining, 64 * 1024))
            if not chunk:
                return
            remaining -= len(chunk)

    def answer_safely(self, route) -> None:
        try:
            route()
        except (BrokenPipeError, ConnectionResetError):
            pass  # the sender gave up waiting (a delivery times out after 15 s): nobody to answer
        except Exception as error:  # this shop's bug: answered, logged, and the server goes on
            print(f"{self.command} {self.path} failed: {error!r}", file=sys.stderr)
            try:
                self.send_text(500, "Internal error\n")
            except OSError:
                pass

    def send_json(self, status: int, body, content_type: str = "application/json") -> None:
        self.send_bytes(status, (json.dumps(body, indent=2) + "\n").encode(), content_type)

    def send_text(self, status: int, text: str) -> None:
        self.send_bytes(status, text.encode(), "text/plain; charset=utf-8")

    def send_bytes(self, status: int, body: bytes, content_type: str) -> None:
        self.send_response(status)
        self.send_header("Content-Type", content_type)
        self.send_header("Content-Length", str(len(body)))
        self.end_headers()
        if self.command != "HEAD":
            self.wfile.write(body)

    def log_message(self, format: str, *args) -> None:
        pass  # no access log: the handler logs what matters
