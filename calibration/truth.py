"""Who really held what at each position of a stored match: the truth forecasts are scored on.

The game interface says how an event looks to each audience but not, generically, "who holds
which item now" from the referee's view, so each game the report covers has a small adapter
here (dominoes: the referee's log holds every dealt and drawn tile, so folding it with the
rules gives every hand at every moment). What the interface could offer instead:
`Game.holdings(state) -> {holder: items}` on a referee state, with holder and item names as
the game's belief writes them in `marginals`, and `Game.position_moves(event) -> bool`
(which events are a player's move). With those two, this module would need no adapters.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass
from functools import cache
from typing import Any

from games.dominoes.events import HandDealt, Passed, TilePlayed, TilesDrawn
from games.dominoes.rules import evolve
from games.dominoes.state import MatchState
from games.interface import Game
from inference.classes import POOL

MOVE_EVENTS = (TilePlayed, Passed, TilesDrawn)


class NotRevealed(ValueError):
    """A game this report has no adapter for (it cannot tell who held what)."""


@dataclass(frozen=True)
class Moment:
    """The position right after `events[index]`: hand `hand`, `move` moves into it, and the
    true holder of every item still in play (item name -> holder name)."""

    index: int
    hand: int
    move: int
    holders: dict[str, str]


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


REVEALERS: dict[str, Callable[[Sequence[Any]], Iterator[Moment]]] = {
    "dominoes": dominoes_moments,
}


def moments(game: Game, events: Sequence[Any]) -> Iterator[Moment]:
    """The scored positions of a referee log of `game`, each with its revealed truth."""
    reveal = REVEALERS.get(game.name)
    if reveal is None:
        raise NotRevealed(f"calibrate has no adapter telling who held what in {game.name} "
                          "(calibration/truth.py)")
    return reveal(events)
