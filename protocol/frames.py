"""Frames as the server sends them: the `event` and `belief` pushes, built without pydantic
(they are the hot path: one per event per audience) in the shapes of `EventMessage` and
`BeliefMessage`. The belief body is shared by live pushes and replays so both look the same."""

from __future__ import annotations

from typing import Any

from pydantic_core import to_json

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
        "error_95": snapshot.get("error_95"),
        "details": {k: v for k, v in snapshot.items() if k not in _BODY},
    }


_BODY = frozenset({"seq", "observer", "model", "hand", "status", "consistent_deals",
                   "entropy_bits", "marginals", "facts", "remaining", "tile_entropy_bits",
                   "error_95", "method", "samples", "marginal_entropy_bits"})
"""The snapshot keys the message names, and bookkeeping it does not send
(method, samples, per-value entropies); the rest, a game's own (a trump, a phase, an
envelope, expected counts), go in `details`."""


def belief_frame(table_id: str, snapshot: dict[str, Any]) -> str:
    """The `belief` server message for a snapshot's JSON dict (see BeliefMessage)."""
    message = {"type": "belief", "table_id": table_id, **belief_body(snapshot)}
    return to_json(message).decode()  # compact, and ~5x faster than json.dumps here


def event_frame(table_id: str, seq: int, event: dict[str, Any],
                legal_moves: list[dict[str, Any]] | None = None) -> str:
    """The `event` server message for one already-redacted event in the log format, with
    the receiving seat's legal moves when it is to act after it (its own feed only)."""
    message: dict[str, Any] = {"type": "event", "table_id": table_id, "seq": seq, "event": event}
    if legal_moves is not None:
        message["legal_moves"] = legal_moves
    return to_json(message).decode()
