"""Discord's signature on each interaction: Ed25519 over the timestamp and the
raw body, with the application's public key (PyNaCl). Discord sends
requests with bad signatures on purpose, and disables an endpoint that
accepts one; an old timestamp is refused too, so that a request seen once
cannot be played again later."""

from __future__ import annotations

import time
from typing import Final

from nacl.exceptions import BadSignatureError
from nacl.signing import VerifyKey

from ..problems import Problem

OLDEST: Final = 300.0
"""Seconds a signed request may be old (5 minutes)."""
AHEAD: Final = 60.0
"""Seconds a timestamp may be ahead of the server's clock."""
SIGNATURE_BYTES: Final = 64


def unsigned(why: str) -> Problem:
    return Problem(401, f"invalid request signature: {why}")


def check(
    key: VerifyKey,
    signature: str | None,
    timestamp: str | None,
    body: bytes,
    now: float | None = None,
) -> None:
    """Nothing if ``signature`` (hex) signs ``timestamp`` + ``body`` with
    ``key`` and ``timestamp`` (Unix seconds) is recent; else a 401."""
    if not signature or not timestamp:
        raise unsigned("X-Signature-Ed25519 and X-Signature-Timestamp are both needed")
    if not timestamp.isascii() or not timestamp.isdigit() or len(timestamp) > 12:
        raise unsigned("the timestamp is not Unix seconds")
    try:
        signed = bytes.fromhex(signature)
    except ValueError:
        raise unsigned("the signature is not hexadecimal") from None
    if len(signed) != SIGNATURE_BYTES:
        raise unsigned(f"the signature is not {SIGNATURE_BYTES} bytes")
    try:
        key.verify(timestamp.encode() + body, signed)
    except BadSignatureError:
        raise unsigned("it does not match") from None
    age = (time.time() if now is None else now) - int(timestamp)
    if age > OLDEST or age < -AHEAD:
        raise unsigned("the timestamp is stale")
