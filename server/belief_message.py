"""The body of a `belief` message, shared by live pushes and replays so both look the same."""

from __future__ import annotations

from typing import Any

JS_SAFE = 2**53
"""Integers above this lose precision in JavaScript; larger counts travel as decimal strings."""


def belief_body(snapshot: dict[str, Any]) -> dict[str, Any]:
    """A belief snapshot's JSON dict in the message shape (without `type` and `table_id`)."""
    deals = snapshot.get("consistent_deals")
    if isinstance(deals, int) and deals > JS_SAFE:
        deals = str(deals)
    return {
        "seq": snapshot["seq"],
        "observer": snapshot["observer"],
        "model": snapshot.get("model"),
        "hand": snapshot.get("hand"),
        "status": snapshot.get("status"),
        "consistent_deals": deals,
        "entropy_bits": snapshot.get("entropy_bits"),
        "marginals": snapshot.get("marginals", {}),
        "facts": snapshot.get("facts", []),
        "remaining": snapshot.get("remaining", {}),
        "tile_entropy_bits": snapshot.get("tile_entropy_bits", {}),
    }
