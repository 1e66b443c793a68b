"""Who really held what at each position of a stored match: the truth forecasts are scored on,
from the revealer the match's game declares (games.revealed, `Capabilities.reveal`)."""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from typing import Any

from games.interface import Game
from games.revealed import Moment


class NotRevealed(ValueError):
    """A game that declares no revealer (calibrate cannot tell who held what)."""


def moments(game: Game, events: Sequence[Any]) -> Iterator[Moment]:
    """The scored positions of a referee log of `game`, each with its revealed truth."""
    reveal = game.capabilities.reveal
    if reveal is None:
        raise NotRevealed(f"calibrate has no adapter telling who held what in {game.name}: "
                          "it declares no revealer (games.revealed)")
    return reveal(events)
