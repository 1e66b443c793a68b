"""Forged moves: events that could stand at a move's seq but that no legal move there writes."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

from tests.conformance.cases import Match, Move


def _without_seq(event: Any, game: Any) -> dict[str, Any]:
    data = game.event_to_dict(event)
    data.pop("seq", None)
    return data


def forgeries(played: Match, move: Move) -> Iterator[Any]:
    """Events that could stand at the move's seq but that no legal move there writes: one
    field of the real event set to what another event of its type had, or another seat."""
    game, events = played.case.game, played.events
    real = events[move.seq - 1]
    state = played.states()[move.seq - 1]
    legal = [_without_seq(game.decide(state, c)[0], game)
             for c in game.legal_moves(state, move.seat)]
    data = game.event_to_dict(real)
    options: list[dict[str, Any]] = []
    for other in events:
        if other.type != real.type or other is real:
            continue
        theirs = game.event_to_dict(other)
        options += [{**data, key: theirs[key]} for key in data
                    if key != "seq" and theirs.get(key) != data[key]]
    options += [{**data, key: seat} for key, value in data.items() if value in played.case.seats
                for seat in played.case.seats if seat != value]
    seen: list[dict[str, Any]] = []
    for option in options:
        try:
            forged = game.parse_event(option)
        except ValueError:
            continue  # the log reader refuses it already
        plain = _without_seq(forged, game)
        if plain in legal or plain in seen:
            continue
        seen.append(plain)
        yield forged
