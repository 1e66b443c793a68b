"""Brute force for the belief check: each game's consistent deals, enumerated by a counter
that shares no code with the game's belief, in the shape of the game's belief snapshot.

A counter is registered here under its game's name. `positions(match, audience)` yields
(cut, truth) in increasing cut: after the first `cut` events of the referee log, what the
audience's exact belief must say, as {snapshot field: {holder: {item: Fraction}}} (a
holder or item left out has probability 0). A counter yields only positions small enough
to enumerate (small decks, late positions); `too_large` names the variants it cannot reach
at all, and why.
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping
from fractions import Fraction
from typing import Any, Protocol

from tests.conformance.cases import Match

Truth = dict[str, dict[str, dict[str, Fraction]]]


class Counter(Protocol):
    too_large: Mapping[str, str]

    def positions(self, match: Match, audience: str) -> Iterator[tuple[int, Truth]]: ...


def counter_for(game: str) -> Counter | None:
    """The registered brute force of `game` (None: the game has none yet)."""
    from tests.conformance.brute import clue, dominoes, texas42, toy, uno

    return {"toy": toy.COUNTER, "clue": clue.COUNTER, "uno": uno.COUNTER,
            "texas42": texas42.COUNTER, "dominoes": dominoes.COUNTER}.get(game)


def shares(hits: dict[str, dict[str, int]], total: int) -> dict[str, dict[str, Fraction]]:
    return {h: {item: Fraction(n, total) for item, n in row.items()} for h, row in hits.items()}


def observed(match: Match, audience: str) -> list[Any]:
    """The audience's view of every event of the match."""
    game = match.case.game
    return [game.view(e, audience) for e in match.events]
