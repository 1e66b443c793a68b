"""Stored matches between a game's own bots (mixed tables allowed), so that the report has
players of known kinds to be scored on (`calibrate --play`).

Each seat's bot decides with a random source of its own (seeded by the seed, the match and
the seat), and each seat's bot is named in `match_started.players` (a behaviour model fits
its parameters per player name). A bot that can think within another budget
(`with_budgets`) is given `budgets` (work per decision, e.g. solver nodes and deals for a
PIMC bot).
"""

from __future__ import annotations

import random
from collections.abc import Iterator, Mapping, Sequence
from typing import Any

from games.interface import Bot, Seat, table_seats
from games.play import play_match
from games.registry import GAMES, Registry


class SeatBot:
    """A game's bot deciding with its own seat's random source (not the match loop's)."""

    def __init__(self, bot: Bot, rng: random.Random) -> None:
        self.bot = bot
        self.rng = rng

    def choose(self, view: Sequence[Any], seat: Seat, rng: random.Random) -> Any:
        return self.bot.choose(view, seat, self.rng)


def bot_matches(variant: str, bots: Sequence[str], count: int, seed: int,
                options: Mapping[str, Any] | None = None,
                budgets: Mapping[str, float] | None = None,
                games: Registry = GAMES) -> Iterator[list[Any]]:
    """`count` complete matches of `variant` with these table `options`, bot names given per
    seat in turn order (one name: every seat); match ids `cal-<seed>-<k>`. ValueError for a
    bot the game does not have."""
    game = games.game_of_variant(variant)
    seats = table_seats(game, variant, options)
    names = list(bots) * len(seats) if len(bots) == 1 else list(bots)
    if len(names) != len(seats):
        raise ValueError(f"{variant} has {len(seats)} seats: name one bot, or one per seat")
    known = game.bots()
    for name in names:
        if name not in known:
            raise ValueError(f"unknown bot {name!r} (known: {', '.join(known)})")
    made = {name: _budgeted(known[name], budgets) for name in set(names)}
    for k in range(count):
        players = {s: SeatBot(made[n], random.Random(f"{seed}:{k}:{s}"))
                   for s, n in zip(seats, names, strict=True)}
        rng = random.Random(f"cal:{seed}:{k}")
        events = play_match(game, variant, players, rng, options, match_id=f"cal-{seed}-{k}")
        named = dict(zip(seats, names, strict=True))
        events[0] = events[0].model_copy(update={"players": named})
        yield events


def _budgeted(bot: Bot, budgets: Mapping[str, float] | None) -> Bot:
    tune = getattr(bot, "with_budgets", None)
    return tune(**budgets) if budgets and callable(tune) else bot
