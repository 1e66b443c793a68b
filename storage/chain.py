"""The hash chain: canonical JSON and the sha256 link that makes silent edits detectable.

hash(n) = sha256(hash(n-1) as hex + canonical_json(payload(n))); the first link uses 64 zeros.
The stored payload *is* the canonical text, so verifying re-hashes the exact stored bytes.
"""

from __future__ import annotations

import hashlib
import json
from typing import Any

GENESIS_HASH = "0" * 64


def canonical_json(value: Any) -> str:
    """One spelling per value: sorted keys, no spaces, UTF-8 kept as is."""
    return json.dumps(
        value, sort_keys=True, separators=(",", ":"), ensure_ascii=False, allow_nan=False
    )


def link_hash(prev_hash: str, payload_text: str) -> str:
    return hashlib.sha256((prev_hash + payload_text).encode("utf-8")).hexdigest()
