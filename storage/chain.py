"""The hash chain: canonical JSON and the sha256 link that makes silent edits detectable.

hash(n) = sha256(hash(n-1) as hex + canonical_json(payload(n))); the first link uses 64 zeros.
The stored payload *is* the canonical text, so verifying re-hashes the exact stored bytes.
"""

from __future__ import annotations

import hashlib
import json
from json.encoder import c_encode_basestring, c_make_encoder  # type: ignore[attr-defined]
from typing import Any

GENESIS_HASH = "0" * 64


_CANONICAL = json.JSONEncoder(
    sort_keys=True, separators=(",", ":"), ensure_ascii=False, allow_nan=False
)


def _refuse(value: Any) -> Any:
    raise TypeError(f"Object of type {value.__class__.__name__} is not JSON serializable")


_C_ENCODER = (None if c_make_encoder is None or c_encode_basestring is None else
              c_make_encoder(None, _refuse, c_encode_basestring, None, ":", ",", True, False,
                             False))
"""json's own C encoder with the options above, made once: json.dumps builds a JSONEncoder
and a C encoder for every call, about half the cost of encoding a small event. It keeps no
markers (so no state between calls, whatever thread calls it): a circular value ends in
RecursionError, said as json says it, ValueError."""


def canonical_json(value: Any) -> str:
    """One spelling per value: sorted keys, no spaces, UTF-8 kept as is."""
    if _C_ENCODER is None:
        return _CANONICAL.encode(value)
    try:
        return "".join(_C_ENCODER(value, 0))
    except RecursionError:
        raise ValueError("Circular reference detected (or nesting too deep)") from None


def link_hash(prev_hash: str, payload_text: str) -> str:
    return hashlib.sha256((prev_hash + payload_text).encode("utf-8")).hexdigest()
