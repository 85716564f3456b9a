"""The Standard Webhooks verifier the handler calls, and that ./verify-vectors runs over the vectors file.

It checks the signature and the timestamp of a delivery, in the order the package's verifyWebhook does
(so that a refusal names the same reason): the three headers, the timestamp's form, its distance from
now, then the signatures. It parses nothing: the body is only trusted once this has passed.
"""

from __future__ import annotations

import base64
import hashlib
import hmac
import re
from typing import Iterable, Mapping

TOLERANCE_SECONDS = 300
PROBLEM_TYPE_BASE = "https://docs.payin.example.com/problems/"

# 1 to 12 ASCII digits: [0-9], not \d, which takes any Unicode digit; fullmatch, not $, which lets a
# trailing newline through.
TIMESTAMP = re.compile(r"[0-9]{1,12}")
# Strict base64, padded, in the standard alphabet, as the package reads a secret.
BASE64 = re.compile(r"[A-Za-z0-9+/]*={0,2}")


class WebhookVerificationError(Exception):
    """A delivery refused, or a secret that is not one; `reason` says which check failed."""

    def __init__(self, reason: str, message: str):
        super().__init__(message)
        self.reason = reason

    def to_problem(self) -> dict:
        """The answer, as the package's toProblem(): 401 for a delivery that is not the service's, 500 for our own bad secret."""
        status = 500 if self.reason == "invalid_secret" else 401
        code = f"webhook_{self.reason}"
        title = "Webhook receiver misconfigured" if status == 500 else "Webhook verification failed"
        return {"type": PROBLEM_TYPE_BASE + code, "title": title, "status": status, "detail": str(self), "code": code}


# docs:verify:start
def verify_webhook(body: bytes, headers: Mapping[str, str], secrets: Iterable[str], now: int, tolerance: int = TOLERANCE_SECONDS) -> None:
    """Raises WebhookVerificationError unless one of `secrets` signed this delivery within `tolerance` seconds of `now`."""
    keys = secret_keys(secrets)
    webhook_id = required_header(headers, "webhook-id")
    timestamp = required_header(headers, "webhook-timestamp")
    signatures = required_header(headers, "webhook-signature")

    if not TIMESTAMP.fullmatch(timestamp):
        raise WebhookVerificationError("invalid_timestamp", f"The webhook-timestamp header is not a Unix time in seconds: {timestamp!r}.")
    skew = now - int(timestamp)
    if skew > tolerance:
        raise WebhookVerificationError("timestamp_too_old", f"The delivery was signed {skew} s ago, more than the {tolerance} s tolerance.")
    if skew < -tolerance:
        raise WebhookVerificationError("timestamp_too_new", f"The delivery is signed {-skew} s in the future, more than {tolerance} s.")

    # The raw bytes as received: JSON parsed and serialised again would not give the same ones.
    signed = f"{webhook_id}.{timestamp}.".encode() + body
    expected = [b"v1," + base64.b64encode(hmac.new(key, signed, hashlib.sha256).digest()) for key in keys]
    # Space-separated; a header repeated by a proxy arrives joined with ", ". Every candidate is compared
    # with every secret's signature, in constant time, so the time taken tells nothing about a match.
    matched = False
    for candidate in signatures.split(" "):
        candidate_bytes = candidate.removesuffix(",").encode()
        for signature in expected:
            matched |= hmac.compare_digest(candidate_bytes, signature)
    if not matched:
        raise WebhookVerificationError("invalid_signature", "No v1 signature in webhook-signature matches the body under this secret.")
# docs:verify:end


def secret_keys(secrets: Iterable[str]) -> list[bytes]:
    """The HMAC keys of the secrets; none at all would refuse every delivery without saying why."""
    keys = [secret_key(secret) for secret in secrets]
    if not keys:
        raise WebhookVerificationError("invalid_secret", "The list of signing secrets is empty: give at least one.")
    return keys


def secret_key(secret: str) -> bytes:
    """The HMAC key of a signing secret: whsec_ and base64, the prefix optional."""
    encoded = secret.removeprefix("whsec_")
    if not encoded or len(encoded) % 4 != 0 or not BASE64.fullmatch(encoded):
        raise WebhookVerificationError("invalid_secret", "The signing secret must be whsec_ followed by base64, as POST /webhooks returns it.")
    return base64.b64decode(encoded)


def required_header(headers: Mapping[str, str], name: str) -> str:
    """The header's value, by its name in any case; present and not empty, or the delivery is refused."""
    values = [value for key, value in headers.items() if key.lower() == name]
    # A header sent twice is one list, as a proxy that joins them would send it.
    value = ", ".join(values)
    if not value:
        raise WebhookVerificationError("missing_header", f"The {name} header is missing.")
    return value
