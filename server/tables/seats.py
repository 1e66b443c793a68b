"""Seat tokens: random bearer secrets of which only a sha256 is ever stored.

A token proves a connection may act (or resume) as one seat of one table. Storing its hash
in the table's side stream lets tokens survive a restart without the store holding secrets.
"""

from __future__ import annotations

import hashlib
import hmac
import secrets

TOKEN_BYTES = 24
"""192 bits of randomness (the protocol promises at least 128)."""


def new_token() -> str:
    return secrets.token_urlsafe(TOKEN_BYTES)


def token_digest(token: str) -> str:
    return hashlib.sha256(token.encode("utf-8")).hexdigest()


def token_matches(token: str, digest: str | None) -> bool:
    """Constant-time comparison of a presented token with a stored digest."""
    return digest is not None and hmac.compare_digest(token_digest(token), digest)
