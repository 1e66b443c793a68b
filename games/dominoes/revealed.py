"""Who really held what at each position of a dominoes match (games.revealed): the referee's
log holds every dealt and drawn tile, so folding it with the rules gives every hand at every
moment."""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from functools import cache
from typing import Any

from games.dominoes.events import HandDealt, Passed, TilePlayed, TilesDrawn
from games.dominoes.rules import evolve
from games.dominoes.state import MatchState
from games.revealed import Moment
from inference.classes import POOL

MOVE_EVENTS = (TilePlayed, Passed, TilesDrawn)


@cache
def tile_name(tile: Any) -> str:
    """A tile as the beliefs name it in `marginals` ("3-5"); cached, as it is asked millions
    of times by the weighted belief."""
    return f"{tile.low}-{tile.high}"


def dominoes_moments(events: Sequence[Any]) -> Iterator[Moment]:
    """Every position of every hand at which someone is to move: after the last deal event
    and after each play, pass or draw while the hand goes on (hand_ended reveals all)."""
    state: MatchState | None = None
    move = 0
    for index, event in enumerate(events):
        state = evolve(state, event)
        if state.phase != "playing" or state.hand is None:
            move = 0
            continue
        hand = state.hand
        if isinstance(event, MOVE_EVENTS):
            move += 1
        elif isinstance(event, HandDealt):  # the last one: play starts ("playing")
            move = 0
        else:
            continue
        holders: dict[str, str] = {}
        for seat in state.variant.seats:
            for tile in hand.hands[seat] or ():
                holders[tile_name(tile)] = seat
        played = hand.played
        for tile in state.variant.tiles:
            name = tile_name(tile)
            if name not in holders and tile not in played:
                holders[name] = POOL
        yield Moment(index, hand.number, move, holders)
