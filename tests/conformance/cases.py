"""The cases of the conformance suite: every variant the registry hosts, and the toy game.

A game gets the whole suite by registering (games/registry.py); the toy (tests/games/toy)
stands for "a game nobody in server/ or clients/ knows". Matches are played once per
(variant, seed) through games/play.py and shared by the suite's modules; the bots are
wrapped to record which event each of their moves opened, so the checks know the moves
without knowing the game.
"""

from __future__ import annotations

import functools
import random
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from games.interface import SPECTATOR, Bot, Game, Seat, table_seats
from games.play import play_match
from games.registry import GAMES, Registry
from tests.games.toy.game import TOY

REGISTRY = Registry([*GAMES.games(), TOY])
"""The real games and the toy: one registry for every case (the server and CLI take it)."""

SEEDS = (1, 2, 3)
"""Random matches per variant: each a whole match with the variant's default options."""


@dataclass(frozen=True)
class Case:
    variant: str
    game: Game
    alias: bool
    """An old name kept for old logs (not offered to new tables)."""

    @property
    def seats(self) -> tuple[Seat, ...]:
        return table_seats(self.game, self.variant, None)

    @property
    def audiences(self) -> tuple[str, ...]:
        """Who may watch a match: each seat and the spectator (the referee sees all)."""
        return (*self.seats, SPECTATOR)

    def __str__(self) -> str:
        return self.variant


CASES = tuple(Case(name, REGISTRY.game_of_variant(name), info.alias_of is not None)
              for name, info in REGISTRY.variants().items())
TABLE_CASES = tuple(c for c in CASES if not c.alias)
"""The variants a new table may have (aliases only read old logs)."""


@dataclass(frozen=True)
class Move:
    """A player's command and the seq of the first event it caused."""

    seq: int
    seat: Seat
    command: Any


@dataclass(frozen=True)
class Match:
    case: Case
    seed: int
    events: tuple[Any, ...]
    moves: tuple[Move, ...]

    @functools.cached_property
    def _states(self) -> tuple[Any, ...]:
        out: list[Any] = [None]
        for event in self.events:
            out.append(self.case.game.evolve(out[-1], event))
        return tuple(out)

    def states(self) -> tuple[Any, ...]:
        """states[i]: the referee's state after the first i events."""
        return self._states


class _Recording:
    """A bot that notes each command it chooses with the seq its first event will take."""

    def __init__(self, bot: Bot, moves: list[Move]) -> None:
        self.bot = bot
        self.moves = moves

    def choose(self, view: Sequence[Any], seat: Seat, rng: random.Random) -> Any:
        command = self.bot.choose(view, seat, rng)
        self.moves.append(Move(len(view) + 1, seat, command))  # views are contiguous
        return command


@functools.cache
def match(variant: str, seed: int) -> Match:
    """One whole match of `variant` between the game's random bots (its first bot if it has
    no "random"), with the variant's default options."""
    case = next(c for c in CASES if c.variant == variant)
    moves: list[Move] = []
    bots = case.game.bots()
    bot = _Recording(bots.get("random") or next(iter(bots.values())), moves)
    events = play_match(case.game, variant, dict.fromkeys(case.seats, bot),
                        random.Random(seed), match_id=f"conf-{variant}-{seed}")
    return Match(case, seed, tuple(events), tuple(moves))


def ids(cases: Sequence[Case]) -> list[str]:
    return [c.variant for c in cases]
