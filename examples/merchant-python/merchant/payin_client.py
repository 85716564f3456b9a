"""The Payin API client, on urllib.request: the four calls the shop makes, each retried as the package's client retries.

A lost connection, a timeout (30 s an attempt), 429 and 503 are tried again, twice, after an exponential
backoff with jitter (from 500 ms, at most 10 s) or the answer's Retry-After. Every POST carries one
Idempotency-Key on all its attempts: a create whose answer was lost is answered again, not made twice.
"""

from __future__ import annotations

import http.client
import json
import random
import re
import time
import urllib.error
import urllib.parse
import urllib.request
import uuid
from typing import Optional

RETRIES = 2
BASE_DELAY_SECONDS = 0.5
MAX_DELAY_SECONDS = 10.0
TIMEOUT_SECONDS = 30
RETRIED_STATUSES = {429, 503}


class PayinError(Exception):
    """The service refused the request (`status` and its problem document), or could not be reached (`status` is None)."""

    def __init__(self, message: str, status: Optional[int] = None, problem: Optional[dict] = None):
        super().__init__(message)
        self.status = status
        self.problem = problem or {}


class PayinClient:
    def __init__(self, base_url: str, token: str):
        self.base_url = base_url.rstrip("/")
        self.token = token

    def create_counterparty(self, customer: dict) -> str:
        """The customer as a PAYIN counterparty; its id, or the existing one's for a returning customer (409)."""
        try:
            return self._request("POST", "/api/v1/send/counterparties/", {"type": "INDIVIDUAL", "payment_rail": "PAYIN", **customer})["id"]
        except PayinError as error:
            if error.status == 409 and error.problem.get("code") == "counterparty_exists":
                return error.problem["existing_id"]
            raise

    def create_payment_session(self, session: dict, idempotency_key: Optional[str] = None) -> dict:
        return self._request("POST", "/api/v1/earn/payment-sessions/", session, idempotency_key)

    def get_transaction(self, transaction_id: str) -> dict:
        return self._request("GET", f"/api/v1/earn/transactions/{urllib.parse.quote(transaction_id, safe='')}/")

    def register_webhook(self, url: str) -> dict:
        """Registers the URL events go to (registering again replaces it); the answer's signing_secret signs them."""
        return self._request("POST", "/webhooks", {"url": url})

    def _request(self, method: str, path: str, body: Optional[dict] = None, idempotency_key: Optional[str] = None) -> dict:
        headers = {"Authorization": f"Bearer {self.token}", "Accept": "application/json"}
        data = None
        if body is not None:
            headers["Content-Type"] = "application/json"
            data = json.dumps(body).encode()
        if method == "POST":
            # Made once, before the first attempt: every retry is the same request.
            headers["Idempotency-Key"] = idempotency_key or str(uuid.uuid4())
        for attempt in range(RETRIES + 1):
            request = urllib.request.Request(self.base_url + path, data=data, headers=headers, method=method)
            retry_after = None
            try:
                with urllib.request.urlopen(request, timeout=TIMEOUT_SECONDS) as response:
                    return json.loads(response.read() or b"{}")
            except urllib.error.HTTPError as answer:
                # urllib raises for every status of 400 and over: the answer is in the error.
                problem = read_problem(answer)
                if answer.code not in RETRIED_STATUSES or attempt == RETRIES:
                    raise PayinError(f"{method} {path}: {answer.code} {problem.get('code', '')}".rstrip(), answer.code, problem) from None
                retry_after = answer.headers.get("Retry-After")
            except (urllib.error.URLError, http.client.HTTPException, OSError) as error:
                # No answer: refused, reset, or slower than the timeout.
                if attempt == RETRIES:
                    raise PayinError(f"{method} {path}: {getattr(error, 'reason', error)}") from None
            time.sleep(retry_delay(attempt, retry_after))
        raise AssertionError("unreachable")


def retry_delay(attempt: int, retry_after: Optional[str]) -> float:
    """Retry-After's seconds when the service gave them, else half of base x 2^attempt plus up to as much again at random; at most 10 s."""
    if retry_after is not None and re.fullmatch(r"[0-9]+", retry_after.strip()):
        return min(MAX_DELAY_SECONDS, float(retry_after))
    ceiling = min(MAX_DELAY_SECONDS, BASE_DELAY_SECONDS * 2**attempt)
    # Equal jitter: clients that failed together do not all retry together.
    return ceiling / 2 + random.random() * ceiling / 2


def read_problem(answer: urllib.error.HTTPError) -> dict:
    try:
        problem = json.loads(answer.read())
        return problem if isinstance(problem, dict) else {}
    except (ValueError, OSError, http.client.HTTPException):
        return {}
