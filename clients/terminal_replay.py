"""A match told move by move for a terminal, for a game that declares no narrator of its own
(`Capabilities.narrate`): one line per event from its log format, folded through the game's
`evolve` so a log that cannot be replayed is an error, not a story.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator
from typing import Any

from games.interface import Game


def narrate_any(game: Game, events: Iterable[Any]) -> Iterator[str]:
    """One line per event of any game: seq, type and the event's fields as the log has them
    (a hidden field shows as hidden). The game's `evolve` raises for a log that cannot fold."""
    state: Any = None
    for event in events:
        state = game.evolve(state, event)
        data = game.event_to_dict(event)
        fields = "  ".join(f"{key}={_shown(value)}" for key, value in data.items()
                           if key not in ("seq", "type"))
        yield f"{data.get('seq', 0):>5}  {data.get('type')}  {fields}".rstrip()


def _shown(value: Any) -> str:
    if value is None:
        return "(hidden)"
    if isinstance(value, list):
        return " ".join(str(v) for v in value) or "—"
    if isinstance(value, dict):
        return ",".join(f"{k}:{_shown(v)}" for k, v in value.items()) or "—"
    return str(value)
