"""Who really held what: the positions at which a game's shown odds are scored.

The game interface says how an event looks to each audience, not who holds which item at each
moment; a game that `calibrate` can score declares a revealer (`Capabilities.reveal`): from a
referee log, every position at which someone is to move, with the true holder of every item
still in play, named as the game's belief names them in `marginals`.

Most games' marginals say who holds an item (each item is in exactly one place: a tile, a
card). A game whose marginals are events about counts instead — Uno's "S holds at least two
r7", where copies of a kind may be in several places at once — also declares how a snapshot
reads as forecasts (`Forecasts`), and its revealer names those events and their outcomes.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator, Mapping, Sequence
from dataclasses import dataclass
from typing import Any


@dataclass(frozen=True)
class Moment:
    """The position right after `events[index]`: hand `hand`, `move` moves into it, and the
    true holder of every item still in play (item name -> holder name; or, for a game that
    declares `Forecasts`, event name -> its outcome)."""

    index: int
    hand: int
    move: int
    holders: dict[str, str]


Revealer = Callable[[Sequence[Any]], Iterator[Moment]]
"""A referee log -> its scored positions, each with its revealed truth."""

Forecasts = Callable[[Mapping[str, Any]], dict[str, dict[str, float]]]
"""A belief's snapshot -> item -> outcome -> probability, named as the revealer names items
and outcomes (the default, for a game that declares none: the snapshot's `marginals`, holder
-> item -> p, turned item -> holder -> p)."""
